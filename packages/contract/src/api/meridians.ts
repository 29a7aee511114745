/**
 * What the master-data modules (diseases, systems, acupoints, schematics) share: the meridians and
 * their groupings, pattern statuses, waveforms, the enabled/disabled status, multilingual name
 * schemas, and the URL of an uploaded image. No endpoints here: each module's file has its table.
 */
import { z } from 'zod';
import { API_BASE } from '../constants';

/** The 12 meridians, in the order the device reads them: hand LU PC HT SI TE LI, foot SP LR KI BL GB ST. */
export const MERIDIANS = ['LU', 'PC', 'HT', 'SI', 'TE', 'LI', 'SP', 'LR', 'KI', 'BL', 'GB', 'ST'] as const;
export type Meridian = (typeof MERIDIANS)[number];
export const YIN_MERIDIANS: readonly Meridian[] = ['LU', 'PC', 'HT', 'SP', 'LR', 'KI'];
export const HAND_MERIDIANS: readonly Meridian[] = ['LU', 'PC', 'HT', 'SI', 'TE', 'LI'];
/** The source (yuan) point of each meridian: the measurement points (left and right are sides of one reading). */
export const SOURCE_POINTS: Record<Meridian, string> = {
  LU: 'LU9',
  PC: 'PC7',
  HT: 'HT7',
  SI: 'SI4',
  TE: 'TE4',
  LI: 'LI4',
  SP: 'SP3',
  LR: 'LR3',
  KI: 'KI3',
  BL: 'BL64',
  GB: 'GB40',
  ST: 'ST42',
};
/** An acupoint's channel: the 12 meridians, the conception (CV) and governing (GV) vessels, or extra points (EX). */
export const ACUPOINT_MERIDIANS = [...MERIDIANS, 'CV', 'GV', 'EX'] as const;
export type AcupointMeridian = (typeof ACUPOINT_MERIDIANS)[number];

export const PATTERN_STATUSES = ['excess', 'deficient', 'imbalanced'] as const;
export type PatternStatus = (typeof PATTERN_STATUSES)[number];

export const WAVEFORMS = ['continuous', 'intermittent', 'dense-sparse', 'sawtooth'] as const;
export type Waveform = (typeof WAVEFORMS)[number];

/** 1 enabled, 0 disabled. */
export const MASTER_STATUSES = [0, 1] as const;
export type MasterStatus = 0 | 1;

/** Lengths of the four-language texts (names, longer texts) and the editor's largest sort order. */
export const MASTER_LIMITS = { nameMax: 100, textMax: 2000, sortMax: 99_999 } as const;

const text = (max: number) => z.string().trim().max(max);
/** A name in the four languages: zh and en required, es and ja optional (empty = falls back to en). */
export const l10nRequired = (max: number = MASTER_LIMITS.nameMax) => z.object({ zh: text(max).min(1), en: text(max).min(1), es: text(max).default(''), ja: text(max).default('') });
/** A longer text in the four languages, every one optional. */
export const l10nOptional = (max: number = MASTER_LIMITS.textMax) =>
  z.object({ zh: text(max).default(''), en: text(max).default(''), es: text(max).default(''), ja: text(max).default('') }).prefault({});

/** The editor's sort order of a master record (default 0). */
export const masterSort = z.number().int().min(0).max(MASTER_LIMITS.sortMax).default(0);
/** Enabled (1, default) or disabled (0). */
export const masterStatus = z.union([z.literal(0), z.literal(1)]).default(1);
/** Query-string flag: 1/true or 0/false. */
export const queryFlag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === '1' || v === 'true'));
/** Query-string status filter: 0 or 1. */
export const queryStatus = z
  .enum(['0', '1'])
  .optional()
  .transform((v) => (v === undefined ? undefined : (Number(v) as MasterStatus)));

const UPLOAD_NAME = '(?:[0-9a-f]{32}|builtin-[a-z0-9-]{1,40})';
/** URL of an uploaded image (png, jpg, gif or webp), as answered by /base/upload_img. */
export const UPLOADED_IMAGE_RE = new RegExp(`^${API_BASE}/uploads/${UPLOAD_NAME}\\.(?:png|jpg|gif|webp)$`);
export const uploadedImageUrl = z.string().trim().regex(UPLOADED_IMAGE_RE);
