/**
 * Every feature module's routes and demo data, listed by hand so the server can be bundled (no folder
 * scan at run time). `modules/index.test.ts` fails when a module folder's routes.ts or seed.ts is missing here.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Tx } from '../db/client';
import acupointsRoutes from './acupoints/routes';
import auditRoutes from './audit/routes';
import codesRoutes from './codes/routes';
import authRoutes from './auth/routes';
import branchesRoutes from './branches/routes';
import diseasesRoutes from './diseases/routes';
import distributionRoutes from './distribution/routes';
import docsRoutes from './docs/routes';
import doctorsRoutes from './doctors/routes';
import equipmentRoutes from './equipment/routes';
import financeRoutes from './finance/routes';
import inspectionsRoutes from './inspections/routes';
import institutionsRoutes from './institutions/routes';
import jurisdictionRoutes from './jurisdiction/routes';
import packagesRoutes from './packages/routes';
import paramsRoutes from './params/routes';
import regionsRoutes from './regions/routes';
import schematicsRoutes from './schematics/routes';
import sessionsRoutes from './sessions/routes';
import mfaRoutes from './mfa/routes';
import preferencesRoutes from './preferences/routes';
import noticesRoutes from './notices/routes';
import statsRoutes from './stats/routes';
import systemsRoutes from './systems/routes';
import uploadsRoutes from './uploads/routes';
import usersRoutes from './users/routes';
import * as acupointsSeed from './acupoints/seed';
import * as codesSeed from './codes/seed';
import * as branchesSeed from './branches/seed';
import * as diseasesSeed from './diseases/seed';
import * as distributionSeed from './distribution/seed';
import * as doctorsSeed from './doctors/seed';
import * as equipmentSeed from './equipment/seed';
import * as financeSeed from './finance/seed';
import * as inspectionsSeed from './inspections/seed';
import * as noticesSeed from './notices/seed';
import * as packagesSeed from './packages/seed';
import * as schematicsSeed from './schematics/seed';
import * as systemsSeed from './systems/seed';
import * as usersSeed from './users/seed';

/** The routes plugin of each module, by folder name. */
export const moduleRoutes: Record<string, FastifyPluginAsync> = {
  acupoints: acupointsRoutes,
  audit: auditRoutes,
  auth: authRoutes,
  codes: codesRoutes,
  branches: branchesRoutes,
  diseases: diseasesRoutes,
  distribution: distributionRoutes,
  docs: docsRoutes,
  doctors: doctorsRoutes,
  equipment: equipmentRoutes,
  finance: financeRoutes,
  inspections: inspectionsRoutes,
  institutions: institutionsRoutes,
  jurisdiction: jurisdictionRoutes,
  packages: packagesRoutes,
  params: paramsRoutes,
  regions: regionsRoutes,
  schematics: schematicsRoutes,
  sessions: sessionsRoutes,
  mfa: mfaRoutes,
  preferences: preferencesRoutes,
  notices: noticesRoutes,
  stats: statsRoutes,
  systems: systemsRoutes,
  uploads: uploadsRoutes,
  users: usersRoutes,
};

/** A module's demo data: `modules/<name>/seed.ts` exports `order` (lower first) and `seed(db)`. */
export interface ModuleSeed {
  order: number;
  seed: (db: Tx) => Promise<unknown>;
}

/** The demo data of each module that has some, by folder name. */
export const moduleSeeds: Record<string, ModuleSeed> = {
  acupoints: acupointsSeed,
  codes: codesSeed,
  branches: branchesSeed,
  diseases: diseasesSeed,
  distribution: distributionSeed,
  doctors: doctorsSeed,
  equipment: equipmentSeed,
  finance: financeSeed,
  inspections: inspectionsSeed,
  notices: noticesSeed,
  packages: packagesSeed,
  schematics: schematicsSeed,
  systems: systemsSeed,
  users: usersSeed,
};
