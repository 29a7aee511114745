/**
 * The meridian pattern rules of the contract (meridianPattern), mirrored for the form: at least one
 * condition; a meridian/status pair once; a meridian not both excess and deficient. Like the server,
 * the later row of a clash is the one reported.
 */
import type { PatternStatus } from '@app/contract/api/meridians';
import type { MeridianCondition } from '@app/contract/api/diseases';

export type PatternIssue = 'duplicate' | 'conflict';

export function patternIssues(list: (Partial<MeridianCondition> | undefined)[] | undefined): Map<number, PatternIssue> {
  const out = new Map<number, PatternIssue>();
  const seen = new Set<string>();
  (list ?? []).forEach((c, i) => {
    if (!c?.meridian || !c.status) return;
    const opposite = c.status === 'excess' ? 'deficient' : c.status === 'deficient' ? 'excess' : null;
    if (seen.has(`${c.meridian}:${c.status}`)) out.set(i, 'duplicate');
    else if (opposite && seen.has(`${c.meridian}:${opposite}`)) out.set(i, 'conflict');
    seen.add(`${c.meridian}:${c.status}`);
  });
  return out;
}

export const PATTERN_SYMBOL: Record<PatternStatus, string> = { excess: '↑', deficient: '↓', imbalanced: '⇅' };
export const PATTERN_COLOR: Record<PatternStatus, string> = { excess: 'red', deficient: 'blue', imbalanced: 'orange' };
