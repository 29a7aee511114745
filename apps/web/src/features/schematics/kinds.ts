import type { SchematicKind } from '@app/contract/api/schematics';

export const KIND_COLOR: Record<SchematicKind, string> = { measurement_map: 'blue', treatment_placement: 'green', meridian_chart: 'purple' };
