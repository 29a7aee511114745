import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  type Analysis,
  type AnalysisSystem,
  type InspectionReportData,
  type L10n,
  type Lang,
  type Meridian,
  pickText,
  changesSinceLast,
  indicesTrendOption,
  meridianBarsOption,
  systemBarsHeight,
  SYSTEM_ROW,
  ANALYSIS_RULES,
  systemsTrendOption,
  trendPoints,
  trendSystems,
  LEVEL_HEX,
} from '@app/contract';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent } from 'echarts/components';
import { type EChartsCoreOption, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import SVGtoPDF from 'svg-to-pdfkit';
import { PDF } from './report-labels';

/*
 * The report as a PDF made by the server (docs/pending-report.md "Report PDF"): pdfkit lays out an A4
 * document with the printed sheet's content; the charts are the sheet's own ECharts options
 * (@app/contract report-charts.ts) drawn by ECharts' server-side SVG renderer and traced into the PDF as
 * vectors by svg-to-pdfkit. Text is set in Noto Sans (SIL Open Font License) from the npm registry, never
 * from the OS: Noto Sans SC for zh, en and es (it has Latin with accents too), Noto Sans JP for ja, so
 * kanji take their Japanese forms. pdfkit embeds only the glyphs used (a subset), so a report is tens of
 * kilobytes, not the fonts' 10 MB.
 */

use([BarChart, LineChart, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, SVGRenderer]);

const require = createRequire(import.meta.url);
const FONT_FILES = {
  sc: ['@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf', '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'],
  jp: ['@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf', '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf'],
} as const;
const fonts = new Map<string, unknown>();
/**
 * A font, parsed once per process (fontkit): pdfkit takes a parsed font as well as the file's bytes, and
 * parsing a 10 MB file's tables for every report cost most of a report's time. Each document still makes
 * its own subset of the glyphs it uses.
 */
function fontOf(file: string): unknown {
  let font = fonts.get(file);
  if (!font) {
    font = fontkit.create(fs.readFileSync(require.resolve(file)));
    fonts.set(file, font);
  }
  return font;
}

/** The images of the advised diagrams, by URL (PNG or JPEG bytes; others are left out). */
export type ImageSource = (url: string) => Promise<Buffer | null>;

export interface PdfOptions {
  lang: Lang;
  images?: ImageSource;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 34;
const WIDTH = A4.width - 2 * MARGIN;
const INK = '#222222';
const MUTED = '#666666';

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
const day = (iso: string) => iso.slice(0, 10);
const dateTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
const fmt = (v: number | null | undefined) => (v == null ? '—' : v.toFixed(2));

/** An ECharts option drawn as SVG text, at the given size (in PDF points). */
function svgOf(option: Record<string, unknown>, width: number, height: number): string {
  const chart = init(null, undefined, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(Object.assign({ animation: false, textStyle: { fontFamily: 'sans-serif' } }, option) as EChartsCoreOption);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** The report of one inspection as a PDF file. */
export async function reportPdf(data: InspectionReportData, opts: PdfOptions): Promise<Buffer> {
  const { lang } = opts;
  const L = (text: L10n) => pickText(text, lang);
  const text = (v: L10n | null | undefined) => pickText(v ?? null, lang);
  const ins = data.inspection;
  const a: Analysis | null = ins.analysis;

  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: `${L(PDF.title)} · ${ins.user.name}`, Producer: 'report' }, lang });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const family = lang === 'ja' ? FONT_FILES.jp : FONT_FILES.sc;
  // pdfkit's types name only file names and bytes; it takes a parsed (fontkit) font too (PDFFontFactory.open).
  doc.registerFont('regular', fontOf(family[0]) as Buffer);
  doc.registerFont('bold', fontOf(family[1]) as Buffer);
  doc.font('regular').fillColor(INK);

  const ensure = (height: number) => {
    if (doc.y + height > A4.height - MARGIN - 16) doc.addPage();
  };
  const heading = (title: string, needs = 60) => {
    ensure(needs);
    doc.moveDown(0.4).font('bold').fontSize(12).fillColor(INK).text(title, MARGIN, doc.y, { width: WIDTH });
    doc
      .moveTo(MARGIN, doc.y + 1)
      .lineTo(MARGIN + WIDTH, doc.y + 1)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.moveDown(0.3).font('regular').fontSize(9);
  };
  const muted = (line: string) => doc.font('regular').fontSize(8).fillColor(MUTED).text(line, MARGIN, doc.y, { width: WIDTH }).fillColor(INK);
  const chart = (option: Record<string, unknown>, height: number, width = WIDTH, x = MARGIN) => {
    ensure(height);
    const top = doc.y;
    SVGtoPDF(doc, svgOf(option, width, height), x, top, { width, height, fontCallback: () => 'regular', assumePt: true });
    doc.font('regular').fontSize(9).fillColor(INK);
    doc.y = top + height + 4;
    doc.x = MARGIN;
  };
  /** Rows of cells at fixed widths (fractions of the width); each row as tall as its tallest cell. */
  const table = (rows: { cells: string[]; bold?: boolean[]; color?: (string | undefined)[] }[], widths: number[]) => {
    for (const row of rows) {
      doc.fontSize(9);
      const heights = row.cells.map((c, i) => doc.font(row.bold?.[i] ? 'bold' : 'regular').heightOfString(c || ' ', { width: widths[i]! * WIDTH - 6 }));
      const h = Math.max(...heights) + 4;
      ensure(h);
      const top = doc.y;
      let x = MARGIN;
      row.cells.forEach((c, i) => {
        doc
          .font(row.bold?.[i] ? 'bold' : 'regular')
          .fillColor(row.color?.[i] ?? INK)
          .text(c, x + 2, top + 2, { width: widths[i]! * WIDTH - 6 });
        x += widths[i]! * WIDTH;
      });
      doc
        .moveTo(MARGIN, top + h)
        .lineTo(MARGIN + WIDTH, top + h)
        .lineWidth(0.3)
        .strokeColor('#dddddd')
        .stroke();
      doc.fillColor(INK);
      doc.y = top + h;
      doc.x = MARGIN;
    }
  };

  // Header: title, institution, the link's QR code when one is active.
  const qrSize = 70;
  const textWidth = data.share ? WIDTH - qrSize - 12 : WIDTH;
  doc.font('bold').fontSize(16).text(L(PDF.title), MARGIN, MARGIN, { width: textWidth });
  doc.font('regular').fontSize(10).fillColor(MUTED).text(ins.institution.name, { width: textWidth }).fillColor(INK);
  if (data.share) {
    drawQr(doc, data.share.url, MARGIN + WIDTH - qrSize, MARGIN, qrSize);
    doc
      .font('regular')
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(fill(L(PDF.qr), { date: day(data.share.expires_at) }), MARGIN + WIDTH - qrSize - 20, MARGIN + qrSize + 2, { width: qrSize + 20, align: 'center' })
      .fillColor(INK);
    doc.y = Math.max(doc.y, MARGIN + qrSize + 4);
  }
  doc.x = MARGIN;
  doc.moveDown(0.5);
  const birth = ins.user.birth_date ?? '—';
  const doctor = ins.doctor ? `${ins.doctor.name}${ins.doctor.title ? ` · ${ins.doctor.title}` : ''}` : '—';
  const version = ins.latest_version > 1 ? ` · ${L(PDF.version)} ${ins.version}` : '';
  const fact = [0.14, 0.19, 0.14, 0.19, 0.14, 0.2];
  const B = [true, false, true, false, true, false];
  table(
    [
      { cells: [L(PDF.person), ins.user.name, L(PDF.gender), L(PDF.genders[ins.user.gender]), L(PDF.birth), birth], bold: B },
      { cells: [L(PDF.idNumber), ins.user.id_number ?? '—', L(PDF.doctor), doctor, L(PDF.device), ins.device.serial], bold: B },
      { cells: [L(PDF.time), dateTime(ins.measured_at), L(PDF.number), `${ins.inspection_no}${version}`, '', ''], bold: B },
    ],
    fact,
  );

  if (!a) {
    doc.moveDown().fontSize(10).text(L(PDF.noAnalysis));
  } else {
    heading(L(PDF.meridians), 250);
    muted(fill(L(PDF.meridiansHelp), { b: a.baseline.toFixed(2) }));
    chart(meridianBarsOption(a, { left: L(PDF.left), right: L(PDF.right), baseline: L(PDF.baseline), meridian: (m: Meridian) => L(PDF.meridian[m]!) }), 220);

    heading(L(PDF.indices), 90);
    table(
      [
        { cells: [L(PDF.baseline), a.baseline.toFixed(2), L(PDF.yin_yang), fmt(a.indices.yin_yang)], bold: [true, false, true, false] },
        { cells: [L(PDF.upper_lower), fmt(a.indices.upper_lower), L(PDF.left_right), fmt(a.indices.left_right)], bold: [true, false, true, false] },
      ],
      [0.25, 0.25, 0.25, 0.25],
    );

    // History: what changed since the last inspection, and the trends.
    const points = trendPoints(a, ins.measured_at, data.history);
    heading(L(PDF.history), 120);
    if (!data.history.length) muted(L(PDF.noHistory));
    else {
      muted(L(PDF.historyHelp));
      const changes = changesSinceLast(a, data.history);
      if (changes) {
        doc
          .moveDown(0.2)
          .font('bold')
          .fontSize(9)
          .text(fill(L(PDF.changes), { date: day(changes.since) }), MARGIN, doc.y, { width: WIDTH });
        const arrow = (from: number | null, to: number | null) => `${fmt(from)} → ${fmt(to)}`;
        table(
          [
            {
              cells: changes.indices.map((c) => `${L(PDF[c.key])}: ${arrow(c.from, c.to)}`).concat(['']),
            },
            ...changes.systems.map((c) => ({
              cells: [text(c.system.name), `${L(PDF.levels[c.from.level])} ${c.from.score}`, `→ ${L(PDF.levels[c.to.level])} ${c.to.score}`, ''],
              color: [undefined, LEVEL_HEX[c.from.level], LEVEL_HEX[c.to.level], undefined],
            })),
          ],
          [0.34, 0.22, 0.22, 0.22],
        );
        if (!changes.systems.length) muted(L(PDF.noChanges));
      }
      const date = (iso: string) => day(iso).slice(2);
      chart(indicesTrendOption(points, { yin_yang: L(PDF.yin_yang), upper_lower: L(PDF.upper_lower), left_right: L(PDF.left_right) }, date), 160);
      const followed = trendSystems(a, points);
      if (followed.length)
        chart(
          systemsTrendOption(points, followed, (s: AnalysisSystem) => text(s.name), date),
          170 + Math.ceil(followed.length / 3) * 16,
        );
    }

    const height = systemBarsHeight(a.systems.length);
    heading(L(PDF.systems), Math.min(height + 40, 700));
    muted(L(PDF.systemsHelp));
    ensure(height);
    systemBars(doc, a.systems, (s: AnalysisSystem) => text(s.name), doc.y + 4);
    doc.y += height;
    doc.x = MARGIN;

    heading(L(PDF.risks), 60);
    if (!a.diseases.length) doc.text(L(PDF.noRisks));
    const adviceOf = new Map(data.diseases.map((d) => [d.id, d]));
    for (const d of a.diseases) {
      ensure(40);
      doc
        .font('bold')
        .fontSize(9.5)
        .text(`${text(d.name)}  `, MARGIN, doc.y, { continued: true, width: WIDTH })
        .font('regular')
        .fillColor(d.risk === 'high' ? '#cf1322' : d.risk === 'medium' ? '#d46b08' : '#1d39c4')
        .text(`${L(PDF.risk[d.risk])}  `, { continued: true })
        .fillColor(MUTED)
        .text(fill(L(PDF.match), { p: `${Math.round(d.share * 100)}%` }))
        .fillColor(INK);
      const advice = text(adviceOf.get(d.id)?.advice);
      if (advice)
        doc
          .font('regular')
          .fontSize(9)
          .text(`${L(PDF.advice)}: ${advice}`, MARGIN, doc.y, { width: WIDTH });
      doc.moveDown(0.3);
    }

    if (data.acupoints.length) {
      heading(L(PDF.acupoints), 60);
      table(
        data.acupoints.map((p) => ({
          cells: [p.code, text(p.name), p.meridian ? `${p.meridian} · ${L(PDF.meridian[p.meridian] ?? { zh: '', en: '', es: '', ja: '' })}` : '', text(p.location)],
        })),
        [0.1, 0.2, 0.22, 0.48],
      );
    }

    if (data.schematics.length && opts.images) {
      const images = await Promise.all(data.schematics.map((s) => opts.images!(s.url).catch(() => null)));
      const shown = data.schematics.map((s, i) => ({ s, img: images[i] })).filter((x) => x.img && isPngOrJpeg(x.img));
      if (shown.length) {
        heading(L(PDF.diagrams), 230);
        const w = (WIDTH - 24) / 3;
        const h = w * (5 / 3);
        shown.forEach(({ s, img }, i) => {
          if (i % 3 === 0) ensure(h + 24);
          const col = i % 3;
          const top = col === 0 ? doc.y : doc.y;
          const x = MARGIN + col * (w + 12);
          doc.image(img!, x, top, { fit: [w, h], align: 'center', valign: 'center' });
          const dims = imageSize(img!);
          // The image as drawn (fit keeps its ratio), then its markers at their relative places.
          const scale = Math.min(w / dims.width, h / dims.height);
          const dw = dims.width * scale;
          const dh = dims.height * scale;
          const ox = x + (w - dw) / 2;
          const oy = top + (h - dh) / 2;
          for (const m of s.markers) {
            const cx = ox + m.x * dw;
            const cy = oy + m.y * dh;
            doc
              .circle(cx, cy, m.advised ? 3 : 1.6)
              .fillColor(m.advised ? '#e8462a' : '#8c8c8c')
              .fill();
            if (m.advised)
              doc
                .font('bold')
                .fontSize(6)
                .fillColor('#e8462a')
                .text(m.code, cx + 4, cy - 4, { lineBreak: false });
          }
          doc
            .font('regular')
            .fontSize(8)
            .fillColor(INK)
            .text(text(s.title), x, top + h + 2, { width: w, align: 'center' });
          doc.y = col === 2 || i === shown.length - 1 ? top + h + 28 : top;
          doc.x = MARGIN;
        });
      }
    }
  }

  heading(L(PDF.disclaimer), 50);
  const disclaimer = data.disclaimer === pickText(PDF.defaultDisclaimer, 'en') ? L(PDF.defaultDisclaimer) : data.disclaimer;
  doc.font('regular').fontSize(8.5).fillColor(INK).text(disclaimer, MARGIN, doc.y, { width: WIDTH });

  // Page numbers at the foot of every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: without this, pdfkit would start a new page for the line.
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(`${ins.inspection_no} · ${fill(L(PDF.page), { n: i + 1, total: range.count })}`, MARGIN, A4.height - MARGIN + 6, { width: WIDTH, align: 'right', lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/**
 * The body systems as horizontal bars sorted by score, worst on top, coloured by level, with the level
 * thresholds dashed: the sheet's chart (report-charts.ts systemBarsOption), drawn with pdfkit's own
 * shapes. Through ECharts and the SVG trace this one chart of 34 rows cost about 250 ms of the report's
 * CPU time on the two-core box; drawn directly, a few milliseconds.
 */
function systemBars(doc: PDFKit.PDFDocument, systems: readonly AnalysisSystem[], name: (s: AnalysisSystem) => string, top: number) {
  const sorted = [...systems].sort((x, y) => y.score - x.score || x.id - y.id);
  const labelWidth = 190;
  const x0 = MARGIN + labelWidth + 8;
  const plot = WIDTH - labelWidth - 8 - 30;
  const at = (score: number) => x0 + (plot * score) / 100;
  const bottom = top + 14 + sorted.length * SYSTEM_ROW;
  doc.font('regular').fontSize(7).fillColor(MUTED);
  for (const tick of [0, 20, 40, 60, 80, 100]) {
    doc.text(String(tick), at(tick) - 10, top, { width: 20, align: 'center', lineBreak: false });
    doc
      .moveTo(at(tick), top + 10)
      .lineTo(at(tick), bottom)
      .lineWidth(0.3)
      .strokeColor('#e5e5e5')
      .stroke();
  }
  sorted.forEach((s, i) => {
    const y = top + 14 + i * SYSTEM_ROW;
    doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(INK)
      .text(name(s), MARGIN, y + 2, { width: labelWidth, align: 'right', lineBreak: false, ellipsis: true, height: SYSTEM_ROW });
    doc
      .rect(x0, y + 3, Math.max(0.5, (plot * s.score) / 100), SYSTEM_ROW - 6)
      .fillColor(LEVEL_HEX[s.level])
      .fill();
    doc
      .fontSize(7.5)
      .fillColor(INK)
      .text(String(s.score), at(s.score) + 3, y + 3, { lineBreak: false });
  });
  for (const limit of [ANALYSIS_RULES.level.attention, ANALYSIS_RULES.level.abnormal])
    doc
      .moveTo(at(limit), top + 10)
      .lineTo(at(limit), bottom)
      .dash(2, { space: 2 })
      .lineWidth(0.6)
      .strokeColor('#999999')
      .stroke()
      .undash();
  doc.fillColor(INK);
}

/** A QR code of `text` as filled squares, `size` points wide, at (x, y). */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const cell = size / (n + 2);
  doc.rect(x, y, size, size).fillColor('#ffffff').fill();
  doc.fillColor('#000000');
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.modules.get(r, c)) doc.rect(x + (c + 1) * cell, y + (r + 1) * cell, cell, cell);
  doc.fill();
}

const isPngOrJpeg = (b: Buffer) => (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) || (b[0] === 0xff && b[1] === 0xd8);

/** Width and height of a PNG (IHDR) or JPEG (first SOF marker). */
function imageSize(b: Buffer): { width: number; height: number } {
  if (b[0] === 0x89) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) break;
    const marker = b[i + 1]!;
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return { width: 1, height: 1 };
}

/** The file's name: the person and the measuring day, e.g. `report-Wang Fang-2026-11-28.pdf` (in the reader's language). */
export function pdfFileName(data: InspectionReportData, lang: Lang): string {
  const person =
    Array.from(data.inspection.user.name, (c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .trim() || 'person';
  return `${pickText(PDF.file, lang)}-${person}-${day(data.inspection.measured_at)}.pdf`;
}
