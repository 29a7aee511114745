import type { SystemLevel } from '@app/contract/analysis';
import type { InspectionRisk } from '@app/contract/api/inspections';

/** Tag colours of the headline: the worst system level and the top risk. */
export const LEVEL_COLOR: Record<SystemLevel, string> = { normal: 'green', attention: 'gold', abnormal: 'red' };
export const RISK_COLOR: Record<InspectionRisk, string> = { high: 'red', medium: 'orange', low: 'blue', none: 'default' };
