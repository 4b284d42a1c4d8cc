// A worker thread holding one part of a partitioned report (see ports/partitioned-report.ts). It parses its bytes
// as soon as it starts, then answers `check` and `render` requests from the thread that split the report.
import 'reflect-metadata';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PartWork, type PartJob, type PartRules } from '../../domain/artifacts/partition';
import type { KsiResult } from '../../domain/ksi/ksi-result';
import { NodeCryptoHashing } from '../hashing/node-crypto-hashing';
import { FragmentFile } from './fragment-file';

interface PartData {
  shared?: SharedArrayBuffer;
  from: number;
  to: number;
  id: string;
}

type Request = { type: 'check'; rules: PartRules } | { type: 'render'; job: PartJob };

const data = workerData as PartData;
const work = parse(data);

/**
 * The part's bytes are `[` to `]` as the splitting thread arranged them. The shared bytes are let go of and
 * the other thread told it may change them again before parsing, so they can be collected meanwhile.
 */
function parse({ from, to }: PartData): PartWork {
  const text = Buffer.from(data.shared as SharedArrayBuffer).toString('utf8', from, to);
  data.shared = undefined;
  parentPort?.postMessage({ decoded: true });
  try {
    return new PartWork(JSON.parse(text) as KsiResult[]);
  } catch (error) {
    return new PartWork(undefined, (error as Error).message);
  }
}

parentPort?.on('message', (request: Request) => {
  try {
    if (request.type === 'check') parentPort?.postMessage({ ok: true, value: work.check(request.rules) });
    else {
      const open = (name: string) => new FragmentFile(join(request.job.scratch, `${data.id}.${name}`));
      const rendered = work.render(request.job, new NodeCryptoHashing(), open);
      parentPort?.postMessage({ ok: true, value: rendered }, [rendered.leaves.buffer as ArrayBuffer]);
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    parentPort?.postMessage({ ok: false, error: { message: e.message, code: e.code } });
  }
});
