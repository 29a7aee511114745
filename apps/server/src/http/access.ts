import fp from 'fastify-plugin';
import { API_BASE, Code } from '@app/contract';
import { eq } from 'drizzle-orm';
import type { Access, ParamValues } from '@app/contract';
import type { Db } from '../db/client';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { type Actor, accessPages, actorFrom, canOpenRouteNamed, canUseButton, INSTITUTION_ID_FIELD_RE, type Endpoint, type Lang, type Viewer } from '@app/contract';
import { sessions } from '../db/schema';
import { type Grants, grantsAt, grantsInMemory } from '../lib/access-cache';
import { deleteSession, type ResolvedSession, resolveSession, resolveSessionInMemory, restrictedSession } from '../lib/sessions';
import { AppError, badRequest, expired, forbidden, overdue } from '../lib/errors';
import { requestLang } from './lang';

export type { Access } from '@app/contract';

/** A signed-in platform admin, as the access check found it. */
export interface AdminCaller {
  id: number;
  roleId: number;
  isSuper: boolean;
  viewRoleId: number | null;
  username: string;
}

/** A signed-in institution, as the access check found it. */
export interface InstitutionCaller {
  id: number;
  grade: 1 | 2 | 3;
  path: string;
  termExpiresAt: Date | null;
  username: string;
  /** What `get_institution_info` shows, read with the session (no query of its own). */
  name: string;
  avatar: string;
  contactName: string;
}

interface Caller {
  sessionId: number;
  viewer: Viewer;
  restricted: boolean;
  /** The system parameters as of this request, read with the session (no query of their own). */
  params: ParamValues;
}

export interface AdminAuth extends Caller {
  kind: 'admin';
  admin: AdminCaller;
}

export interface InstitutionAuth extends Caller {
  kind: 'institution';
  institution: InstitutionCaller;
}

/** The caller of a guarded endpoint: an admin or an institution, told apart by `kind`. */
export type Auth = AdminAuth | InstitutionAuth;

/** The caller's account id and kind, as the audit trail and uploads name it. */
export const callerRef = (auth: Auth) =>
  auth.kind === 'admin' ? { kind: auth.kind, id: auth.admin.id, username: auth.admin.username } : { kind: auth.kind, id: auth.institution.id, username: auth.institution.username };

/** The admin behind a call that only admins reach (the endpoint's `kind: 'admin'`); anyone else is refused. */
export function adminOf(auth: Auth): AdminCaller {
  if (auth.kind !== 'admin') throw forbidden();
  return auth.admin;
}

/** The institution behind a call that only institutions reach; anyone else is refused. */
export function institutionOf(auth: Auth): InstitutionCaller {
  if (auth.kind !== 'institution') throw forbidden();
  return auth.institution;
}

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
    auth: Auth | null;
    /** The endpoint of an API route, set by its access check (null before it, and outside the endpoint table). */
    endpoint: Endpoint | null;
  }
  interface FastifyInstance {
    /** Every API route with its endpoint: what the table test and the permission walk go through. */
    apiRoutes: { method: string; url: string; endpoint: Endpoint }[];
  }
}

/** The session key: `key` in the payload (spec §7) or an Authorization bearer. */
function readKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  const fromBody = (request.body as Record<string, unknown> | undefined)?.key;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.key;
  const key = typeof fromBody === 'string' ? fromBody : typeof fromQuery === 'string' ? fromQuery : null;
  return key && key.length <= 128 ? key : null;
}

/** Non-admin payloads carry `institution_id_<grade>`; it must name the caller's own institution. */
function checkInstitutionField(request: FastifyRequest, auth: Auth) {
  if (auth.kind !== 'institution') return;
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [field, value] of Object.entries(source as Record<string, unknown>)) {
      const m = INSTITUTION_ID_FIELD_RE.exec(field);
      if (!m) continue;
      if (Number(m[1]) !== auth.institution.grade || String(value) !== String(auth.institution.id)) throw badRequest('institutionMismatch');
    }
  }
}

