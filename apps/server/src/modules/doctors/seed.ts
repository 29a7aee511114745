import { inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { doctors, institutions } from '../../db/schema';
import { DAY } from '../../lib/time';

export const order = 60;

/** [institution username, name, gender, phone, title, status] */
const DEMO_DOCTORS = [
  ['clinic3', '李明', 'male', '13812345601', 'Chief physician', 'enabled'],
  ['clinic3', '王芳', 'female', '13812345602', 'Attending physician', 'enabled'],
  ['clinic3', 'Daniel Smith', 'male', '+14155550123', 'Acupuncturist', 'enabled'],
  ['clinic3', '赵丽', 'female', '13812345604', 'Nurse practitioner', 'disabled'],
  ['clinic3b', '陈刚', 'male', '13912345605', 'Chief physician', 'enabled'],
  ['clinic3b', '刘洋', 'other', '13912345606', 'Technician', 'enabled'],
  ['clinic3b', 'María García', 'female', '+34612345678', 'Physiotherapist', 'enabled'],
  ['clinic3b', '黄伟', 'male', '13912345608', 'Resident physician', 'enabled'],
  ['overdue3', '周静', 'female', '13712345609', 'Attending physician', 'enabled'],
  ['overdue3', 'Kenji Tanaka', 'male', '+819012345678', 'Acupuncturist', 'disabled'],
  ['agent2', '吴磊', 'male', '13612345611', 'Field trainer', 'enabled'],
  ['agent2b', '孙悦', 'female', '13612345612', 'Field trainer', 'enabled'],
] as const;

/** About a dozen doctors spread over the demo institutions (found by login name). */
export async function seed(tx: Tx) {
  const names = [...new Set(DEMO_DOCTORS.map((d) => d[0]))];
  const ids = new Map((await tx.select({ id: institutions.id, username: institutions.username }).from(institutions).where(inArray(institutions.username, names))).map((r) => [r.username, r.id]));
  const now = Date.now();
  const rows = DEMO_DOCTORS.filter((d) => ids.has(d[0])).map(([inst, name, gender, phone, title, status], i) => ({
    name,
    gender,
    phone,
    title,
    status,
    institutionId: ids.get(inst)!,
    createdAt: new Date(now - (200 - i * 7) * DAY),
  }));
  if (rows.length) await tx.insert(doctors).values(rows);
}
