/**
 * The permission table, written by hand: for every endpoint of the table and every identity, the outcome
 * it must get. Nothing here is derived from the endpoints' own access declarations or from the server's
 * scope helpers, so weakening a declaration (a button route made "any session") or dropping a subtree
 * filter fails this test. A new endpoint without a row fails it too, as does a row naming no endpoint.
 *
 * Outcomes:
 *   ok    code 200 (reads: with an input that passes validation, e.g. a real id; scoped reads: exactly
 *         the rows listed below)
 *   w     a write let through the access check: code 200, or a 400 that is NOT the permission refusal
 *         (the input is chosen to be refused by validation or a business rule, so no data changes)
 *   F     400 with the permission refusal ("forbidden")
 *   998   overdue: a restricted key in the answer
 *   999   no session
 *   file  a raw answer (a file or a page, outside the envelope) with HTTP 200
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { API_BASE, ENDPOINTS, formatMessage, INT_MAX } from '@app/contract';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../test/harness';
import {
  activationRecords,
  acupoints,
  adminUsers,
  auditLog,
  branchApplications,
  devices,
  diseaseCategories,
  diseases,
  doctors,
  endUsers,
  inspections,
  institutions,
  listColumns,
  listViews,
  menus,
  notices,
  packages,
  roles,
  schematics,
  systems,
} from '../db/schema';
import { createSession } from '../lib/sessions';
import { hashPassword } from '../lib/crypto';
import { ANSWER_FIELDS } from './permissions.fields';

const WHO = ['admin', 'auditor', 'nobody', 'agent1', 'agent2', 'clinic3', 'agent1b', 'overdue3', 'overdue3R', 'none', 'expired'] as const;
type Who = (typeof WHO)[number];
type Outcome = 'ok' | 'w' | 'F' | 998 | 999 | 'file';

/*
 * Identities:
 *   admin      the super-admin
 *   auditor    the seeded restricted role: Dashboard, DeviceList and the inspection pages only
 *   nobody     an admin whose role holds nothing
 *   agent1     grade 1 (tree: agent1 > agent2 > clinic3, overdue3)
 *   agent2     grade 2
 *   clinic3    grade 3
 *   agent1b    grade 1 of the other tree (agent1b > agent2b > clinic3b)
 *   overdue3   grade 3 past its term, with a normal key
 *   overdue3R  the same institution with the restricted key a 998 answer hands out
 *   none       no key
 *   expired    a key past its expiry
 */