export default fp(async function accessPlugin(app: FastifyInstance) {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('auth', null);
  app.decorateRequest('endpoint', null);

  const apiRoutes: { method: string; url: string; endpoint: Endpoint }[] = [];
  app.decorate('apiRoutes', apiRoutes);
  // A route under the API that is not in the endpoint table cannot exist. Each one gets its access check
  // as the first of its own preHandler hooks, a function made for its endpoint: nothing looks the endpoint
  // up per request (Fastify's `request.routeOptions` builds an object of twelve fields at every read,
  // docs/benchmarks.md). A module's own preHandler for an endpoint (defineRoutes' `preHandler`) follows it.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${API_BASE}/`) || route.url.startsWith(`${API_BASE}/*`)) return;
    const endpoint = route.config?.endpoint;
    if (!endpoint) throw new Error(`route ${route.method} ${route.url} is not in the endpoint table`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url, endpoint });
    route.preHandler = [accessCheck(app, endpoint), ...[route.preHandler ?? []].flat()];
  });

  app.addHook('onRequest', (request, _reply, done) => {
    request.lang = requestLang(request.headers['accept-language']);
    done();
  });
});

/**
 * The access check of one endpoint, a callback hook: a warm session is checked from memory with no promise
 * and no hash of its key (part of the signed-in no-op's gain in docs/benchmarks.md); anything else reads
 * the database.
 */
function accessCheck(app: FastifyInstance, endpoint: Endpoint): preHandlerHookHandler {
  const access = endpoint.access;
  if ('public' in access)
    return (request, _reply, done) => {
      request.endpoint = endpoint;
      done();
    };
  return (request, _reply, done) => {
    request.endpoint = endpoint;
    let pending: Promise<void> | undefined;
    try {
      const key = readKey(request);
      if (!key) throw expired();
      const cached = resolveSessionInMemory(app.db, key);
      const auth = cached && authInMemory(app.db, cached, access);
      if (auth) authorize(request, access, auth);
      else pending = checkFromDatabase(app.db, request, access, key, cached);
    } catch (err) {
      return done(err as Error);
    }
    if (pending) pending.then(() => done(), done);
    else done();
  };
}

type Guarded = Exclude<Access, { public: true }>;

/** An admin's rights from its session and the role grants. */
function adminAuth(session: ResolvedSession['session'], admin: NonNullable<ResolvedSession['admin']>, grants: Grants, params: ParamValues): AdminAuth {
  const ownRole = grants.roles.get(admin.roleId);
  const isSuper = !!ownRole?.isSuper && ownRole.status;
  // A super-admin viewing as another role gets exactly that role's rights.
  const effectiveRoleId = isSuper && session.viewRoleId ? session.viewRoleId : admin.roleId;
  const effective = grants.roles.get(effectiveRoleId);
  // Grants as role_data shows them (spec §6): every page and directory node of the role, and its
  // buttons whose hidden flag is 0. The super role holds every node.
  const granted = effective?.status ? effective.signs : new Set<string>();
  return {
    sessionId: session.id,
    kind: 'admin',
    // An admin's restricted session must set up a second factor first (`mfa_required_admins`).
    restricted: session.restricted,
    params,
    viewer: { isAdmin: true, grade: 0, roles: ['admin'], granted },
    admin: { id: admin.id, roleId: admin.roleId, isSuper, viewRoleId: isSuper ? session.viewRoleId : null, username: admin.username },
  };
}

function institutionAuth(session: ResolvedSession['session'], inst: NonNullable<ResolvedSession['institution']>, params: ParamValues): InstitutionAuth {
  const grade = inst.grade as 1 | 2 | 3;
  return {
    sessionId: session.id,
    kind: 'institution',
    restricted: session.restricted,
    params,
    viewer: { isAdmin: false, grade, roles: ['admin'] },
    institution: {
      id: inst.id,
      grade,
      path: inst.path,
      termExpiresAt: inst.termExpiresAt,
      username: inst.username,
      name: inst.name ?? '',
      avatar: inst.avatar ?? '',
      contactName: inst.contactName ?? '',
    },
  };
}

const isOverdue = (inst: { termExpiresAt: Date | null }) => !!inst.termExpiresAt && inst.termExpiresAt.getTime() <= Date.now();
const allowsRestricted = (access: Guarded) => 'session' in access && !!access.restricted;
/** An admin session restricted for want of a second factor (`mfa_required_admins`) reaches these only. */
const allowsMfaSetup = (access: Guarded) => 'session' in access && !!access.mfaSetup;
/** The refusal of everything else to such a session: a 400 saying why, with a reason the client acts on. */
const mfaSetupRequired = () => new AppError(Code.BAD_REQUEST, 'mfaSetupRequired', {}, { reason: 'mfa_setup_required' });

/**
 * The caller from its row in memory (lib/sessions.ts `resolveSessionInMemory`) and the grants in memory, when
 * nothing about it asks for a write or an answer of its own: an active account, and for an institution
 * a key that is neither restricted nor past its term (or a call a restricted key may make). Undefined
 * otherwise: `checkFromDatabase` decides, as for a cold session.
 */
