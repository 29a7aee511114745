import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { IdInput, InspectionReportData, InspectionShare, ShareAnswer, ShareBody, SharePdfQuery, ShareReason, ShareTokenQuery, UnshareBody } from '@app/contract';
import type { Tx } from '../../db/client';
import { inspectionShares, inspections, institutions } from '../../db/schema';
import { type Auth, callerRef } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { recordAudit, refusals, userAgentOf } from '../../lib/audit';
import { hashKey } from '../../lib/crypto';
import { type AppError, badRequest } from '../../lib/errors';
import { fieldError } from '../../lib/form';
import type { FastifyRequest } from 'fastify';
import { addressKey, goodOpen } from '../../lib/throttle';
import { scopeOfPath } from './scope';
import { activeLinksOf, reportOf, scopedInspection, sendPdf, shareSealer, shareUrl } from './service';
import { DAY, iso } from '../../lib/time';

/*
 * Sharing a report with the person (trust-api.md "The person's report"): `/inspection/share` makes a link
 * to the public page `/share/<token>`, valid `days` (default: parameter share_days). The token is 256
 * random bits, base64url; the table keeps its SHA-256 (the lookup) and a sealed copy (so the report can
 * print the active link's QR code again), never the token itself. `/share/report` and `/share/pdf` open
 * it without a session: throttled per address (lib/throttle.ts reserveOpen, routes.ts), each open written
 * to the audit trail as a read of the inspection by nobody (`anonymous`), and answering that one report
 * only: every `id` of the answer is a position within it, the institution is its name, the device its
 * serial, the analysis versions' authors are left out (publicReport).
 */

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const accountName = (auth: Auth) => callerRef(auth).username;

/** The throttle's reservation of each public open, by request (set by routes.ts before the handler). */
export const reservedOpens = new WeakMap<FastifyRequest, number>();

/** The throttle's address key of a public open (its own namespace: sign-in failures count apart). */
export const openAddress = (ip: string) => `share|${addressKey(ip)}`;

/** POST /inspection/share: a new link to the report's public page. */
export async function share(db: Tx, auth: Auth, body: ShareBody, ctx: Ctx): Promise<ShareAnswer> {
  const row = await scopedInspection(db, auth, body.id);
  const days = body.days ?? auth.params.share_days;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + days * DAY);
  const [created] = await db
    .insert(inspectionShares)
    .values({
      inspectionId: row.id,
      institutionId: row.institutionId,
      tokenHash: hashKey(token),
      tokenSealed: shareSealer(ctx.config).seal(token),
      createdBy: accountName(auth),
      createdByKind: auth.kind,
      expiresAt,
    })
    .returning({ id: inspectionShares.id });
  return { id: created!.id, token, url: shareUrl(ctx, token), expires_at: iso(expiresAt) };
}

/** POST /inspection/unshare: revokes the report's active links, or the one `share_id`. */
export async function unshare(db: Tx, auth: Auth, body: UnshareBody): Promise<{ revoked: number }> {
  const row = await scopedInspection(db, auth, body.id);
  const where = body.share_id ? and(activeLinksOf(row.id), eq(inspectionShares.id, body.share_id)) : activeLinksOf(row.id);
  const done = await db
    .update(inspectionShares)
    .set({ revokedAt: new Date(), revokedBy: accountName(auth) })
    .where(where)
    .returning({ id: inspectionShares.id });
  if (body.share_id && !done.length) throw fieldError('share_id', 'shareNotFound');
  return { revoked: done.length };
}

/** GET /inspection/share_list: the report's active links, newest first. */
export async function shareList(db: Tx, auth: Auth, q: IdInput, ctx: Ctx): Promise<{ list: InspectionShare[] }> {
  const row = await scopedInspection(db, auth, q.id);
  const rows = await db.select().from(inspectionShares).where(activeLinksOf(row.id)).orderBy(desc(inspectionShares.id));
  const sealer = shareSealer(ctx.config);
  return {
    list: rows.flatMap((r) => {
      const token = sealer.open(r.tokenSealed);
      return token ? [{ id: r.id, url: shareUrl(ctx, token), created_at: iso(r.createdAt), expires_at: iso(r.expiresAt), created_by: r.createdBy }] : [];
    }),
  };
}

/** The audit trail's view of an inspection's links: the active ones (never a token). */
export async function shareSnapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const rows = await db
    .select({ id: inspectionShares.id, expires_at: inspectionShares.expiresAt, created_by: inspectionShares.createdBy })
    .from(inspectionShares)
    .where(activeLinksOf(id))
    .orderBy(inspectionShares.id);
  return { inspection_id: id, active: rows.map((r) => ({ id: r.id, expires_at: iso(r.expires_at), created_by: r.created_by })) };
}

const MESSAGE: Record<ShareReason, 'shareUnknown' | 'shareExpired' | 'shareRevoked'> = { share_unknown: 'shareUnknown', share_expired: 'shareExpired', share_revoked: 'shareRevoked' };
const refused = (reason: ShareReason): AppError => {
  const error = badRequest(MESSAGE[reason]);
  error.extra.reason = reason;
  return error;
};

