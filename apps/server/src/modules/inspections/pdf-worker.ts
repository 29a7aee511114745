/**
 * A worker thread that draws report PDFs (./pdf-pool.ts sends the jobs): the report's data, the language,
 * the active link and the diagrams' bytes in; the PDF's bytes out. Its own fonts, parsed once per thread.
 */
import { parentPort } from 'node:worker_threads';
import type { PdfJob, PdfJobAnswer } from './pdf-pool';
import { reportPdf } from './pdf';

const port = parentPort;
if (!port) throw new Error('pdf-worker.ts runs as a worker thread');

port.on('message', async (job: PdfJob) => {
  let answer: PdfJobAnswer;
  try {
    const images = new Map(job.images.map(([url, bytes]) => [url, bytes ? Buffer.from(bytes) : null]));
    const pdf = await reportPdf(job.data, { lang: job.lang, images: async (url) => images.get(url) ?? null });
    answer = { id: job.id, pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
  } catch (err) {
    answer = { id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  port.postMessage(answer);
});
