import type { L10n, MeridianWeights } from '@app/contract';
import type { Tx } from '../../db/client';
import { systems } from '../../db/schema';
import { t } from '../../lib/labels';

export const order = 22;

interface SeedSystem {
  key: string;
  name: L10n;
  weights: MeridianWeights;
  children: { key: string; name: L10n; weights: MeridianWeights }[];
}

/** About ten body systems with two or three subsystems each; weights follow the usual meridian-organ relations. */
export const SEED_SYSTEMS: SeedSystem[] = [
  {
    key: 'respiratory',
    name: t('呼吸系统', 'Respiratory system', 'Sistema respiratorio', '呼吸器系'),
    weights: { LU: 3, LI: 2, KI: 1 },
    children: [
      { key: 'upper-airways', name: t('上呼吸道（鼻、咽喉）', 'Upper airways (nose, throat)', 'Vías respiratorias altas (nariz, garganta)', '上気道（鼻・のど）'), weights: { LU: 2, LI: 2, ST: 1 } },
      { key: 'lungs', name: t('肺与支气管', 'Lungs and bronchi', 'Pulmones y bronquios', '肺と気管支'), weights: { LU: 3, KI: 1 } },
    ],
  },
  {
    key: 'cardiovascular',
    name: t('心血管系统', 'Cardiovascular system', 'Sistema cardiovascular', '循環器系'),
    weights: { HT: 3, PC: 3, SI: 1 },
    children: [
      { key: 'heart', name: t('心脏', 'Heart', 'Corazón', '心臓'), weights: { HT: 3, PC: 2 } },
      { key: 'vessels', name: t('血管与循环', 'Blood vessels and circulation', 'Vasos sanguíneos y circulación', '血管と循環'), weights: { PC: 2, LR: 1, SP: 1 } },
      { key: 'blood-pressure', name: t('血压调节', 'Blood pressure regulation', 'Regulación de la presión arterial', '血圧調節'), weights: { LR: 2, KI: 2, HT: 1 } },
    ],
  },
  {
    key: 'digestive',
    name: t('消化系统', 'Digestive system', 'Sistema digestivo', '消化器系'),
    weights: { ST: 3, SP: 3, LI: 2, SI: 1, LR: 1, GB: 1 },
    children: [
      { key: 'stomach', name: t('胃', 'Stomach', 'Estómago', '胃'), weights: { ST: 3, SP: 2 } },
      { key: 'intestines', name: t('肠道', 'Intestines', 'Intestinos', '腸'), weights: { LI: 3, SI: 2, ST: 1 } },
      { key: 'liver-gallbladder', name: t('肝胆', 'Liver and gallbladder', 'Hígado y vesícula biliar', '肝臓と胆のう'), weights: { LR: 3, GB: 3 } },
    ],
  },
  {
    key: 'urinary',
    name: t('泌尿系统', 'Urinary system', 'Sistema urinario', '泌尿器系'),
    weights: { KI: 3, BL: 3 },
    children: [
      { key: 'kidneys', name: t('肾脏', 'Kidneys', 'Riñones', '腎臓'), weights: { KI: 3, BL: 1 } },
      { key: 'bladder', name: t('膀胱', 'Bladder', 'Vejiga', '膀胱'), weights: { BL: 3, KI: 1 } },
    ],
  },
  {
    key: 'reproductive',
    name: t('生殖系统', 'Reproductive system', 'Sistema reproductor', '生殖器系'),
    weights: { KI: 2, LR: 2, SP: 2 },
    children: [
      { key: 'female', name: t('女性生殖', 'Female reproductive organs', 'Órganos reproductores femeninos', '女性生殖器'), weights: { SP: 2, LR: 2, KI: 2 } },
      { key: 'male', name: t('男性生殖', 'Male reproductive organs', 'Órganos reproductores masculinos', '男性生殖器'), weights: { KI: 3, LR: 1 } },
    ],
  },
  {
    key: 'nervous',
    name: t('神经系统', 'Nervous system', 'Sistema nervioso', '神経系'),
    weights: { HT: 2, PC: 1, GB: 2, BL: 1, LR: 1 },
    children: [
      { key: 'brain-sleep', name: t('大脑与睡眠', 'Brain and sleep', 'Cerebro y sueño', '脳と睡眠'), weights: { HT: 3, PC: 1, KI: 1 } },
      { key: 'peripheral-nerves', name: t('周围神经', 'Peripheral nerves', 'Nervios periféricos', '末梢神経'), weights: { GB: 2, BL: 2, SI: 1 } },
      { key: 'mood', name: t('情绪与压力', 'Mood and stress', 'Estado de ánimo y estrés', '情緒とストレス'), weights: { LR: 2, PC: 2, HT: 1 } },
    ],
  },
  {
    key: 'musculoskeletal',
    name: t('运动系统', 'Musculoskeletal system', 'Sistema musculoesquelético', '運動器系'),
    weights: { GB: 2, BL: 2, SI: 1, TE: 1, ST: 1, LR: 1 },
    children: [
      { key: 'neck-shoulders', name: t('颈肩', 'Neck and shoulders', 'Cuello y hombros', '首と肩'), weights: { SI: 2, TE: 2, GB: 2 } },
      { key: 'lower-back', name: t('腰背', 'Lower back', 'Zona lumbar', '腰背部'), weights: { BL: 3, KI: 2 } },
      { key: 'joints', name: t('关节', 'Joints', 'Articulaciones', '関節'), weights: { GB: 2, LR: 1, SP: 1 } },
    ],
  },
  {
    key: 'endocrine',
    name: t('内分泌系统', 'Endocrine system', 'Sistema endocrino', '内分泌系'),
    weights: { TE: 2, KI: 2, SP: 2, LR: 1 },
    children: [
      { key: 'thyroid', name: t('甲状腺', 'Thyroid', 'Tiroides', '甲状腺'), weights: { TE: 2, LR: 1, KI: 1 } },
      { key: 'blood-sugar', name: t('血糖与胰腺', 'Blood sugar and pancreas', 'Glucemia y páncreas', '血糖と膵臓'), weights: { SP: 3, ST: 1, KI: 1 } },
    ],
  },
  {
    key: 'immune',
    name: t('免疫系统', 'Immune system', 'Sistema inmunitario', '免疫系'),
    weights: { LU: 2, SP: 2, TE: 1, KI: 1 },
    children: [
      { key: 'lymphatic', name: t('淋巴系统', 'Lymphatic system', 'Sistema linfático', 'リンパ系'), weights: { TE: 2, SP: 1 } },
      { key: 'allergy', name: t('过敏反应', 'Allergic reactions', 'Reacciones alérgicas', 'アレルギー反応'), weights: { LU: 2, LI: 1, SP: 1 } },
    ],
  },
  {
    key: 'skin',
    name: t('皮肤系统', 'Skin and appendages', 'Piel y anejos', '皮膚系'),
    weights: { LU: 2, LI: 2, SP: 1, BL: 1 },
    children: [
      { key: 'skin-surface', name: t('皮肤', 'Skin', 'Piel', '皮膚'), weights: { LU: 2, LI: 2 } },
      { key: 'hair-nails', name: t('毛发与指甲', 'Hair and nails', 'Cabello y uñas', '毛髪と爪'), weights: { KI: 2, LR: 1 } },
    ],
  },
];

export async function seed(tx: Tx) {
  for (const [i, s] of SEED_SYSTEMS.entries()) {
    const [row] = await tx
      .insert(systems)
      .values({ name: s.name, weights: s.weights, sort: (i + 1) * 10 })
      .returning({ id: systems.id });
    await tx.insert(systems).values(s.children.map((c, j) => ({ parentId: row!.id, name: c.name, weights: c.weights, sort: (j + 1) * 10 })));
  }
}

/** Seeded system ids by their key (other modules' seeds): matched by English name. */
export async function seededSystemIds(tx: Tx): Promise<Map<string, number>> {
  const rows = await tx.select({ id: systems.id, name: systems.name, parentId: systems.parentId }).from(systems);
  const out = new Map<string, number>();
  for (const s of SEED_SYSTEMS) {
    const top = rows.find((r) => r.parentId === null && r.name.en === s.name.en);
    if (!top) continue;
    out.set(s.key, top.id);
    for (const c of s.children) {
      const child = rows.find((r) => r.parentId === top.id && r.name.en === c.name.en);
      if (child) out.set(c.key, child.id);
    }
  }
  return out;
}
