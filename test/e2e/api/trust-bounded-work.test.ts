import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container as root } from 'tsyringe';
import type * as Server from '../../../src/interfaces/http/server';
import type * as ApiConfigModule from '../../../src/interfaces/http/config/api-config';
import type * as RunStorePort from '../../../src/ports/run-store';
import type * as FileStore from '../../../src/infrastructure/store/file-run-store';
import type * as Snapshots from '../../../src/interfaces/http/routes/trust-snapshots';
import type * as Adapters from '../../../src/infrastructure/register-adapters';
import type * as Process from '../../../src/application/conmon/process-run';
import type { AppendRequest, DocumentProducer, RunStore } from '../../../src/ports/run-store';
import { capturingLogger } from '../../support/api';
import { FEDRAMP_SCHEMAS } from '../../support/fedramp-schemas';
import { ROOT, svc } from '../../support/run-svc';
import { TRUST_PROFILE as PROFILE } from '../../support/trust-center';
import { readStoredDocument, storedDocumentFile, writeStoredDocument } from '../../support/stored-documents';

/**
 * The built svc-api (dist/, as `npm run build` leaves it) started in this process on a real socket, over a file store
 * the test watches: which documents each request opens, and a gate that holds the reads of evidence bundles (what a
 * snapshot's SDR is built from) until the test lets them through.
 */
const dist = <T>(path: string): T => require(join(ROOT, 'dist', path)) as T;
const { startApi } = dist<typeof Server>('interfaces/http/server');
const { readApiConfig } = dist<typeof ApiConfigModule>('interfaces/http/config/api-config');
const { RUN_STORE } = dist<typeof RunStorePort>('ports/run-store');
const { FileRunStore } = dist<typeof FileStore>('infrastructure/store/file-run-store');
const { SNAPSHOT_LIMITS } = dist<typeof Snapshots>('interfaces/http/routes/trust-snapshots');
const { registerAdapters } = dist<typeof Adapters>('infrastructure/register-adapters');
const { ProcessRun } = dist<typeof Process>('application/conmon/process-run');
const { generate } = require('../../../scripts/bench/generate-report.js') as { generate: (n: number, file: string) => number };

const AGENCY = { 'X-Forwarded-User': 'dana@examples.gov' };
const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
const BUNDLE = 'evidence-bundle.json';

/** The file store, noting each document opened (`<run id>/<name>`) and holding bundle reads while `held`. */
class WatchedStore extends FileRunStore {
  readonly opened: string[] = [];
  held = false;
  /** Bundle reads waiting at the gate now. */
  atGate = 0;
  private readonly gate: (() => void)[] = [];

  override async openDocument(key: string | number, name: string) {
    this.opened.push(`${key}/${name}`);
    if (name === BUNDLE && this.held) {
      this.atGate += 1;
      await new Promise<void>((resolve) => this.gate.push(resolve));
      this.atGate -= 1;
    }
    return super.openDocument(key, name);
  }

  /** The names opened since the last call. */
  take(): string[] {
    return this.opened.splice(0).map((o) => o.slice(o.indexOf('/') + 1));
  }

  release(): void {
    this.held = false;
    for (const open of this.gate.splice(0)) open();
  }
}

/** The store as svc recorded runs before the evidence index: every document but the index's. */
class PreIndexStore extends FileRunStore {
  override append(id: string, decide: Parameters<RunStore['append']>[1], produce?: DocumentProducer) {
    return super.append(id, decide, withoutIndex(produce));
  }

  override appendAll(requests: Iterable<AppendRequest> | AsyncIterable<AppendRequest>) {
    const each = async function* () {
      for await (const request of requests) yield { ...request, produce: withoutIndex(request.produce) };
    };
    return super.appendAll(each());
  }
}

/** What `produce` gives, less the evidence index (which svc did not store before). */
function withoutIndex(produce: DocumentProducer | undefined): DocumentProducer | undefined {
  return produce && (async (run) => (await produce(run)).filter((source) => !source.name.startsWith('evidence-index')));
}

