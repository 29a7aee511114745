import { asc, eq } from 'drizzle-orm';
import type { AnalysisMaster, L10n } from '@app/contract';
import type { Tx } from '../../db/client';
import { acupoints, diseaseAcupoints, diseases, schematicMarkers, schematics, systems } from '../../db/schema';
import { together } from '../../db/together';

/**
 * The master data the analysis reads (packages/contract/src/analysis.ts): every system in report order,
 * the enabled diseases with their advised acupoints, the acupoints and the diagrams with their markers.
 * Read in the inspection's transaction, so the analysis matches the master data of that moment.
 */
export async function loadAnalysisMaster(db: Tx): Promise<AnalysisMaster> {
  const [sys, dis, links, points, diagrams, markers] = await together(db, [
    () => db.select({ id: systems.id, name: systems.name, weights: systems.weights }).from(systems).orderBy(asc(systems.sort), asc(systems.id)),
    () => db.select({ id: diseases.id, name: diseases.name, pattern: diseases.pattern }).from(diseases).where(eq(diseases.status, 1)).orderBy(asc(diseases.sort), asc(diseases.id)),
    () =>
      db
        .select({ diseaseId: diseaseAcupoints.diseaseId, acupointId: diseaseAcupoints.acupointId })
        .from(diseaseAcupoints)
        .orderBy(asc(diseaseAcupoints.diseaseId), asc(diseaseAcupoints.sort), asc(diseaseAcupoints.acupointId)),
    () => db.select({ id: acupoints.id, code: acupoints.code, name: acupoints.name }).from(acupoints),
    () => db.select({ id: schematics.id, title: schematics.title, url: schematics.image }).from(schematics).orderBy(asc(schematics.sort), asc(schematics.id)),
    () => db.select({ schematicId: schematicMarkers.schematicId, acupointId: schematicMarkers.acupointId }).from(schematicMarkers).orderBy(asc(schematicMarkers.sort), asc(schematicMarkers.id)),
  ]);
  const group = (rows: { key: number; id: number }[]) => {
    const out = new Map<number, number[]>();
    for (const r of rows) out.set(r.key, [...(out.get(r.key) ?? []), r.id]);
    return out;
  };
  const byDisease = group(links.map((l) => ({ key: l.diseaseId, id: l.acupointId })));
  const bySchematic = group(markers.map((m) => ({ key: m.schematicId, id: m.acupointId })));
  return {
    systems: sys.map((s) => ({ id: s.id, name: s.name as L10n, weights: s.weights })),
    diseases: dis.map((d) => ({ id: d.id, name: d.name as L10n, pattern: d.pattern, acupoint_ids: byDisease.get(d.id) ?? [] })),
    acupoints: points.map((p) => ({ id: p.id, code: p.code, name: p.name as L10n })),
    schematics: diagrams.map((s) => ({ id: s.id, title: s.title as L10n, url: s.url, acupoint_ids: [...new Set(bySchematic.get(s.id) ?? [])] })),
  };
}
