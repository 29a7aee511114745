import { and, eq, gte, inArray, isNotNull, lt, lte, type Placeholder, sql, type SQL } from 'drizzle-orm';
import type {
  BulkAnswer,
  EquipmentBulkStatusBody,
  DeviceRow,
  EquipmentAddAnswer,
  EquipmentAddBody,
  EquipmentEditBody,
  EquipmentImportAnswer,
  EquipmentImportBody,
  EquipmentExportQuery,
  EquipmentListQuery,
  EquipmentResetSecretBody,
  EquipmentSecretAnswer,
  EquipmentStatusBody,
  ListResult,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { devices, institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { hashKey, newKey } from '../../lib/crypto';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { fieldError } from '../../lib/form';
import { eachRow } from '../../lib/bulk';
import { userAgentOf } from '../../lib/sessions';
import { parseDeviceFile } from './import';
import { type ExportColumn, exportList as exportRows, dateCell } from '../../lib/export';
import { isoText, likeEscape, orderOf, rowsOf, sortKey } from '../../lib/list';
import { type Bind, bound, inline } from '../../db/shaped';
import { ShapedList } from '../../lib/shaped-list';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { LABELS, label } from './labels';
import { DAY } from '../../lib/time';

const SORT_COLUMNS = {
  serial: devices.serial,
  name: devices.name,
  status: devices.status,
  activated_at: devices.activatedAt,
  expires_at: devices.expiresAt,
  last_seen_at: devices.lastSeenAt,
  total_inspections: devices.totalInspections,
  created_at: devices.createdAt,
} as const;

/**
 * The list's filters, scoped to the caller's subtree, with each value bound by `bind` (db/shaped.ts); and
 * the clock of the "expiring" flag. An `institution_id` outside an institution caller's subtree is
 * refused before (`assertInstitution`).
 */
async function listConditions(_db: Tx, auth: Auth, q: EquipmentListQuery | EquipmentExportQuery, bind: Bind) {
  const expiringDays = auth.params.expiring_days;
  const onlineMinutes = auth.params.device_online_minutes;
  const now = new Date();
  const soon = new Date(now.getTime() + expiringDays * DAY);
  const onlineSince = new Date(now.getTime() - onlineMinutes * 60_000);
  const conds: (SQL | undefined)[] = [];

  if (auth.kind === 'institution') conds.push(sql`${devices.institutionId} in ${institutionSubtreeIds(auth.institution.path, bind)}`);
  if (q.institution_id) conds.push(eq(devices.institutionId, bind('institution', q.institution_id)));
  if (q.keyword) {
    const kw = likeEscape(q.keyword.toLowerCase());
    conds.push(sql`lower(${devices.serial} || ' ' || ${devices.name} || ' ' || ${devices.model}) like ${bind('keyword', `%${kw}%`)}`);
  }
  if (q.status) conds.push(eq(devices.status, bind('status', q.status)));
  if (q.expires_from) conds.push(gte(devices.expiresAt, bind('expiresFrom', new Date(`${q.expires_from}T00:00:00Z`))));
  if (q.expires_to) conds.push(lt(devices.expiresAt, bind('expiresTo', new Date(new Date(`${q.expires_to}T00:00:00Z`).getTime() + DAY))));
  if (q.expiring) conds.push(and(isNotNull(devices.expiresAt), gte(devices.expiresAt, bind('expiringFrom', now)), lte(devices.expiresAt, bind('expiringTo', soon))));
  // Online: seen within device_online_minutes (trust-api.md, "Device version and presence").
  if (q.online === true) conds.push(gte(devices.lastSeenAt, bind('onlineFrom', onlineSince)));
  if (q.online === false) conds.push(sql`(${devices.lastSeenAt} is null or ${devices.lastSeenAt} < ${bind('offlineFrom', onlineSince)})`);
  if (q.reported_version) conds.push(eq(devices.reportedVersion, bind('version', q.reported_version)));
  return { where: and(...conds), clock: { now: bind('now', now), soon: bind('soon', soon), onlineSince: bind('onlineSince', onlineSince) }, window: { now, soon, days: expiringDays } };
}

/**
 * The next moment the "expiring" window [now, soon] gains or loses a device by the clock alone: the earliest
 * expiry in it (that device leaves then) or the earliest after it, less the window's length (that one enters
 * then). Over all devices, whatever the filters: a moment too early only costs a count. Two index lookups.
 */
async function expiringHorizon(db: Tx, window: { now: Date; soon: Date; days: number }): Promise<number> {
  const epochMs = (where: SQL) => sql`(select floor(extract(epoch from min(${devices.expiresAt})) * 1000)::float8 from ${devices} where ${where})`;
  const result = await db.execute(sql`select ${epochMs(gte(devices.expiresAt, window.now))} as leave, ${epochMs(sql`${devices.expiresAt} > ${window.soon.toISOString()}`)} as enter`);
  const row = rowsOf<{ leave: number | string | null; enter: number | string | null }>(result)[0];
  const leave = row?.leave == null ? Number.POSITIVE_INFINITY : Number(row.leave);
  const enter = row?.enter == null ? Number.POSITIVE_INFINITY : Number(row.enter) - window.days * DAY;
  return Math.min(leave, enter);
}

/** An institution filter must lie in an institution caller's subtree. */
async function assertInstitution(db: Tx, auth: Auth, q: EquipmentListQuery | EquipmentExportQuery) {
  if (q.institution_id && auth.kind === 'institution' && !(await isInSubtree(db, auth.institution.path, q.institution_id))) throw forbidden();
}

type Clock = { now: Date | Placeholder; soon: Date | Placeholder; onlineSince: Date | Placeholder };

/**
 * A device as the list shows it, with its institution's name: timestamps as ISO text and the "expiring"
 * flag worked out by PostgreSQL, so a row passes through Node as it is read.
 */
const rowColumns = (clock: Clock) =>
  Object.assign({}, snapshotColumns, {
    expiring: sql<boolean>`coalesce(${devices.expiresAt} >= ${clock.now} and ${devices.expiresAt} <= ${clock.soon}, false)`,
    online: sql<boolean>`coalesce(${devices.lastSeenAt} >= ${clock.onlineSince}, false)`,
  });
const selectDevices = (db: Tx, clock: Clock) => db.select(rowColumns(clock)).from(devices).leftJoin(institutions, eq(institutions.id, devices.institutionId));

async function deviceRows(db: Tx, clock: Clock, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<DeviceRow[]> {
  const rows = await selectDevices(db, clock)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows;
}

/** The device list's statements, one per shape (its filters set, the caller's kind, its order). */
const deviceList = new ShapedList<DeviceRow>();

/** GET /equipment/list: the caller's subtree (everything for the platform), filtered and sorted. */
export async function list(db: Tx, auth: Auth, q: EquipmentListQuery): Promise<ListResult<DeviceRow>> {
  await assertInstitution(db, auth, q);
  const b = bound();
  const { where, clock, window } = await listConditions(db, auth, q, b.bind);
  const order = sortKey(SORT_COLUMNS, q, 'created_at', devices.id);
  // The total of this filter set is kept while no write could change it: the key holds every bound value but
  // the clock's (which only the "expiring" flag of a row reads). The "expiring" filter's window moves with
  // the clock: the key holds its length, not its ends, and its total is kept until a device could enter or
  // leave it (`expiringHorizon`). Presence moves with every device call and the clock, and no trigger
  // notifies a version change: those filters' totals are counted every time.
  const { now: _now, soon: _soon, expiringFrom: _from, expiringTo: _to, onlineSince: _since, onlineFrom: _on, offlineFrom: _off, ...filters } = b.values;
  const keepable = q.online === undefined && !q.reported_version;
  return deviceList.page(db, {
    q,
    where,
    bound: b,
    shape: `${q.sort ?? ''}|${order.ascending}`,
    countFrom: sql`from ${devices} where ${where ?? sql`true`}`,
    countFromInline: async () => sql`from ${devices} where ${(await listConditions(db, auth, q, inline)).where ?? sql`true`}`,
    select: (db, cut, total) =>
      cut(
        db
          .select(total ? Object.assign(rowColumns(clock), { total }) : rowColumns(clock))
          .from(devices)
          .leftJoin(institutions, eq(institutions.id, devices.institutionId))
          .$dynamic()
          .where(where)
          .orderBy(...orderOf(order)),
      ),
    keep: keepable
      ? { key: `equipment ${JSON.stringify(filters)}${q.expiring ? ` expiring ${window.days}` : ''}`, now: window.now.getTime(), until: q.expiring ? () => expiringHorizon(db, window) : undefined }
      : undefined,
  });
}

/** GET /equipment/export: the filtered devices, in the list's order, as CSV or XLSX (streamed). */
export async function exportList(db: Tx, auth: Auth, q: EquipmentExportQuery, ctx: Ctx) {
  await assertInstitution(db, auth, q);
  const { where, clock } = await listConditions(db, auth, q, inline);
  const lang = ctx.lang;
  const columns: ExportColumn<DeviceRow>[] = [
    { title: label(LABELS.serial, lang), value: (r) => r.serial, width: 16 },
    { title: label(LABELS.name, lang), value: (r) => r.name, width: 20 },
    { title: label(LABELS.model, lang), value: (r) => r.model, width: 14 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.statuses[r.status], lang) },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name ?? label(LABELS.stock, lang), width: 28 },
    { title: label(LABELS.activatedAt, lang), value: (r) => dateCell(r.activated_at), width: 20 },
    { title: label(LABELS.expiresAt, lang), value: (r) => dateCell(r.expires_at), width: 20 },
    { title: label(LABELS.remainingUses, lang), value: (r) => r.remaining_uses },
    { title: label(LABELS.totalInspections, lang), value: (r) => r.total_inspections },
    { title: label(LABELS.lastSeenAt, lang), value: (r) => dateCell(r.last_seen_at), width: 20 },
    { title: label(LABELS.createdAt, lang), value: (r) => dateCell(r.created_at), width: 20 },
    { title: label(LABELS.remark, lang), value: (r) => r.remark, width: 30 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'devices',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key: sortKey(SORT_COLUMNS, q, 'created_at', devices.id),
    fetch: (w, order, limit) => deviceRows(db, clock, w, order, limit, 0),
    count: sql`from ${devices} where ${where ?? sql`true`}`,
  });
}

// ---------------------------------------------------------------------------------------------
// Lifecycle (grade 0)
// ---------------------------------------------------------------------------------------------

/** A new device API secret: 32 bytes from the CSPRNG, base64url; the database keeps only its SHA-256 (hex). */
export function newSecret(): { secret: string; hash: string } {
  const secret = newKey();
  return { secret, hash: hashKey(secret) };
}

/** A device's own columns as the list and the audit trail show them, under the API's names. */
const snapshotColumns = {
  id: devices.id,
  serial: devices.serial,
  model: devices.model,
  name: devices.name,
  status: devices.status,
  institution_id: devices.institutionId,
  institution_name: institutions.name,
  activated_at: isoText(devices.activatedAt),
  expires_at: isoText(devices.expiresAt),
  remaining_uses: devices.remainingUses,
  total_inspections: devices.totalInspections,
  last_seen_at: isoText(devices.lastSeenAt),
  created_at: isoText(devices.createdAt),
  remark: devices.remark,
  reported_version: devices.reportedVersion,
};
const selectSnapshots = (db: Tx) => db.select(snapshotColumns).from(devices).leftJoin(institutions, eq(institutions.id, devices.institutionId));

/** The audit trail's view of a device: its row as the list shows it (never the secret's hash). */
export async function snapshot(db: Tx, id: number | null): Promise<Omit<DeviceRow, 'expiring' | 'online'> | null> {
  if (id == null) return null;
  const [r] = await selectSnapshots(db).where(eq(devices.id, id));
  return r ?? null;
}

async function serialFree(db: Tx, serial: string, except?: number) {
  const [taken] = await db.select({ id: devices.id }).from(devices).where(eq(devices.serial, serial));
  if (taken && taken.id !== except) throw fieldError('serial', 'deviceSerialTaken', { serial });
}

/** POST /equipment/add (fixed): a new device in platform stock, inactive; its secret is answered this once. */
export async function add(db: Tx, _auth: Auth, body: EquipmentAddBody): Promise<EquipmentAddAnswer> {
  await serialFree(db, body.serial);
  const { secret, hash } = newSecret();
  const [row] = await db.insert(devices).values({ serial: body.serial, model: body.model, name: body.name, remark: body.remark, secretHash: hash, status: 'inactive' }).returning({ id: devices.id });
  return { id: row!.id, secret };
}

/** Rows per INSERT of an import (6 parameters each). */
const IMPORT_CHUNK = 1000;

/**
 * POST /equipment/import: a batch from a CSV/XLSX file of serials. Every row is checked (format, lengths,
 * repeats within the file, serials already stored); any bad row refuses the whole file, naming each bad
 * row and why, and nothing is stored. Each new device gets its own secret, answered this once.
 */
export async function importFile(db: Tx, _auth: Auth, body: EquipmentImportBody, ctx: Ctx): Promise<EquipmentImportAnswer> {
  const parsed = await parseDeviceFile(body, ctx.lang);
  {
    // Stored serials are reported with the file's own faults, so one answer lists every bad row.
    const serials = parsed.rows.map((r) => r.serial).filter((v) => v !== '');
    const taken = new Set<string>();
    for (let i = 0; i < serials.length; i += IMPORT_CHUNK) {
      const rows = await db
        .select({ serial: devices.serial })
        .from(devices)
        .where(inArray(devices.serial, serials.slice(i, i + IMPORT_CHUNK)));
      for (const r of rows) taken.add(r.serial);
    }
    for (const r of parsed.rows) if (taken.has(r.serial)) parsed.reject(r.row, 'deviceSerialTaken', { serial: r.serial });
  }
  if (parsed.bad.size) {
    const fields = Object.fromEntries([...parsed.bad].sort(([a], [b]) => a - b).map(([row, text]) => [`row.${row}`, text]));
    throw badRequest('deviceImportBadRows', { count: parsed.bad.size }, fields);
  }
  const out: EquipmentImportAnswer['devices'] = [];
  for (let i = 0; i < parsed.rows.length; i += IMPORT_CHUNK) {
    const chunk = parsed.rows.slice(i, i + IMPORT_CHUNK).map((r) => ({ ...r, ...newSecret() }));
    const inserted = await db
      .insert(devices)
      .values(chunk.map((r) => ({ serial: r.serial, model: r.model, name: r.name, remark: r.remark, secretHash: r.hash, status: 'inactive' as const })))
      .returning({ id: devices.id, serial: devices.serial });
    const secrets = new Map(chunk.map((r) => [r.serial, r.secret]));
    for (const r of inserted) out.push({ id: r.id, serial: r.serial, secret: secrets.get(r.serial)! });
  }
  return { count: out.length, devices: out };
}

async function deviceOf(db: Tx, id: number) {
  const [d] = await db.select().from(devices).where(eq(devices.id, id)).for('update');
  if (!d) throw notFound();
  return d;
}

/** POST /equipment/edit: name, model and remark (the serial never changes: devices authenticate with it). */
export async function edit(db: Tx, _auth: Auth, body: EquipmentEditBody): Promise<null> {
  await deviceOf(db, body.id);
  await db.update(devices).set({ name: body.name, model: body.model, remark: body.remark }).where(eq(devices.id, body.id));
  return null;
}

/** POST /equipment/status: disable; or enable again (active when it was ever activated, else inactive). */
export async function setStatus(db: Tx, _auth: Auth, body: EquipmentStatusBody): Promise<null> {
  const device = await deviceOf(db, body.id);
  const status = body.enabled ? (device.activatedAt ? 'active' : 'inactive') : 'disabled';
  if (body.enabled && device.status !== 'disabled') return null;
  await db.update(devices).set({ status }).where(eq(devices.id, body.id));
  return null;
}

/** POST /equipment/bulk_status: each device by `setStatus` itself, per row; unknown ids refused by id. */
export async function bulkStatus(db: Tx, auth: Auth, body: EquipmentBulkStatusBody, ctx: Ctx): Promise<BulkAnswer> {
  const found = await db.select({ id: devices.id, serial: devices.serial }).from(devices).where(inArray(devices.id, body.ids));
  return eachRow(db, ctx.lang, body.ids, new Map(found.map((d) => [d.id, d.serial])), (tx, id) => setStatus(tx, auth, { id, enabled: body.enabled }), {
    actor: auth,
    endpoint: ctx.req.endpoint!,
    ip: ctx.ip,
    userAgent: userAgentOf(ctx.req.headers),
    recordType: 'device',
    snapshot,
    input: (id) => ({ id, enabled: body.enabled }),
  });
}

/** POST /equipment/reset_secret (fixed): a new secret, answered once; the old one stops working at once. */
export async function resetSecret(db: Tx, _auth: Auth, body: EquipmentResetSecretBody): Promise<EquipmentSecretAnswer> {
  await deviceOf(db, body.id);
  const { secret, hash } = newSecret();
  await db.update(devices).set({ secretHash: hash }).where(eq(devices.id, body.id));
  return { secret };
}