function authInMemory(db: Db, resolved: ResolvedSession, access: Guarded): Auth | undefined {
  const { session, params } = resolved;
  if (session.subjectKind === 'admin') {
    const grants = grantsInMemory(db, resolved.grantsVersion);
    if (session.restricted && !allowsMfaSetup(access)) return undefined;
    return resolved.admin?.status === 1 && grants ? adminAuth(session, resolved.admin, grants, params) : undefined;
  }
  const inst = resolved.institution;
  if (inst?.status !== 1) return undefined;
  if ((session.restricted || isOverdue(inst)) && !allowsRestricted(access)) return undefined;
  return institutionAuth(session, inst, params);
}

async function checkFromDatabase(db: Db, request: FastifyRequest, access: Guarded, key: string, cached: ResolvedSession | undefined): Promise<void> {
  // The row from memory when there was one (its account or key asks for more than memory answers), else one
  // query: the session, its account and the cache counters (lib/sessions.ts); role grants and parameters
  // come from memory unless a counter moved (lib/access-cache.ts).
  const resolved = cached ?? (await resolveSession(db, key));
  if (!resolved) throw expired();
  const { session, params } = resolved;

  let auth: Auth;
  if (session.subjectKind === 'admin') {
    const admin = resolved.admin;
    if (admin?.status !== 1) {
      await deleteSession(db, session.id);
      throw expired();
    }
    auth = adminAuth(session, admin, await grantsAt(db, resolved.grantsVersion), params);
    if (session.restricted && !allowsMfaSetup(access)) {
      // Restricted for want of a second factor: lifted when the platform no longer requires one.
      if (params.mfa_required_admins === 1) throw mfaSetupRequired();
      await db.update(sessions).set({ restricted: false }).where(eq(sessions.id, session.id));
      auth.restricted = false;
    }
  } else {
    const inst = resolved.institution;
    if (inst?.status !== 1) {
      await deleteSession(db, session.id);
      throw expired();
    }
    auth = institutionAuth(session, inst, params);
    const overdue_ = isOverdue(inst);
    if ((overdue_ || session.restricted) && !allowsRestricted(access)) {
      if (!overdue_) {
        // The term was renewed since: the restricted key regains full access.
        await db.update(sessions).set({ restricted: false }).where(eq(sessions.id, session.id));
        auth.restricted = false;
      } else {
        // 998 with the sign-in's one restricted key: a restricted key answers itself; a full key its
        // restricted key, derived from it and created at the first 998 (lib/sessions.ts). The calling
        // key is left as it is, so two calls in flight both get a usable key (never a 999), and no
        // call adds a row after the first.
        const restrictedKey = session.restricted ? key : await restrictedSession(db, key, { subjectId: inst.id, ip: request.ip, userAgent: session.userAgent, expiresAt: session.expiresAt, params });
        throw overdue(restrictedKey);
      }
    }
  }
  authorize(request, access, auth);
}

/** The caller's rights against the endpoint's access: its institution field, kind, page, button and grade. */
function authorize(request: FastifyRequest, access: Guarded, auth: Auth): void {
  request.auth = auth;
  checkInstitutionField(request, auth);
  if (!meetsAccess(access, auth)) throw forbidden();
}

/**
 * Whether a signed-in caller's rights meet an endpoint's access rule (kind, page, button, grade): the check
 * every call passes, also asked of a list named by its endpoint (modules/preferences).
 */
export function meetsAccess(access: Access, auth: Auth): boolean {
  if ('public' in access) return true;
  if ('session' in access) return !access.kind || access.kind === auth.kind;
  if ('page' in access) return accessPages(access.page).some((page) => canOpenRouteNamed(page, auth.viewer));
  if ('button' in access) return canUseButton(access.button, auth.viewer);
  return access.grades.includes(auth.viewer.isAdmin ? 0 : auth.viewer.grade);
}

export function requireAuth(request: FastifyRequest): Auth {
  if (!request.auth) throw new AppError(999, 'loginExpired');
  return request.auth;
}

/**
 * Who a platform admin acts as (the shared rules' actor): while a super-admin views the console as
 * another role it acts as that role in every respect, exactly as the access plugin does.
 */
export function adminActor(auth: Auth): Actor & { adminId: number; roleId: number } {
  const a = adminOf(auth);
  return actorFrom(a.id, { id: a.roleId, isSuper: a.isSuper }, a.viewRoleId) as Actor & { adminId: number; roleId: number };
}
