import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { InspectionReportData, Lang } from '@app/contract';
import { type ImageSource, reportPdf } from './pdf';

/*
 * Report PDFs are drawn in a pool of worker threads (docs/decisions.md, "The report PDF"): drawing one costs
 * 200-400 ms of one core (charts traced into vectors, CJK line breaking, font subsetting), all of it
 * synchronous JavaScript. In the server's own thread four reports at once queued behind each other and every
 * other request of the process waited with them; in the pool they run side by side on the box's cores while
 * the server thread goes on answering.
 *
 * Up to `POOL_MAX` threads (the cores, at most 4), started at the first PDF and ended after a minute without
 * one (each holds its parsed fonts); unreferenced, so they never keep the process alive. A job goes to the thread with the fewest jobs; a thread
 * that dies fails its jobs with it and is replaced at the next job. The diagrams' bytes are read here, in the
 * server's thread (they come from the database), and sent with the job.
 *
 * Only the built server has the worker's bundle beside it (dist/pdf-worker.js, build.mjs); run from the
 * sources (tsx, the server tests) the PDF is drawn in the calling thread, by the same function.
 */

export interface PdfJob {
  id: number;
  data: InspectionReportData;
  lang: Lang;
  /** The diagrams' bytes by URL (null: not found). */
  images: [string, Uint8Array | null][];
}

export type PdfJobAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

const WORKER_FILE = path.join(import.meta.dirname, 'pdf-worker.js');
const POOL_MAX = Math.max(1, Math.min(4, os.availableParallelism()));
const IDLE_MS = 60_000;

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve: (pdf: Buffer) => void; reject: (err: Error) => void }>;
  idle: NodeJS.Timeout | undefined;
}

const threads: Thread[] = [];
let nextId = 0;

function startThread(): Thread {
  const thread: Thread = { worker: new Worker(WORKER_FILE), pending: new Map(), idle: undefined };
  thread.worker.unref();
  thread.worker.on('message', (answer: PdfJobAnswer) => {
    const job = thread.pending.get(answer.id);
    if (!job) return;
    thread.pending.delete(answer.id);
    if ('pdf' in answer) job.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
    else job.reject(new Error(`report PDF: ${answer.error}`));
    if (!thread.pending.size) thread.idle = setTimeout(() => endThread(thread), IDLE_MS).unref();
  });
  const fail = (err: Error) => {
    endThread(thread);
    for (const job of thread.pending.values()) job.reject(err);
    thread.pending.clear();
  };
  thread.worker.on('error', fail);
  thread.worker.on('exit', (code) => fail(new Error(`report PDF: the worker thread ended (exit code ${code})`)));
  threads.push(thread);
  return thread;
}

function endThread(thread: Thread) {
  const i = threads.indexOf(thread);
  if (i < 0) return;
  threads.splice(i, 1);
  clearTimeout(thread.idle);
  void thread.worker.terminate();
}

/** The thread for the next job: a new one while the pool is not full and every thread is busy, else the least busy. */
function threadForJob(): Thread {
  const least = threads.reduce<Thread | undefined>((best, t) => (!best || t.pending.size < best.pending.size ? t : best), undefined);
  if (least && (least.pending.size === 0 || threads.length >= POOL_MAX)) return least;
  return startThread();
}

/** Whether PDFs are drawn in worker threads (the built server) or in the calling thread (sources): fixed for the process. */
const IN_WORKERS = fs.existsSync(WORKER_FILE);

/** The report as a PDF file: in a worker thread of the pool when the built worker is there, else here. */
export async function drawReportPdf(data: InspectionReportData, opts: { lang: Lang; images: ImageSource }): Promise<Buffer> {
  if (!IN_WORKERS) return reportPdf(data, opts);
  const images = await Promise.all(
    data.schematics.map(async (s): Promise<[string, Uint8Array | null]> => {
      const bytes = await opts.images(s.url).catch(() => null);
      return [s.url, bytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null];
    }),
  );
  const thread = threadForJob();
  clearTimeout(thread.idle);
  const id = ++nextId;
  return new Promise<Buffer>((resolve, reject) => {
    thread.pending.set(id, { resolve, reject });
    const job: PdfJob = { id, data, lang: opts.lang, images };
    thread.worker.postMessage(job);
  });
}
