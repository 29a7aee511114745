import { asc, eq } from 'drizzle-orm';
import { cnIdCheckChar, type Gender } from '@app/contract';
import type { Tx } from '../../db/client';
import { endUsers, institutions } from '../../db/schema';
import { seededRandom } from '../../lib/random';
import { DAY } from '../../lib/time';

export const order = 70;

const CN_SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭'];
const CN_MALE = ['伟', '强', '磊', '军', '洋', '勇', '杰', '涛', '明', '超'];
const CN_FEMALE = ['芳', '娜', '敏', '静', '丽', '艳', '娟', '霞', '婷', '雪'];
const LATIN = [
  ['John', 'male'],
  ['Emma', 'female'],
  ['Lucas', 'male'],
  ['Sofía', 'female'],
  ['Hiroshi', 'male'],
  ['Yuki', 'female'],
  ['Carlos', 'male'],
  ['Olivia', 'female'],
  ['Alex', 'other'],
] as const;
const LATIN_SURNAMES = ['Smith', 'García', 'Müller', 'Tanaka', 'Rossi', 'Martin', 'Suzuki', 'Lopez'];
/** Region codes of the demo institutions' districts. */
const REGIONS = ['330106', '330108', '440106', '440104', '310104'];

/** About 40 inspected people over the grade-3 institutions: mostly Chinese with valid ID card numbers, some foreigners with passports. */
export async function seed(tx: Tx) {
  const clinics = (await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.grade, 3)).orderBy(asc(institutions.id))).map((r) => r.id);
  if (!clinics.length) return;
  const rnd = seededRandom(20261123);
  const now = Date.now();
  const rows = Array.from({ length: 40 }, (_, i) => {
    const latin = i % 5 === 4;
    let name: string;
    let gender: Gender;
    if (latin) {
      const [first, g] = LATIN[rnd.int(0, LATIN.length - 1)]!;
      name = `${first} ${rnd.pick(LATIN_SURNAMES)}`;
      gender = g;
    } else {
      gender = i % 2 ? 'female' : 'male';
      name = rnd.pick(CN_SURNAMES) + rnd.pick(gender === 'male' ? CN_MALE : CN_FEMALE) + (rnd.next() < 0.4 ? rnd.pick(gender === 'male' ? CN_MALE : CN_FEMALE) : '');
    }
    const birth = new Date(Date.UTC(rnd.int(1945, 2012), rnd.int(0, 11), rnd.int(1, 28)));
    const birthDate = birth.toISOString().slice(0, 10);
    const adult = birth.getUTCFullYear() <= 2006;
    let idNumber: string | null;
    if (latin) idNumber = rnd.next() < 0.7 ? `${rnd.pick(['E', 'P', 'X'])}${rnd.int(10_000_000, 99_999_999)}` : null;
    else {
      // Sequence digits: odd for men, even for women, as on real ID cards.
      const seq = String(rnd.int(10, 99)) + String(gender === 'male' ? rnd.int(0, 4) * 2 + 1 : rnd.int(0, 4) * 2);
      const first17 = rnd.pick(REGIONS) + birthDate.replaceAll('-', '') + seq;
      idNumber = first17 + cnIdCheckChar(first17);
    }
    const phone =
      latin && rnd.next() < 0.5
        ? `+${rnd.pick(['1', '34', '81', '49'])}${rnd.int(100_000_000, 999_999_999)}`
        : i % 9 === 8
          ? null
          : `1${rnd.pick(['3', '5', '7', '8', '9'])}${String(rnd.int(0, 999_999_999)).padStart(9, '0')}`;
    const heightCm = adult ? (gender === 'female' ? rnd.int(1500, 1720) : rnd.int(1600, 1880)) / 10 : rnd.int(1200, 1650) / 10;
    const bmi = rnd.int(185, 290) / 10;
    const weightKg = Math.round(bmi * (heightCm / 100) ** 2 * 10) / 10;
    return {
      name,
      gender,
      birthDate,
      phone,
      idNumber,
      heightTenths: i % 11 === 10 ? null : Math.round(heightCm * 10),
      weightTenths: i % 11 === 10 ? null : Math.round(weightKg * 10),
      institutionId: clinics[i % clinics.length]!,
      createdAt: new Date(now - (300 - i * 7) * DAY - rnd.int(0, 86_000) * 1000),
    };
  });
  await tx.insert(endUsers).values(rows);
}
