import { API_BASE, type L10n, type SchematicKind } from '@app/contract';
import type { Tx } from '../../db/client';
import { schematicMarkers, schematics } from '../../db/schema';
import { acupointIdsByCode } from '../acupoints';
import { BODY_HEIGHT, BODY_WIDTH, mirrorX } from './drawing';
import { t } from '../../lib/labels';

export const order = 35;

/** [code, x, y] in pixels of the 600 x 1000 drawing, on the viewer's left; `both` adds the mirrored point. */
type Point = [string, number, number];

interface SeedSchematic {
  title: L10n;
  kind: SchematicKind;
  image: string;
  both: Point[];
  single?: Point[];
}

export const SEED_SCHEMATICS: SeedSchematic[] = [
  {
    title: t('十二原穴测量图', 'Measurement map: the 12 source points', 'Mapa de medición: los 12 puntos fuente', '測定図：十二原穴'),
    kind: 'measurement_map',
    image: 'builtin-body-measure.png',
    both: [
      ['LU9', 128, 548],
      ['PC7', 146, 552],
      ['HT7', 163, 548],
      ['TE4', 148, 536],
      ['LI4', 122, 590],
      ['SI4', 161, 588],
      ['SP3', 272, 962],
      ['LR3', 258, 972],
      ['KI3', 270, 930],
      ['BL64', 214, 966],
      ['GB40', 224, 938],
      ['ST42', 246, 948],
    ],
  },
  {
    title: t('常用治疗穴位置图', 'Treatment placement: common points', 'Colocación de tratamiento: puntos habituales', '治療部位図：常用穴'),
    kind: 'treatment_placement',
    image: 'builtin-body-front.png',
    both: [
      ['LI11', 150, 388],
      ['PC6', 150, 505],
      ['LU7', 131, 522],
      ['LI4', 122, 590],
      ['ST25', 258, 430],
      ['SP10', 278, 722],
      ['GB34', 222, 792],
      ['ST36', 234, 815],
      ['SP6', 266, 878],
      ['LR3', 258, 972],
    ],
    single: [
      ['GV20', 300, 36],
      ['CV12', 300, 372],
      ['CV4', 300, 490],
    ],
  },
  {
    title: t('膀胱经与督脉（背面）', 'Meridian chart: bladder meridian and governing vessel (back)', 'Carta de meridianos: vejiga y vaso gobernador (espalda)', '経絡図：膀胱経と督脈（背面）'),
    kind: 'meridian_chart',
    image: 'builtin-body-back.png',
    both: [
      ['GB20', 278, 146],
      ['BL23', 270, 455],
      ['BL40', 254, 770],
      ['BL64', 216, 962],
      ['TE5', 150, 500],
    ],
    single: [['GV20', 300, 36]],
  },
];

const fraction = (v: number, size: number) => Math.round((v / size) * 10_000) / 10_000;

export async function seed(tx: Tx) {
  const codes = [...new Set(SEED_SCHEMATICS.flatMap((s) => [...s.both, ...(s.single ?? [])].map((p) => p[0])))];
  const ids = await acupointIdsByCode(tx, codes);
  for (const [i, s] of SEED_SCHEMATICS.entries()) {
    const [row] = await tx
      .insert(schematics)
      .values({
        title: s.title,
        kind: s.kind,
        image: `${API_BASE}/uploads/${s.image}`,
        width: BODY_WIDTH,
        height: BODY_HEIGHT,
        sort: (i + 1) * 10,
      })
      .returning({ id: schematics.id });
    const points: Point[] = [
      ...(s.single ?? []),
      ...s.both.flatMap(([code, x, y]): Point[] => [
        [code, x, y],
        [code, mirrorX(x), y],
      ]),
    ];
    const markers = points
      .filter(([code]) => ids.has(code))
      .map(([code, x, y], j) => ({
        schematicId: row!.id,
        acupointId: ids.get(code)!,
        x: fraction(x, BODY_WIDTH),
        y: fraction(y, BODY_HEIGHT),
        sort: j + 1,
      }));
    if (markers.length) await tx.insert(schematicMarkers).values(markers);
  }
}