/** The link of a token, or the reason it does not open (counted against the address, one refused audit row a minute per address). */
async function openLink(db: Tx, token: string, ctx: Ctx) {
  const hash = TOKEN.test(token) ? hashKey(token) : null;
  const [link] = hash ? await db.select().from(inspectionShares).where(eq(inspectionShares.tokenHash, hash)) : [];
  const reason: ShareReason | null = !link ? 'share_unknown' : link.revokedAt ? 'share_revoked' : link.expiresAt.getTime() <= Date.now() ? 'share_expired' : null;
  const reserved = reservedOpens.get(ctx.req);
  if (!reason) {
    if (reserved != null) await goodOpen(db, reserved);
    return link!;
  }
  const admitted = refusals.admit(openAddress(ctx.ip));
  if (admitted)
    await recordAudit(db, {
      auth: null,
      endpoint: ctx.req.endpoint!,
      recordType: link ? 'inspection' : null,
      recordId: link?.inspectionId ?? null,
      before: null,
      after: null,
      input: { token, reason, suppressed: admitted.suppressed },
      ip: ctx.ip,
      event: 'read',
      outcome: 'refused',
      reason: 'forbidden',
      userAgent: userAgentOf(ctx.req.headers),
    });
  throw refused(reason);
}

/** The shared report as its own data (history within the inspection's institution's subtree), and the open's audit row. */
async function sharedData(db: Tx, token: string, ctx: Ctx): Promise<InspectionReportData> {
  const link = await openLink(db, token, ctx);
  const [row] = await db.select().from(inspections).where(eq(inspections.id, link.inspectionId));
  const [inst] = await db.select({ path: institutions.path }).from(institutions).where(eq(institutions.id, row!.institutionId));
  const data = await reportOf(db, row!, scopeOfPath(inst!.path), undefined, async () => ({ url: shareUrl(ctx, token), expires_at: iso(link.expiresAt) }));
  // The open, before anything is sent (fail closed), as a read of the inspection by nobody.
  await recordAudit(db, {
    auth: null,
    endpoint: ctx.req.endpoint!,
    recordType: 'inspection',
    recordId: row!.id,
    before: null,
    after: null,
    input: { token, share_id: link.id, lang: ctx.lang },
    ip: ctx.ip,
    event: 'read',
    userAgent: userAgentOf(ctx.req.headers),
  });
  return data;
}

/**
 * The report as the public sees it: every `id` becomes its position within the answer (the same record,
 * the same position: a disease's advice and its row, an acupoint and its markers, a system now and in the
 * history), the inspection's own id 0; the institution is its name, the device its serial, the doctor
 * name and title; the analysis versions and their authors are left out.
 */
export function publicReport(data: InspectionReportData): InspectionReportData {
  const positions = () => {
    const seen = new Map<number, number>();
    return (id: number) => {
      let n = seen.get(id);
      if (n == null) {
        n = seen.size + 1;
        seen.set(id, n);
      }
      return n;
    };
  };
  const disease = positions();
  const point = positions();
  const diagram = positions();
  const system = positions();
  const ins = data.inspection;
  const a = ins.analysis;
  const analysis = a && {
    baseline: a.baseline,
    meridians: a.meridians,
    indices: a.indices,
    systems: a.systems.map((s) => ({ id: system(s.id), name: s.name, score: s.score, level: s.level })),
    diseases: a.diseases.map((d) => ({ id: disease(d.id), name: d.name, share: d.share, risk: d.risk })),
    advice: {
      acupoints: a.advice.acupoints.map((p) => ({ id: point(p.id), code: p.code, name: p.name })),
      schematics: a.advice.schematics.map((s) => ({ id: diagram(s.id), title: s.title, url: s.url })),
    },
  };
  return {
    inspection: {
      id: 0,
      inspection_no: ins.inspection_no,
      measured_at: ins.measured_at,
      created_at: ins.created_at,
      institution: { id: 0, name: ins.institution.name },
      device: { id: 0, serial: ins.device.serial, name: '', model: '' },
      doctor: ins.doctor && { id: 0, name: ins.doctor.name, title: ins.doctor.title },
      user: { id: 0, name: ins.user.name, gender: ins.user.gender, birth_date: ins.user.birth_date, phone: null, id_number: ins.user.id_number },
      vitals: ins.vitals,
      readings: ins.readings,
      analysis: analysis as InspectionReportData['inspection']['analysis'],
      version: ins.version,
      latest_version: ins.version,
      versions: [],
    },
    history: data.history.map((h, i) => ({ id: i + 1, measured_at: h.measured_at, indices: h.indices, systems: h.systems.map((s) => ({ id: system(s.id), score: s.score, level: s.level })) })),
    share: data.share,
    diseases: data.diseases.map((d) => ({ id: disease(d.id), description: d.description, advice: d.advice })),
    acupoints: data.acupoints.map((p) => ({ id: point(p.id), code: p.code, name: p.name, meridian: p.meridian, location: p.location })),
    schematics: data.schematics.map((s) => ({
      id: diagram(s.id),
      title: s.title,
      url: s.url,
      markers: s.markers.map((m) => ({ acupoint_id: point(m.acupoint_id), code: m.code, x: m.x, y: m.y, advised: m.advised })),
    })),
    disclaimer: data.disclaimer,
  };
}

/** GET /share/report (public): the shared report, read-only. */
export async function sharedReport(db: Tx, _auth: Auth | null, q: ShareTokenQuery, ctx: Ctx): Promise<InspectionReportData> {
  return publicReport(await sharedData(db, q.token, ctx));
}

/** GET /share/pdf (public): the shared report as a PDF in `lang` (default: the reader's language). */
export async function sharedPdf(db: Tx, _auth: Auth | null, q: SharePdfQuery, ctx: Ctx): Promise<Buffer> {
  const data = publicReport(await sharedData(db, q.token, ctx));
  return sendPdf(data, q.lang ?? ctx.lang, ctx, db);
}
