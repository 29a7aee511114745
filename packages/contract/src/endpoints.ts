/**
 * The endpoint table: every module's endpoints, by module name. The server registers exactly these
 * (a test fails on a registered route missing here and on an entry not registered); the web client
 * calls them by name (`packages.list`) through the generated `endpoint-routes.ts`; the OpenAPI
 * document is made from them.
 */
import type { Endpoint } from './endpoint';
import { authApi } from './api/auth';
import { equipmentApi } from './api/equipment';
import { distributionApi } from './api/distribution';
import { institutionsApi } from './api/institutions';
import { jurisdictionApi } from './api/jurisdiction';
import { paramsApi } from './api/params';
import { packagesApi } from './api/packages';
import { diseasesApi } from './api/diseases';
import { systemsApi } from './api/systems';
import { acupointsApi } from './api/acupoints';
import { schematicsApi } from './api/schematics';
import { uploadsApi } from './api/uploads';
import { doctorsApi } from './api/doctors';
import { usersApi } from './api/users';
import { auditApi } from './api/audit';
import { docsApi } from './api/docs';
import { codesApi } from './api/codes';
import { financeApi } from './api/finance';
import { regionsApi } from './api/regions';
import { branchesApi } from './api/branches';
import { inspectionsApi } from './api/inspections';
import { statsApi } from './api/stats';
import { sessionsApi } from './api/sessions';
import { mfaApi } from './api/mfa';
import { preferencesApi } from './api/preferences';
import { noticesApi } from './api/notices';

export const API = {
  auth: authApi,
  equipment: equipmentApi,
  distribution: distributionApi,
  institutions: institutionsApi,
  jurisdiction: jurisdictionApi,
  params: paramsApi,
  packages: packagesApi,
  diseases: diseasesApi,
  systems: systemsApi,
  acupoints: acupointsApi,
  schematics: schematicsApi,
  uploads: uploadsApi,
  doctors: doctorsApi,
  users: usersApi,
  audit: auditApi,
  docs: docsApi,
  codes: codesApi,
  finance: financeApi,
  regions: regionsApi,
  branches: branchesApi,
  inspections: inspectionsApi,
  stats: statsApi,
  sessions: sessionsApi,
  mfa: mfaApi,
  preferences: preferencesApi,
  notices: noticesApi,
} as const;

type Api = typeof API;
/** `<module>.<fn>` of every endpoint. */
export type EndpointName = { [M in keyof Api]: { [F in keyof Api[M]]: `${M & string}.${F & string}` }[keyof Api[M]] }[keyof Api];
/** The endpoint of a name. */
export type EndpointNamed<N extends EndpointName> = N extends `${infer M extends keyof Api & string}.${infer F}` ? Api[M][F & keyof Api[M]] : never;

/** Every endpoint, module by module. */
export const ENDPOINTS: Endpoint[] = Object.values(API).flatMap((m) => Object.values(m) as Endpoint[]);