// biome-ignore format: the table is read as columns
const TABLE: Record<string, readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome]> = {
  //                                admin   auditor nobody  agent1  agent2  clinic3 agent1b overdue overdueR none  expired
  'auth.login':                    ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok', 'ok'],
  'auth.institutionLogin':         ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok', 'ok'],
  'auth.logout':                   ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   999,  999],
  'auth.memberInfo':               ['ok',   'ok',   'ok',   'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'auth.institutionInfo':          ['F',    'F',    'F',    'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   999,  999],
  'auth.reauth':                   ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'auth.modifyField':              ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'equipment.list':                ['ok',   'ok',   'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'equipment.exportList':          ['file', 'file', 'F',    'file', 'file', 'file', 'file', 998,    998,    999,  999],
  'institutions.options':          ['ok',   'ok',   'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'institutions.list':             ['ok',   'F',    'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'institutions.exportList':       ['file', 'F',    'F',    'file', 'file', 'file', 'file', 998,    998,    999,  999],
  'institutions.subtree':          ['ok',   'F',    'F',    'ok',   'F',    'F',    'F',    998,    998,    999,  999],
  'institutions.detail':           ['ok',   'F',    'F',    'ok',   'ok',   'F',    'F',    998,    998,    999,  999],
  'institutions.add':              ['w',    'F',    'F',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'institutions.edit':             ['w',    'F',    'F',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'institutions.setStatus':        ['w',    'F',    'F',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'institutions.resetPassword':    ['w',    'F',    'F',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'institutions.move':             ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'regions.tree':                  ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'branches.list':                 ['ok',   'F',    'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'branches.apply':                ['F',    'F',    'F',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'branches.approve':              ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'branches.reject':               ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.menuTree':         ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.menuDetail':       ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.menuAdd':          ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.menuEdit':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.menuRemove':       ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.roleList':         ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.roleDetail':       ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.roleMenuTree':     ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.roleOptions':      ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.roleAdd':          ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.roleEdit':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.roleRemove':       ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.viewAs':           ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.viewAsExit':       ['w',    'w',    'w',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.adminList':        ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.adminDetail':      ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.adminRoleOptions': ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.adminAdd':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.adminEdit':        ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'jurisdiction.adminRemove':      ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'params.list':                   ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'params.save':                   ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'params.publicValues':           ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok', 'ok'],
  'packages.list':                 ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'packages.detail':               ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'packages.add':                  ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'packages.edit':                 ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'packages.setStatus':            ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'packages.remove':               ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.tree':                 ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.categoryList':         ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.categoryDetail':       ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.categoryAdd':          ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.categoryEdit':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.categoryRemove':       ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.list':                 ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.detail':               ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.add':                  ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.edit':                 ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'diseases.remove':               ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'systems.tree':                  ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'systems.options':               ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'systems.list':                  ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'systems.detail':                ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'systems.add':                   ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'systems.edit':                  ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'systems.remove':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.list':                ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.options':             ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.detail':              ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.add':                 ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.edit':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.remove':              ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.actions':             ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'acupoints.saveActions':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'schematics.list':               ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'schematics.detail':             ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'schematics.add':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'schematics.edit':               ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'schematics.saveMarkers':        ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'schematics.remove':             ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'uploads.uploadImg':             ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'uploads.uploadFile':            ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'uploads.file':                  ['file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file'],
  'doctors.list':                  ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'doctors.exportList':            ['file', 'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'doctors.detail':                ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'doctors.add':                   ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'doctors.edit':                  ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'doctors.remove':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'users.list':                    ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'users.exportList':              ['file', 'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'users.detail':                  ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'users.add':                     ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'users.edit':                    ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'users.remove':                  ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'audit.list':                    ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'audit.detail':                  ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'audit.recordTypes':             ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'docs.openapi':                  ['file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file'],
  'docs.reference':                ['file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file'],
  'docs.asset':                    ['file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file', 'file'],
  'equipment.add':                 ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'equipment.importFile':          ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'equipment.edit':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'equipment.setStatus':           ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'equipment.bulkStatus':          ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'equipment.resetSecret':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'distribution.distribute':       ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'distribution.list':             ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'distribution.exportRecords':    ['file', 'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.generate':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.batches':                 ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.list':                    ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.exportList':              ['file', 'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.voidCodes':               ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.bulkVoid':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.assign':                  ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.exportBatch':             ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'codes.redeemInstitution':       ['F',    'F',    'F',    'w',    'w',    'w',    'w',    'w',    'w',    999,  999],
  'codes.redeemDevice':            ['F',    'F',    'F',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'codes.records':                 ['ok',   'F',    'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'codes.recordsExport':           ['file', 'F',    'F',    'file', 'file', 'file', 'file', 998,    998,    999,  999],
  'finance.summary':               ['ok',   'F',    'F',    'ok',   'ok',   'F',    'ok',   998,    998,    999,  999],
  'finance.list':                  ['ok',   'F',    'F',    'ok',   'ok',   'F',    'ok',   998,    998,    999,  999],
  'finance.exportList':            ['file', 'F',    'F',    'file', 'file', 'F',    'file', 998,    998,    999,  999],
  'finance.payoutApply':           ['w',    'F',    'F',    'w',    'w',    'F',    'w',    998,    998,    999,  999],
  'finance.payoutList':            ['ok',   'F',    'F',    'ok',   'ok',   'F',    'ok',   998,    998,    999,  999],
  'finance.payoutExport':          ['file', 'F',    'F',    'file', 'file', 'F',    'file', 998,    998,    999,  999],
  'finance.payoutApprove':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'finance.payoutVoucher':         ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'finance.payoutReject':          ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'finance.payoutCancel':          ['w',    'F',    'F',    'w',    'w',    'F',    'w',    998,    998,    999,  999],
  'finance.payments':              ['ok',   'F',    'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'finance.paymentsExport':        ['file', 'F',    'F',    'file', 'file', 'F',    'file', 998,    998,    999,  999],
  'finance.refund':                ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'inspections.list':              ['ok',   'ok',   'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'inspections.exportList':        ['file', 'file', 'F',    'file', 'file', 'file', 'file', 998,    998,    999,  999],
  'inspections.detail':            ['ok',   'ok',   'F',    'ok',   'ok',   'ok',   'F',    998,    998,    999,  999],
  'inspections.report':            ['ok',   'ok',   'F',    'ok',   'ok',   'ok',   'F',    998,    998,    999,  999],
  'inspections.result':            ['ok',   'ok',   'F',    'ok',   'ok',   'ok',   'F',    998,    998,    999,  999],
  'inspections.reportPdf':         ['file', 'file', 'F',    'file', 'file', 'file', 'F',    998,    998,    999,  999],
  'inspections.share':             ['w',    'F',    'F',    'w',    'w',    'w',    'F',    998,    998,    999,  999],
  'inspections.unshare':           ['w',    'F',    'F',    'w',    'w',    'w',    'F',    998,    998,    999,  999],
  'inspections.shareList':         ['ok',   'F',    'F',    'ok',   'ok',   'ok',   'F',    998,    998,    999,  999],
  'inspections.sharedReport':      ['w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',  'w'],
  'inspections.sharedPdf':         ['w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',  'w'],
  'inspections.recompute':         ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'inspections.addSession':        ['w',    'F',    'F',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'stats.equipment':               ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'stats.distribution':            ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'stats.institution':             ['ok',   'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'stats.finance':                 ['ok',   'F',    'F',    'ok',   'ok',   'F',    'ok',   998,    998,    999,  999],
  'stats.exportTable':             ['file', 'F',    'F',    'file', 'file', 'F',    'file', 998,    998,    999,  999],
  'sessions.list':                 ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'sessions.end':                  ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'sessions.endOthers':            ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'sessions.endAccount':           ['w',    'F',    'F',    'F',    'F',    'F',    'F',    998,    998,    999,  999],
  'mfa.status':                    ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'notices.list':                  ['ok',   'ok',   'ok',   'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'notices.read':                  ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'notices.stream':                ['file', 'file', 'file', 'file', 'file', 'file', 'file', 998,    998,    999,  999],
  'mfa.setup':                     ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'mfa.enable':                    ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'mfa.disable':                   ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'mfa.recoveryCodes':             ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'mfa.login':                     ['w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',    'w',  'w'],
  // The caller's own settings of a list it may read (the device list here: not for a role holding nothing).
  'preferences.get':               ['ok',   'ok',   'F',    'ok',   'ok',   'ok',   'ok',   998,    998,    999,  999],
  'preferences.saveColumns':       ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'preferences.addView':           ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'preferences.editView':          ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
  'preferences.deleteView':        ['w',    'w',    'w',    'w',    'w',    'w',    'w',    998,    998,    999,  999],
};

/**
 * The institutions (by username) whose rows each identity sees in scoped reads (the device list, the
 * institution picker). 'all': every institution, and for devices the platform's stock too.
 */
const SEES: Partial<Record<Who, readonly string[] | 'all'>> = {
  admin: 'all',
  auditor: 'all',
  agent1: ['agent1', 'agent2', 'clinic3', 'overdue3'],
  agent2: ['agent2', 'clinic3', 'overdue3'],
  clinic3: ['clinic3'],
  agent1b: ['agent1b', 'agent2b', 'clinic3b'],
};

/** A 1x1 PNG, for the image upload. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
/** No record has this id: writes that name it are refused by their rule, not by the access check. */
const MISSING = INT_MAX;
const FORBIDDEN = formatMessage('forbidden', 'en');

interface Fixture {
  ids: Record<string, number>;
  /** Institution id by username. */
  inst: Record<string, number>;
  /** Expected ids of scoped reads, per identity. */
  devices: Partial<Record<Who, number[]>>;
  institutions: Partial<Record<Who, number[]>>;
  /** Activation records whose institution each identity sees. */
  records: Partial<Record<Who, number[]>>;
  /** Branch applications whose applicant each identity sees. */
  applications: Partial<Record<Who, number[]>>;
  /** How many inspections each identity sees (the demo data has 200). */
  inspections: Partial<Record<Who, number>>;
}

let t: TestApp;
let fx: Fixture;
let dataDir: string;

type Input = { kind: 'json'; value: Record<string, unknown> } | { kind: 'multipart'; filename: string; type: string; content: Buffer };
const json = (value: Record<string, unknown> = {}): Input => ({ kind: 'json', value });

/** The input each endpoint is called with: what passes validation for reads, a refused one for writes. */
function inputOf(name: string): Input {
  const { ids } = fx;
  switch (name) {
    case 'auth.login':
      return json({ username: 'auditor', password: DEMO_PASSWORD });
    case 'auth.institutionLogin':
      return json({ username: 'clinic3', password: DEMO_PASSWORD });
    case 'equipment.list':
      return json({ limit: 200 });
    case 'preferences.get':
      return json({ list: 'equipment.list' });
    case 'institutions.list':
      // Any filter makes the list flat: every institution of the caller's subtree (all are enabled).
      return json({ limit: 200, status: 'enabled' });
    case 'institutions.subtree':
      return json({ ids: String(fx.inst.agent1), depth: 3 });
    case 'institutions.detail':
      return json({ id: fx.inst.agent2 });
    case 'institutions.resetPassword':
      return json({ id: MISSING, password: 1 });
    case 'branches.list':
      return json({ limit: 200 });
    case 'branches.apply':
      // A whole application whose account name is taken: refused by its rule, after the access check.
      return json({ name: 'Branch', contact_name: 'Contact', phone: '13800000000', region: ['330000', '330100', '330106'], username: 'agent1' });
    case 'codes.records':
      return json({ limit: 100 });
    case 'codes.recordsExport':
    case 'distribution.exportRecords':
      return json({ format: 'csv' });
    case 'finance.list':
    case 'finance.payoutList':
    case 'finance.payments':
      return json({ limit: 100 });
    case 'finance.paymentsExport':
    case 'finance.exportList':
    case 'finance.payoutExport':
    case 'inspections.exportList':
    case 'equipment.exportList':
    case 'institutions.exportList':
    case 'doctors.exportList':
    case 'users.exportList':
    case 'codes.exportList':
      return json({ format: 'csv' });
    case 'inspections.list':
      return json({ limit: 100 });
    case 'stats.equipment':
    case 'stats.distribution':
    case 'stats.institution':
    case 'stats.finance':
      return json({ from: '2026-01-01', to: '2026-01-31' });
    case 'stats.exportTable':
      // The finance page's table: open to grades 0-2 (the server checks the named page against the caller).
      return json({ from: '2026-01-01', to: '2026-01-31', page: 'finance', table: 'income', format: 'csv' });
    case 'inspections.detail':
    case 'inspections.report':
    case 'inspections.result':
    case 'inspections.reportPdf':
    case 'inspections.shareList':
    // A link to the inspection of clinic3 made, or its links revoked: by its ancestors, never by the other tree.
    case 'inspections.share':
      // An inspection of clinic3: its ancestors see it, the other tree does not.
      return json({ id: ids.inspection });
    case 'inspections.unshare':
      // A link the inspection does not have: refused by the rule after the scope's check, the links kept.
      return json({ id: ids.inspection, share_id: MISSING });
    case 'codes.redeemInstitution':
      // A well-formed code that does not exist: refused by the rule (wrong code), after the access check.
      return json({ code: '0000-0000-0000-0000' });
    case 'codes.redeemDevice':
      return json({ id: MISSING, code: '0000-0000-0000-0000' });
    case 'mfa.enable':
    case 'mfa.disable':
    case 'mfa.recoveryCodes':
      // A code of the wrong shape: refused by the rule after the access check, nothing changed.
      return json({ code: 'abc' });
    case 'mfa.login':
      // A challenge that does not exist: refused, nothing changed.
      return json({ challenge: 'A'.repeat(43), code: '123456' });
    case 'sessions.endAccount':
      // A whole body naming no account: refused by its rule (not found) after the button check.
      return json({ kind: 'institution', id: MISSING });
    case 'jurisdiction.menuDetail':
      return json({ id: ids.menu });
    case 'jurisdiction.roleDetail':
      return json({ id: ids.role });
    case 'jurisdiction.adminDetail':
      return json({ id: ids.adminUser });
    case 'packages.detail':
      return json({ id: ids.package });
    case 'diseases.categoryDetail':
      return json({ id: ids.category });
    case 'diseases.detail':
      return json({ id: ids.disease });
    case 'systems.detail':
      return json({ id: ids.system });
    case 'acupoints.detail':
    case 'acupoints.actions':
      return json({ id: ids.acupoint });
    case 'schematics.detail':
      return json({ id: ids.schematic });
    case 'doctors.detail':
      return json({ id: ids.doctor });
    case 'users.detail':
      return json({ id: ids.user });
    case 'audit.detail':
      return json({ id: ids.audit });
    case 'uploads.uploadImg':
    case 'finance.payoutVoucher':
      return { kind: 'multipart', filename: 'dot.png', type: 'image/png', content: PNG };
    case 'uploads.uploadFile':
      return { kind: 'multipart', filename: 'rows.csv', type: 'text/csv', content: Buffer.from('a,b\n1,2\n') };
    case 'uploads.file':
      return json({ name: 'builtin-body-front.png' });
    case 'docs.asset':
      return json({ file: 'reference.js' });
    default:
      // Writes: a record that does not exist (deletes, edits) or an incomplete body; never a change.
      return ENDPOINTS.find((e) => e.name === name)?.method === 'POST' ? json({ id: MISSING }) : json();
  }
}

const sortedIds = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);

/** What a 200 must carry, where the data depends on who asks. */
function checkData(name: string, who: Who, datas: any): string | null {
  const expectIds = (got: number[], want: number[] | undefined) => (JSON.stringify(got) === JSON.stringify(want) ? null : `ids ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  switch (name) {
    case 'equipment.list':
      return expectIds(sortedIds(datas.list), fx.devices[who]) ?? (datas.total === fx.devices[who]!.length ? null : `total ${datas.total}`);
    case 'institutions.options':
      return expectIds(sortedIds(datas), fx.institutions[who]);
    case 'institutions.list':
      return expectIds(sortedIds(datas.list), fx.institutions[who]);
    case 'institutions.subtree':
      return expectIds(
        sortedIds(datas.list),
        [fx.inst.agent2!, fx.inst.clinic3!, fx.inst.overdue3!].sort((a, b) => a - b),
      );
    case 'branches.list':
      return expectIds(sortedIds(datas.list), fx.applications[who]);
    case 'codes.records':
      return expectIds(sortedIds(datas.list), fx.records[who]) ?? (datas.total === fx.records[who]!.length ? null : `total ${datas.total}`);
    case 'finance.list':
    case 'finance.payoutList':
    case 'finance.payments': {
      // Money rows: every row's institution lies in what the identity sees, and the demo data has some.
      const seen = SEES[who];
      const allowed = seen === 'all' ? null : new Set(seen!.map((u) => fx.inst[u]));
      const outside = (datas.list as { institution_id: number }[]).filter((r) => allowed && !allowed.has(r.institution_id));
      if (outside.length) return `rows of institutions ${outside.map((r) => r.institution_id).join(',')}`;
      return datas.list.length || who === 'agent1b' ? null : 'no rows';
    }
    case 'inspections.list': {
      const seen = SEES[who];
      const allowed = seen === 'all' ? null : new Set(seen!.map((u) => fx.inst[u]));
      const outside = (datas.list as { institution_id: number }[]).filter((r) => allowed && !allowed.has(r.institution_id));
      if (outside.length) return `rows of institutions ${outside.map((r) => r.institution_id).join(',')}`;
      return datas.total === fx.inspections[who] ? null : `total ${datas.total}, expected ${fx.inspections[who]}`;
    }
    case 'inspections.report':
    case 'inspections.result':
      return datas.inspection?.id === fx.ids.inspection ? null : `inspection ${datas.inspection?.id}`;
    case 'inspections.shareList':
      // The links of that inspection only (each identity's share call made one).
      return Array.isArray(datas.list) && datas.list.every((l: { url: string }) => /\/share\/[A-Za-z0-9_-]{43}$/.test(l.url)) ? null : `links ${JSON.stringify(datas.list)}`;
    case 'stats.finance':
      // Grades 1-2: their own institution's figures; the platform: its own (no institution).
      return (datas.institution?.id ?? null) === (who === 'admin' ? null : fx.inst[who]) ? null : `finance of ${datas.institution?.id}`;
    case 'auth.memberInfo':
      return datas.username === who ? null : `username ${datas.username}`;
    case 'preferences.get':
      return JSON.stringify(datas.views.map((v: { name: string }) => v.name)) === JSON.stringify([`${who}'s view`]) && datas.columns?.length === 1 ? null : `views ${JSON.stringify(datas.views)}`;
    case 'auth.institutionInfo': {
      const username = who === 'overdue3R' ? 'overdue3' : who;
      return datas.id === fx.inst[username] && datas.username === username ? null : `institution ${datas.id} ${datas.username}`;
    }
    case 'auth.login':
    case 'auth.institutionLogin':
      return typeof datas.key === 'string' ? null : 'no key';
    case 'notices.list':
      // The caller's own notices with its unread count (who reads what: modules/notices/notices.test.ts).
      return typeof datas.unread === 'number' && datas.total >= datas.list.length ? null : `notices ${JSON.stringify(datas).slice(0, 200)}`;
    case 'mfa.status':
      // No factor yet, none required (the parameter is 0).
      return datas.enabled === false && datas.required === false ? null : `status ${JSON.stringify(datas)}`;
    case 'sessions.list':
      // The caller's own sessions only, with the calling one marked.
      return datas.list.filter((r: { current: boolean }) => r.current).length === 1 ? null : `current ${JSON.stringify(datas.list)}`;
    case 'uploads.uploadImg':
    case 'uploads.uploadFile':
    case 'finance.payoutVoucher':
      return typeof datas.url === 'string' ? null : 'no url';
  }
  const input = inputOf(name);
  if (input.kind === 'json' && typeof input.value.id === 'number' && /detail$/i.test(name)) return datas.id === input.value.id ? null : `detail of ${datas.id}`;
  return null;
}

let addressSeq = 0;
/** A key for the identity, fresh for every call (logout and writes may end the one used). */
async function keyOf(who: Who): Promise<string | null> {
  // Signed in just now, as by the password: step-up calls (modules/auth/stepup.test.ts) pass their check here.
  const session = (kind: 'admin' | 'institution', subjectId: number, extra: { expiresAt?: Date } = {}) =>
    createSession(t.db, { kind, subjectId, ip: '127.0.0.1', reauthenticated: true, ...extra }).then((s) => s.key);
  switch (who) {
    case 'none':
      return null;
    case 'expired':
      return session('institution', fx.inst.clinic3!, { expiresAt: new Date(Date.now() - 60_000) });
    case 'admin':
    case 'auditor':
    case 'nobody':
      return session('admin', fx.ids[`admin:${who}`]!);
    case 'overdue3R': {
      // The key a 998 answer hands out.
      const res = await send('GET', '/equipment/list', await session('institution', fx.inst.overdue3!), json());
      if (res.code !== 998 || typeof res.datas?.error?.data?.key !== 'string') throw new Error(`no restricted key: ${res.raw}`);
      return res.datas.error.data.key;
    }
    default:
      return session('institution', fx.inst[who]!);
  }
}

/** One call as a client makes it: the key in the query string (GET, uploads) or the JSON body. */
async function send(method: string, url: string, key: string | null, input: Input) {
  let filled = url;
  const rest: Record<string, unknown> = { ...(input.kind === 'json' ? input.value : {}) };
  for (const match of url.matchAll(/:(\w+)/g)) {
    const param = match[1]!;
    filled = filled.replace(`:${param}`, encodeURIComponent(String(rest[param])));
    delete rest[param];
  }
  // A distinct address per call: no sign-in throttle counts these calls together.
  addressSeq++;
  const remoteAddress = `10.9.${(addressSeq >> 8) & 255}.${addressSeq & 255}`;
  const headers: Record<string, string> = { 'accept-language': 'en' };
  let res: Awaited<ReturnType<typeof t.app.inject>>;
  if (input.kind === 'multipart') {
    const boundary = '----permissiontable';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${input.filename}"\r\ncontent-type: ${input.type}\r\n\r\n`),
      input.content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    res = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}${filled}`,
      query: key ? { key } : {},
      payload,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      remoteAddress,
    });
  } else if (method === 'GET' && url === '/notice/stream') {
    // A stream never ends: its answer is read up to its first comment, then the connection is cut.
    const query: Record<string, string> = key ? { key } : {};
    const streamed = (await t.app.inject({ method: 'GET', url: `${API_BASE}${filled}`, query, headers, remoteAddress, payloadAsStream: true } as never)) as unknown as typeof res & {
      stream(): NodeJS.ReadableStream & { destroy(): void };
    };
    const first = await new Promise<string>((resolve) => {
      const body = streamed.stream();
      body.once('data', (chunk: Buffer) => {
        resolve(String(chunk));
        body.destroy();
      });
      body.once('end', () => resolve(''));
    });
    res = Object.assign(streamed, { body: first, json: () => JSON.parse(first) }) as typeof res;
  } else if (method === 'GET') {
    const query = Object.fromEntries(Object.entries({ ...rest, ...(key ? { key } : {}) }).map(([k, v]) => [k, String(v)]));
    res = await t.app.inject({ method: 'GET', url: `${API_BASE}${filled}`, query, headers, remoteAddress });
  } else {
    res = await t.app.inject({ method: 'POST', url: `${API_BASE}${filled}`, payload: { ...rest, ...(key ? { key } : {}) }, headers, remoteAddress });
  }
  let body: any = null;
  try {
    body = res.json();
  } catch {
    /* a raw answer */
  }
  return { status: res.statusCode, code: body?.code as number | undefined, datas: body?.datas, envelope: !!body && typeof body === 'object' && 'code' in body, raw: res.body.slice(0, 300) };
}

/** Null when the answer is the expected outcome, else what went wrong. */
function judge(name: string, who: Who, expected: Outcome, res: Awaited<ReturnType<typeof send>>): string | null {
  const said = `got HTTP ${res.status} ${res.raw}`;
  if (res.status >= 500) return said;
  switch (expected) {
    case 'file':
      return res.status === 200 && !res.envelope ? null : said;
    case 'ok':
      return res.status === 200 && res.code === 200 ? checkData(name, who, res.datas) : said;
    case 'w':
      return res.code === 200 || (res.code === 400 && typeof res.datas?.error === 'string' && res.datas.error !== FORBIDDEN) ? null : said;
    case 'F':
      return res.code === 400 && res.datas?.error === FORBIDDEN ? null : said;
    case 998:
      return res.code === 998 && typeof res.datas?.error?.data?.key === 'string' ? null : said;
    case 999:
      return res.code === 999 ? null : said;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'permissions-test-'));
  t.app.config.dataDir = dataDir;
  const db = t.db;

  const [emptyRole] = await db.insert(roles).values({ name: 'Holds nothing' }).returning();
  await db.insert(adminUsers).values({ username: 'nobody', passwordHash: await hashPassword('irrelevant-1'), roleId: emptyRole!.id });
  const admins = await db.select().from(adminUsers);
  const adminId = (username: string) => admins.find((a) => a.username === username)!.id;
  // One audit row to read back.
  const [audit] = await db
    .insert(auditLog)
    .values({ actorKind: 'admin', actorId: adminId('admin'), actorName: 'admin', endpoint: 'packages.edit', path: '/package/edit' })
    .returning();
  const first = async (table: any, where?: any) => (await db.select({ id: table.id }).from(table).where(where).orderBy(asc(table.id)).limit(1))[0]!.id as number;

  const insts = await db.select().from(institutions);
  const inst = Object.fromEntries(insts.map((r) => [r.username, r.id]));
  const allDevices = await db.select({ id: devices.id, institutionId: devices.institutionId }).from(devices);
  const scoped: Fixture['devices'] = {};
  const pickable: Fixture['institutions'] = {};
  const allApplications = await db.select({ id: branchApplications.id, applicantId: branchApplications.applicantId }).from(branchApplications);
  const applications: Fixture['applications'] = {};
  const allRecords = await db.select({ id: activationRecords.id, institutionId: activationRecords.institutionId }).from(activationRecords);
  const records: Fixture['records'] = {};
  // The report's history: an earlier inspection of the person of clinic3's first inspection (the fixture's), at clinic3.
  const [shown] = await db.select().from(inspections).where(eq(inspections.institutionId, inst.clinic3!)).orderBy(asc(inspections.id)).limit(1);
  await db.insert(inspections).values({
    deviceId: shown!.deviceId,
    institutionId: shown!.institutionId,
    inspectionNo: 'PERM-EARLIER',
    measuredAt: new Date(shown!.measuredAt.getTime() - 86_400_000),
    endUserId: shown!.endUserId,
    readings: shown!.readings,
    analysis: shown!.analysis,
  });
  const allInspections = await db.select({ id: inspections.id, institutionId: inspections.institutionId }).from(inspections);
  const seenInspections: Fixture['inspections'] = {};
  for (const [who, sees] of Object.entries(SEES) as [Who, readonly string[] | 'all'][]) {
    const mine = sees === 'all' ? insts.map((r) => r.id) : sees.map((u) => inst[u]!);
    pickable[who] = [...mine].sort((a, b) => a - b);
    records[who] = allRecords
      .filter((r) => mine.includes(r.institutionId))
      .map((r) => r.id)
      .sort((a, b) => a - b);
    applications[who] = allApplications
      .filter((a) => mine.includes(a.applicantId))
      .map((a) => a.id)
      .sort((a, b) => a - b);
    seenInspections[who] = allInspections.filter((r) => mine.includes(r.institutionId)).length;
    scoped[who] = allDevices
      .filter((d) => (sees === 'all' ? true : d.institutionId !== null && mine.includes(d.institutionId)))
      .map((d) => d.id)
      .sort((a, b) => a - b);
  }

  // Every account's own column setting and saved view of the device list: each identity must get its own only.
  const accounts = [...admins.map((a) => ({ kind: 'admin' as const, id: a.id, username: a.username })), ...insts.map((r) => ({ kind: 'institution' as const, id: r.id, username: r.username }))];
  await db.insert(listColumns).values(accounts.map((a) => ({ subjectKind: a.kind, subjectId: a.id, list: 'equipment.list', columns: [{ key: 'serial', visible: true }] })));
  await db
    .insert(listViews)
    .values(
      accounts.map((a) => ({ subjectKind: a.kind, subjectId: a.id, list: 'equipment.list', name: `${a.username}'s view`, filters: { status: 'active' }, sort: 'serial', order: 'ascend' as const })),
    );

  fx = {
    inst,
    devices: scoped,
    institutions: pickable,
    records,
    applications,
    inspections: seenInspections,
    ids: {
      'admin:admin': adminId('admin'),
      'admin:auditor': adminId('auditor'),
      'admin:nobody': adminId('nobody'),
      adminUser: adminId('auditor'),
      menu: await first(menus),
      role: emptyRole!.id,
      package: await first(packages, isNull(packages.deletedAt)),
      category: await first(diseaseCategories),
      disease: await first(diseases),
      system: await first(systems),
      acupoint: await first(acupoints),
      schematic: await first(schematics),
      doctor: await first(doctors, isNull(doctors.deletedAt)),
      user: await first(endUsers, isNull(endUsers.deletedAt)),
      audit: audit!.id,
      inspection: await first(inspections, eq(inspections.institutionId, inst.clinic3!)),
    },
  };
  // The seeded trees are what the expectations above assume.
  expect(insts.map((r) => r.username).sort()).toEqual(['agent1', 'agent1b', 'agent2', 'agent2b', 'clinic3', 'clinic3b', 'overdue3']);
  expect(new Set(allDevices.map((d) => d.institutionId)).size).toBeGreaterThan(7);
  // Activation records in both trees, so each scoped list of them is a real check.
  expect(new Set(allRecords.map((r) => r.institutionId)).size).toBeGreaterThan(2);
  // Applications of both trees, so each scoped list of them is a real check.
  expect(new Set(allApplications.map((a) => a.applicantId)).size).toBeGreaterThan(3);
  // One notice read, so the notice list's read_at is a field someone gets.
  const [unreadOne] = await db
    .select({ id: notices.id })
    .from(notices)
    .where(and(eq(notices.recipientKind, 'institution'), eq(notices.recipientId, inst.agent1!)))
    .orderBy(desc(notices.id))
    .limit(1);
  expect(unreadOne, 'the demo data gives agent1 notices').toBeTruthy();
  await db.update(notices).set({ readAt: new Date() }).where(eq(notices.id, unreadOne!.id));
  const overdue = insts.find((r) => r.username === 'overdue3')!;
  expect(overdue.termExpiresAt!.getTime()).toBeLessThan(Date.now());
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the permission table', () => {
  it('has a row for every endpoint, and no row for an endpoint that does not exist', () => {
    const names = ENDPOINTS.map((e) => e.name).sort();
    const rows = Object.keys(TABLE).sort();
    expect(
      names.filter((n) => !rows.includes(n)),
      'endpoints without a row',
    ).toEqual([]);
    expect(
      rows.filter((n) => !names.includes(n)),
      'rows naming no endpoint',
    ).toEqual([]);
  });

  it.each(WHO)('%s gets exactly the outcome of its column on every endpoint', async (who) => {
    const column = WHO.indexOf(who);
    const wrong: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const row = TABLE[endpoint.name];
      if (!row) continue;
      const expected = row[column]!;
      const res = await send(endpoint.method, endpoint.path, await keyOf(who), inputOf(endpoint.name));
      const problem = judge(endpoint.name, who, expected, res);
      if (problem) wrong.push(`${endpoint.name} (expected ${expected}): ${problem}`);
    }
    expect(wrong).toEqual([]);
  });
});

/** The paths of an answer that carry a value (not null): `list[].name`, `totals.count`, `[].id`. */
function valuePaths(value: unknown, at = '', into = new Set<string>()): Set<string> {
  if (value === null || value === undefined) return into;
  if (Array.isArray(value)) {
    for (const item of value) valuePaths(item, `${at}[]`, into);
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) valuePaths(v, at ? `${at}.${k}` : k, into);
  } else into.add(at);
  return into;
}
const listed = (path: string, fields: readonly string[]) => fields.some((f) => f === path || (f.endsWith('.*') && path.startsWith(f.slice(0, -1))));
/** The grade of an identity whose answers the fields table judges; 0 is the platform. */
const GRADE: Partial<Record<Who, 0 | 1 | 2 | 3>> = { admin: 0, auditor: 0, agent1: 1, agent2: 2, clinic3: 3, agent1b: 1 };

describe('the fields each grade sees (permissions.fields.ts)', () => {
  const readers = Object.keys(GRADE) as Who[];
  /** Endpoints some institution identity reads: each must have its row of fields. */
  const institutionReads = ENDPOINTS.filter((e) => readers.some((who) => GRADE[who]! > 0 && TABLE[e.name]?.[WHO.indexOf(who)] === 'ok')).map((e) => e.name);

  it('lists the fields of every answer an institution reads, and no other endpoint', () => {
    expect(
      institutionReads.filter((n) => !ANSWER_FIELDS[n]),
      'endpoints without their fields',
    ).toEqual([]);
    expect(
      Object.keys(ANSWER_FIELDS).filter((n) => !institutionReads.includes(n)),
      'rows naming no such endpoint',
    ).toEqual([]);
  });

  it('answers no identity a field outside its row, nor one hidden from its grade; every listed field is seen by someone', async () => {
    const wrong: string[] = [];
    const seen = new Map<string, Set<string>>();
    for (const who of readers) {
      const grade = GRADE[who]!;
      for (const name of institutionReads) {
        const endpoint = ENDPOINTS.find((e) => e.name === name)!;
        if (TABLE[name]![WHO.indexOf(who)] !== 'ok') continue;
        const res = await send(endpoint.method, endpoint.path, await keyOf(who), inputOf(name));
        expect(res.code, `${name} as ${who}: ${res.raw}`).toBe(200);
        const row = ANSWER_FIELDS[name]!;
        const hidden = grade === 0 ? [] : (row.hiddenFrom?.[grade] ?? []);
        for (const path of valuePaths(res.datas)) {
          if (!listed(path, row.fields)) wrong.push(`${name}: ${path} (as ${who}) is not in its row`);
          else if (hidden.includes(path)) wrong.push(`${name}: ${path} is hidden from grade ${grade}, yet ${who} got it`);
          if (!seen.has(name)) seen.set(name, new Set());
          seen.get(name)!.add(path);
        }
      }
    }
    expect(wrong).toEqual([]);
    // The table stays honest: a listed field nobody gets is a stale row (wildcards: something under them).
    const stale = Object.entries(ANSWER_FIELDS).flatMap(([name, row]) => row.fields.filter((f) => ![...(seen.get(name) ?? [])].some((p) => listed(p, [f]))).map((f) => `${name}: ${f}`));
    expect(stale).toEqual([]);
    // Each hidden field is a real one: some other identity gets it, so hiding it is a check that can fail.
    const idle = Object.entries(ANSWER_FIELDS).flatMap(([name, row]) =>
      Object.values(row.hiddenFrom ?? {}).flatMap((paths) => paths!.filter((p) => !seen.get(name)?.has(p)).map((p) => `${name}: ${p}`)),
    );
    expect(idle).toEqual([]);
  });
});