/** Polls (a few ms apart) until `done()`; fails after 20 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A trust center over a fresh store: the built CLI records into it; the built svc-api serves it. */
function trustCenter(prefix: string) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const at = (...parts: string[]) => join(work, ...parts);
  writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
  const env = { ...process.env, SVC_HOME: at('.svc'), SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '' };
  const run = (args: string[]) => {
    const r = svc(args, { cwd: work, env: { SVC_HOME: at('.svc') } });
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
  };
  /** A report of `results` results (the benchmarks' generator) on `day`, run `n`'s own evidence at every 50th result. */
  const report = (n: number, day: string, results = 60) => {
    const file = at(`run-${n}.json`);
    generate(results, file);
    const generated = JSON.parse(readFileSync(file, 'utf8')) as { results: { evidence: { value: number } }[] };
    generated.results.forEach((r, i) => i % 50 === n % 50 && (r.evidence.value += n * 1e7));
    writeFileSync(file, JSON.stringify({ ...generated, generated_at: `${day}T00:00:00Z` }));
    return file;
  };
  /** Records run `n` of `day` with the built CLI and freezes it with an OCR for the week that ends that day. */
  const recordAndFreeze = (n: number, day: string, results?: number) => {
    run(['conmon', 'process', report(n, day, results)]);
    const from = new Date(Date.parse(day) - 6 * 86_400_000).toISOString().slice(0, 10);
    run(['fedramp', 'ocr', '--from', from, '--to', day, '--now', `${day}T12:00:00Z`, '--out', at(`ocr-${day}.json`)]);
  };
  const store = new WatchedStore({ dir: at('.svc', 'store') });
  const log = capturingLogger();
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  const start = async (overrides: (c: import('tsyringe').DependencyContainer) => void = () => undefined) => {
    const config = readApiConfig(
      {
        port: 0,
        auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1', '::1'] } },
        roles: { auditor: ['alice@SVC.TEST'] },
        limits: { requests_per_minute: 1_000_000 },
      },
      'test-api.json',
      work,
    );
    api = await startApi(config, {
      env,
      cwd: work,
      logger: log.logger,
      overrides: (c) => {
        c.register(RUN_STORE, { useValue: store });
        overrides(c);
      },
    });
    return api;
  };
  const get = async (path: string, headers: Record<string, string> = AGENCY) => {
    const res = await fetch(`${api!.url}${path}`, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const idOf = (seq: number) =>
    (JSON.parse(readFileSync(at('.svc', 'store', 'index.json'), 'utf8')) as { runs: { summary: { id: string } }[] }).runs[seq - 1].summary.id;
  const documentsOf = (seq: number) =>
    JSON.parse(readStoredDocument(at('.svc', 'store', 'documents', idOf(seq)), '.list.json').toString('utf8')) as {
      name: string;
      media_type: string;
      bytes: number;
    }[];
  const pageOf = (seq: number, page = 0) =>
    JSON.parse(readStoredDocument(at('.svc', 'store', 'documents', idOf(seq)), `evidence.${String(page).padStart(6, '0')}.json`).toString('utf8')) as {
      content_hash: string;
    }[];
  const hexOf = (entry: { content_hash: string }) => entry.content_hash.slice('sha256:'.length);
  /** Records runs as svc did before the evidence index (in this process, through the built ProcessRun). */
  const recordBeforeIndex = async (n: number, day: string) => {
    const adapters = registerAdapters(root.createChildContainer(), { env, cwd: work });
    adapters.register(RUN_STORE, { useValue: new PreIndexStore({ dir: at('.svc', 'store') }) });
    await adapters.resolve(ProcessRun).execute({ input: report(n, day) });
    const from = new Date(Date.parse(day) - 6 * 86_400_000).toISOString().slice(0, 10);
    run(['fedramp', 'ocr', '--from', from, '--to', day, '--now', `${day}T12:00:00Z`, '--out', at(`ocr-${day}.json`)]);
  };
  return {
    work,
    at,
    store,
    log,
    start,
    get,
    run,
    recordAndFreeze,
    recordBeforeIndex,
    documentsOf,
    pageOf,
    hexOf,
    idOf,
    async close() {
      await api?.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

type TrustCenter = ReturnType<typeof trustCenter>;
const built = (tc: TrustCenter) => tc.log.lines.filter((l) => l.msg === 'evidence index built');
/** Day n of the series: a week apart from 2026-01-05. */
const dayOf = (n: number) => new Date(Date.parse('2026-01-05T00:00:00Z') + 7 * (n - 1) * 86_400_000).toISOString().slice(0, 10);

describe('svc-api trust center: GET /fedramp/evidence/{sha256} reads the index each run carries (the built svc-api on a real socket)', () => {
  const RUNS = 20;
  let tc: TrustCenter;

  beforeAll(async () => {
    tc = trustCenter('svc-trust-index-');
    // Run 1: 2,600 results over three evidence pages; runs 2 to 20 small. Each frozen by an OCR: 20 runs searched.
    tc.recordAndFreeze(1, dayOf(1), 2600);
    for (let n = 2; n <= RUNS; n++) tc.recordAndFreeze(n, dayOf(n));
    await tc.start();
  }, 300_000);
  afterAll(() => tc.close());

  it('a run recorded now carries its index: evidence-index.json and its bucket, listed (so hashed into the chain) beside the pages', () => {
    const documents = tc.documentsOf(1);
    const index = documents.filter((d) => d.name.startsWith('evidence-index'));
    expect(index.map((d) => [d.name, d.media_type])).toEqual([
      ['evidence-index.0000.bin', 'application/octet-stream'],
      ['evidence-index.json', 'application/json'],
    ]);
    // 8 bytes an entry: the first 4 bytes of the content hash and the position in the evidence list.
    expect(index[0].bytes).toBe(8 * 2600);
    expect(JSON.parse(readStoredDocument(tc.at('.svc', 'store', 'documents', tc.idOf(1)), 'evidence-index.json').toString('utf8'))).toEqual({
      bucket_bits: 0,
      entries: 2600,
      list: 'evidence',
      page_size: 1000,
      schema: 'svc.evidence-index/v1',
    });
    expect(
      tc
        .documentsOf(2)
        .filter((d) => d.name.startsWith('evidence-index'))
        .map((d) => d.name),
    ).toEqual(['evidence-index.0000.bin', 'evidence-index.json']);
  });

  it("a lookup reads each run's index header once, then one bucket per run searched and the page its entry is on: no pass over the pages, nothing built", async () => {
    const pages = [0, 1, 2].map((p) => tc.pageOf(1, p));
    // Results 1, 51, 101, … carry run 1's own evidence: found in run 1 alone, searched last of the 20.
    const spread = [1, 951, 1001, 1051, 1951, 2001, 2551];
    const entryAt = (i: number) => pages[Math.floor(i / 1000)][i % 1000];
    const buckets = Array.from({ length: RUNS }, () => 'evidence-index.0000.bin');
    tc.store.take();
    for (const [round, i] of [...spread, ...spread].entries()) {
      const res = await tc.get(`/fedramp/evidence/${tc.hexOf(entryAt(i))}`);
      expect([i, res.status, JSON.parse(res.text).content_hash]).toEqual([i, 200, entryAt(i).content_hash]);
      const page = `evidence.${String(Math.floor(i / 1000)).padStart(6, '0')}.json`;
      // The buckets read are kept (a few KB here): later lookups read the entry's page alone.
      expect(tc.store.take()).toEqual(round === 0 ? [...buckets.flatMap((b) => ['evidence-index.json', b]), page] : [page]);
    }
    expect(built(tc)).toEqual([]);
  });

  it(`more runs than svc's cache of 16 indexes held (${RUNS} searched): a miss reads at most one small bucket per run, and once the buckets are kept, nothing`, async () => {
    await tc.get(`/fedramp/evidence/${'0'.repeat(64)}`);
    tc.store.take();
    for (let round = 0; round < 5; round++) {
      const hex = require('node:crypto').createHash('sha256').update(`miss ${round}`).digest('hex') as string;
      const res = await tc.get(`/fedramp/evidence/${hex}`);
      expect([res.status, JSON.parse(res.text).code]).toEqual([404, 'no-such-evidence']);
      expect(JSON.parse(res.text).detail).toContain(
        `in run ${RUNS} (the latest, and the OCR snapshot of ${dayOf(RUNS)}) or run ${RUNS - 1} (the OCR snapshot of ${dayOf(RUNS - 1)})`,
      );
      expect(tc.store.take()).toEqual([]);
    }
    // An entry only the oldest frozen run holds: found after the others' buckets, reading its one page.
    const oldest = tc.pageOf(1)[1];
    const res = await tc.get(`/fedramp/evidence/${tc.hexOf(oldest)}`);
    expect([res.status, JSON.parse(res.text).content_hash]).toEqual([200, oldest.content_hash]);
    expect(tc.store.take()).toEqual(['evidence.000000.json']);
    expect(built(tc)).toEqual([]);
  });

  it('an index bucket or header changed outside svc is 422 run-store-tampered, naming the file; the hash chain covers the index', async () => {
    for (const name of ['evidence-index.0000.bin', 'evidence-index.json']) {
      const documents = tc.at('.svc', 'store', 'documents', tc.idOf(RUNS - 3));
      const file = storedDocumentFile(documents, name);
      const original = readStoredDocument(documents, name);
      const changed = Buffer.from(original);
      changed[changed.length - 2] ^= 1;
      writeStoredDocument(documents, name, changed);
      try {
        // A fresh svc-api reads the header anew (the one serving has it already).
        const fresh = trustCenterOver(tc);
        await fresh.start();
        const res = await fresh.get(`/fedramp/evidence/${'1'.repeat(64)}`);
        expect(res.status).toBe(422);
        expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        expect(JSON.parse(res.text)).toEqual({
          type: 'urn:svc:problem:run-store-tampered',
          code: 'run-store-tampered',
          title: 'Unprocessable Content',
          status: 422,
          // An agency's principal reads the run store's path as [run store] (paths go to operators and the log only).
          detail: `${file.replace(tc.at('.svc', 'store'), '[run store]')}: the document ${name} no longer matches the SHA-256 its run's link in the hash chain names; the store was modified outside svc. Restore it from backup`,
          instance: `/fedramp/evidence/${'1'.repeat(64)}`,
          request_id: expect.any(String),
        });
        await fresh.stop();
      } finally {
        writeStoredDocument(documents, name, original);
      }
    }
  });
});

/** Another svc-api over the same work folder and store (its own process state). */
function trustCenterOver(tc: TrustCenter) {
  const store = new WatchedStore({ dir: tc.at('.svc', 'store') });
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  return {
    async start() {
      const config = readApiConfig({ port: 0, auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1', '::1'] } } }, 'test-api.json', tc.work);
      api = await startApi(config, {
        env: { ...process.env, SVC_HOME: tc.at('.svc'), SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '' },
        cwd: tc.work,
        logger: capturingLogger().logger,
        overrides: (c) => c.register(RUN_STORE, { useValue: store }),
      });
    },
    async get(path: string) {
      const res = await fetch(`${api!.url}${path}`, { headers: AGENCY });
      return { status: res.status, headers: res.headers, text: await res.text() };
    },
    stop: () => api!.close(),
  };
}

describe('svc-api trust center: runs recorded before the stored index still resolve, each indexed once (the built svc-api on a real socket)', () => {
  let tc: TrustCenter;

  beforeAll(async () => {
    tc = trustCenter('svc-trust-preindex-');
    for (const n of [1, 2, 3]) await tc.recordBeforeIndex(n, dayOf(n));
    tc.recordAndFreeze(4, dayOf(4));
    await tc.start();
  }, 120_000);
  afterAll(() => tc.close());

  it('builds the index of each such run once, from its pages, says so in the server log once, then reads it like the others', async () => {
    expect([1, 2, 3].map((n) => tc.documentsOf(n).some((d) => d.name.startsWith('evidence-index')))).toEqual([false, false, false]);
    expect(tc.documentsOf(4).some((d) => d.name === 'evidence-index.json')).toBe(true);
    const own = (n: number) => tc.pageOf(n)[n % 50];
    const answers = await Promise.all(
      [1, 2, 3, 4].flatMap((n) => [tc.get(`/fedramp/evidence/${tc.hexOf(own(n))}`), tc.get(`/fedramp/evidence/${'2'.repeat(64)}`)]),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 404, 200, 404, 200, 404, 200, 404]);
    expect([1, 2, 3, 4].map((_n, i) => JSON.parse(answers[2 * i].text).content_hash)).toEqual([1, 2, 3, 4].map((n) => own(n).content_hash));
    const logged = () => built(tc).map((l) => [(l.run as { seq: number }).seq, l.entries, l.level]);
    expect(logged().sort()).toEqual([
      [1, 60, 30],
      [2, 60, 30],
      [3, 60, 30],
    ]);
    tc.store.take();
    for (let round = 0; round < 3; round++) {
      for (const n of [1, 2, 3, 4]) expect((await tc.get(`/fedramp/evidence/${tc.hexOf(own(n))}`)).status).toBe(200);
      expect((await tc.get(`/fedramp/evidence/${'3'.repeat(64)}`)).status).toBe(404);
    }
    const opened = tc.store.take();
    expect(opened.filter((n) => n === 'evidence.index.json' || n === 'evidence-index.json')).toEqual([]);
    expect(logged()).toHaveLength(3);
  });
});

describe('svc-api trust center: ?snapshot= does bounded work (the built svc-api on a real socket)', () => {
  const SNAPSHOTS = 6;
  let tc: TrustCenter;
  const sdr = (n: number, format: 'json' | 'html' = 'json') =>
    tc.get(`/fedramp/sdr?snapshot=${dayOf(n)}`, format === 'html' ? { ...AUDITOR, Accept: 'text/html' } : AUDITOR);

  beforeAll(() => {
    tc = trustCenter('svc-trust-snapshots-');
    for (let n = 1; n <= SNAPSHOTS; n++) tc.recordAndFreeze(n, dayOf(n));
  }, 120_000);
  afterAll(() => tc.close());

  it('builds one snapshot document at a time, each representation once however many ask at once; a second round is answered from what was kept', async () => {
    const api = await tc.start();
    try {
      tc.store.held = true;
      tc.store.take();
      // The JSON and the page of six snapshots' SDRs, three requests each, all at once.
      const asked = [1, 2, 3].flatMap(() => Array.from({ length: SNAPSHOTS }, (_, i) => [sdr(i + 1), sdr(i + 1, 'html')]).flat());
      await until(() => tc.store.atGate > 0, 'the first build to read a bundle');
      // However long the gate holds it, no second build starts beside the first.
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(tc.store.atGate).toBe(1);
      }
      tc.store.release();
      const first = await Promise.all(asked);
      expect(first.map((r) => r.status)).toEqual(asked.map(() => 200));
      // The same bytes to everyone who asked for one representation.
      const bodies = new Map<string, Set<string>>();
      first.forEach((r, i) => bodies.set(String(i % (2 * SNAPSHOTS)), (bodies.get(String(i % (2 * SNAPSHOTS))) ?? new Set()).add(r.text)));
      expect([...bodies.values()].map((s) => s.size)).toEqual(Array.from({ length: 2 * SNAPSHOTS }, () => 1));
      expect(JSON.parse(first[0].text).metadata).toBeDefined();
      const firstReads = tc.store.take().filter((n) => n === BUNDLE).length;
      expect(firstReads).toBeGreaterThan(0);
      // Asked again, more snapshots than the four builders svc kept: nothing is read.
      const again = await Promise.all(Array.from({ length: SNAPSHOTS }, (_, i) => [sdr(i + 1), sdr(i + 1, 'html')]).flat());
      expect(again.map((r) => r.text)).toEqual(first.slice(0, 2 * SNAPSHOTS).map((r) => r.text));
      expect(tc.store.take()).toEqual([]);
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      tc.store.release();
    }
  });

  it('past the queue: 503 problem+json busy with Retry-After, at once; those accepted are answered, and the refused one later', async () => {
    const fresh = trustCenterOverWithLimits(tc, { builds: 1, waiting: 1 });
    await fresh.start();
    try {
      fresh.store.held = true;
      const first = fresh.get(`/fedramp/sdr?snapshot=${dayOf(1)}`);
      await until(() => fresh.store.atGate > 0, 'the first build to read a bundle');
      // One may queue; of three more snapshots' SDRs asked for at once, one waits and two are refused at once.
      const refused: { status: number; headers: Headers; text: string }[] = [];
      const more = [2, 3, 4].map((n) => fresh.get(`/fedramp/sdr?snapshot=${dayOf(n)}`).then((r) => (r.status === 503 && refused.push(r), r)));
      await until(() => refused.length === 2, 'two refusals');
      for (const r of refused) {
        expect(r.headers.get('retry-after')).toBe('10');
        expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        expect(JSON.parse(r.text)).toEqual({
          type: 'urn:svc:problem:busy',
          code: 'busy',
          title: 'Service Unavailable',
          status: 503,
          detail: 'the server is building documents of OCR snapshots (1 at a time, 1 more waiting, the most it queues); retry after the Retry-After seconds',
          instance: '/fedramp/sdr',
          request_id: expect.any(String),
        });
      }
      // A request for a representation already under way shares it: never refused.
      const shared = fresh.get(`/fedramp/sdr?snapshot=${dayOf(1)}`);
      fresh.store.release();
      expect((await Promise.all([first, shared])).map((r) => r.status)).toEqual([200, 200]);
      expect((await Promise.all(more)).map((r) => r.status).sort()).toEqual([200, 503, 503]);
      // Room again: what was refused is answered.
      for (const n of [2, 3, 4]) expect((await fresh.get(`/fedramp/sdr?snapshot=${dayOf(n)}`)).status).toBe(200);
    } finally {
      fresh.store.release();
      await fresh.stop();
    }
  });
});

/** Another svc-api over the trust center's store with its own watched store and snapshot limits. */
function trustCenterOverWithLimits(tc: TrustCenter, limits: Record<string, number>) {
  const store = new WatchedStore({ dir: tc.at('.svc', 'store') });
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  return {
    store,
    async start() {
      const config = readApiConfig(
        { port: 0, auth: { proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1', '::1'] } }, roles: { auditor: ['alice@SVC.TEST'] } },
        'test-api.json',
        tc.work,
      );
      api = await startApi(config, {
        env: { ...process.env, SVC_HOME: tc.at('.svc'), SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '' },
        cwd: tc.work,
        logger: capturingLogger().logger,
        overrides: (c) => {
          c.register(RUN_STORE, { useValue: store });
          c.register(SNAPSHOT_LIMITS, { useValue: limits });
        },
      });
    },
    async get(path: string) {
      const res = await fetch(`${api!.url}${path}`, { headers: AUDITOR });
      return { status: res.status, headers: res.headers, text: await res.text() };
    },
    stop: () => api!.close(),
  };
}
