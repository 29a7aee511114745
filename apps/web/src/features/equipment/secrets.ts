import type { EquipmentImportAnswer } from '@app/contract/api/equipment';
import { csvText } from '@app/contract/csv';

/** The CSV of imported devices' secrets (shown once): cells neutralised like every export's (a serial or secret may start with `-`). */
export const secretsCsv = (devices: EquipmentImportAnswer['devices']): string =>
  csvText(
    ['serial', 'secret'],
    devices.map((d) => [d.serial, d.secret]),
  );
