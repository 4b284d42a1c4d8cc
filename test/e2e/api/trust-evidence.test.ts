import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import request from 'supertest';
import { LIST_PAGE_SIZE } from '../../../src/domain/paging/paged-list';
import { FileRunStore } from '../../../src/infrastructure/store/file-run-store';
import { buildApi } from '../../../src/interfaces/http/server';
import { RUN_STORE } from '../../../src/ports/run-store';
import { capturingLogger, openApiChecker, proxyConfig } from '../../support/api';
import { FEDRAMP_SCHEMAS } from '../../support/fedramp-schemas';
import { svc } from '../../support/run-svc';
import { prowlerReport as report, TRUST_PROFILE as PROFILE } from '../../support/trust-center';

const AUDITOR = { 'X-Forwarded-User': 'alice@SVC.TEST' };
const OPERATOR = { 'X-Forwarded-User': 'bob@SVC.TEST' };
const NOBODY = { 'X-Forwarded-User': 'carol@SVC.TEST' };
/** An agency's user, recognized by the proxy-asserted domain (TRUST_PROFILE). */
const AGENCY = { 'X-Forwarded-User': 'dana@examples.gov' };

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest();
const etagOf = (bytes: Buffer | string) => `"${sha256(bytes).toString('hex')}"`;
const digestOf = (bytes: Buffer | string) => `sha-256=:${sha256(bytes).toString('base64')}:`;
/** The trust center rechecks the store at most once a second. */
const afterRecheck = () => new Promise((resolve) => setTimeout(resolve, 1100));
const BASE = `${PROFILE.evidence_base_uri}/evidence/`;

type Entry = Record<string, unknown>;

/** The file store, noting each document opened (the API reads the store through it). */
class ReadNotingStore extends FileRunStore {
  readonly opened: string[] = [];

  override openDocument(key: string | number, name: string) {
    this.opened.push(name);
    return super.openDocument(key, name);
  }
}

const { generate } = require('../../../scripts/bench/generate-report.js') as { generate: (n: number, file: string) => number };

describe("svc-api trust center: GET /fedramp/evidence/{sha256}, the SDR's evidence links (supertest, trusted proxy on loopback)", () => {
  let work: string;
  let api: ReturnType<typeof buildApi>;
  let store: ReadNotingStore;
  let conforms: ReturnType<typeof openApiChecker>;
  const at = (...parts: string[]) => join(work, ...parts);
  const run = (args: string[]) => {
    const r = svc(args, { cwd: work, env: { SVC_HOME: at('.svc') } });
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
    return r;
  };
  const get = (path: string, headers: Record<string, string> = AGENCY) => request(api.handler).get(path).set(headers);
  /** The evidence links of the SDR the trust center serves now. */
  const sdrLinks = async (): Promise<string[]> => {
    const sdr = await get('/fedramp/sdr');
    expect(sdr.status).toBe(200);
    const links = (sdr.body.keySecurityIndicators as { ksiEvidence: { evidenceLocation: string }[] }[]).flatMap((k) =>
      k.ksiEvidence.map((e) => e.evidenceLocation),
    );
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => l.startsWith(BASE))).toBe(true);
    return links;
  };
  const pathOf = (link: string) => new URL(link).pathname;
  const hexOf = (link: string) => link.slice(BASE.length);
  const hashOf = (entry: Entry) => (entry.content_hash as string).slice('sha256:'.length);
  /** The entries of run `seq`'s stored evidence bundle, in the run's order. */
  const bundleOf = async (seq: number): Promise<Entry[]> => {
    const opened = await new FileRunStore({ dir: at('.svc', 'store') }).openDocument(seq, 'evidence-bundle.json');
    const parts: Buffer[] = [];
    for await (const chunk of opened!.chunks) parts.push(Buffer.from(chunk));
    return (JSON.parse(Buffer.concat(parts).toString('utf8')) as { entries: Entry[] }).entries;
  };
  /** The same, by content hash. */
  const bundleEntries = async (seq: number): Promise<Map<string, Entry>> => new Map((await bundleOf(seq)).map((e) => [hashOf(e), e]));
  /** GET a link: 200, the entry exactly as recorded (canonical JSON), its validators, and 304 on If-None-Match. */
  const resolves = async (link: string, entry: Entry) => {
    const res = await get(pathOf(link));
    expect([link, res.status]).toEqual([link, 200]);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe(canonicalize(entry));
    expect(res.headers.etag).toBe(etagOf(res.text));
    expect(res.headers['content-digest']).toBe(digestOf(res.text));
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const again = await get(pathOf(link)).set('If-None-Match', res.headers.etag);
    expect([again.status, again.text]).toEqual([304, '']);
    return res;
  };
  const links: Record<string, string[]> = {};

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-trust-evidence-'));
    writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
    writeFileSync(at('october.json'), JSON.stringify(report('2026-10-01', 'PASS', [])));
    writeFileSync(at('november.json'), JSON.stringify(report('2026-11-02', 'FAIL', ['iam_root_mfa_enabled'])));
    const december = report('2026-12-02', 'PASS', []);
    writeFileSync(
      at('december.json'),
      JSON.stringify({ ...december, results: [{ ...december.results[0], checks: [{ id: 'iam_root_hardware_mfa_enabled', status: 'PASS' }] }] }),
    );
    // The benchmarks' generator: every catalog KSI, then ids no KSI has (in the SDR only the first have links).
    generate(2 * LIST_PAGE_SIZE + 600, at('large.json'));
    // The same source as the months before (docs/conmon.md, "Sources"): the large run replaces December's.
    writeFileSync(
      at('large.json'),
      JSON.stringify({ ...JSON.parse(readFileSync(at('large.json'), 'utf8')), generated_at: '2026-12-15T00:00:00Z', source: december.source }),
    );
    store = new ReadNotingStore({ dir: at('.svc', 'store') });
    const config = proxyConfig({ roles: { auditor: ['alice@SVC.TEST'], operator: ['bob@SVC.TEST'] } });
    api = buildApi(config, {
      env: { ...process.env, SVC_HOME: at('.svc'), SVC_STORE: '', SVC_SIGNING_KEY: '', SVC_CONFIG: '' },
      cwd: work,
      logger: capturingLogger().logger,
      overrides: (c) => c.register(RUN_STORE, { useValue: store }),
    });
    conforms = openApiChecker(api.openapi);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('before the first run: 404 no-run-recorded', async () => {
    const res = await get(`/fedramp/evidence/${'a'.repeat(64)}`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual({
      type: 'urn:svc:problem:no-run-recorded',
      code: 'no-run-recorded',
      title: 'Not Found',
      status: 404,
      detail: 'no run is recorded yet, so there is no evidence entry; the provider records one with svc conmon process <report>',
      instance: `/fedramp/evidence/${'a'.repeat(64)}`,
      request_id: expect.any(String),
    });
  });

  it('every evidenceLocation of GET /fedramp/sdr resolves: 200, the entry of the stored evidence bundle, ETag, Content-Digest, 304', async () => {
    run(['conmon', 'process', 'october.json']);
    await afterRecheck();
    links.october = await sdrLinks();
    const entries = await bundleEntries(1);
    for (const link of links.october) {
      const entry = entries.get(hexOf(link))!;
      const res = await resolves(link, entry);
      expect(conforms('/fedramp/evidence/{sha256}', 'get', 200, res.body)).toEqual([]);
      // The link checks itself: the content hash is the SHA-256 of the canonical entry without content_hash and observed_at.
      const { content_hash: _hash, observed_at: _at, ...hashed } = res.body;
      expect(sha256(canonicalize(hashed) as string).toString('hex')).toBe(hexOf(link));
    }
    // The auditor reads the same entry, and HEAD gives the headers alone.
    expect((await get(pathOf(links.october[0]), AUDITOR)).status).toBe(200);
    const head = await request(api.handler).head(pathOf(links.october[0])).set(AGENCY);
    expect([head.status, head.headers['content-length'], head.text]).toEqual([
      200,
      String(Buffer.byteLength(canonicalize(entries.get(hexOf(links.october[0]))) as string)),
      undefined,
    ]);
  });

  it('an entry only a run that is neither the latest nor frozen by an OCR holds is 404 no-such-evidence', async () => {
    run(['conmon', 'process', 'november.json']);
    await afterRecheck();
    links.november = await sdrLinks();
    const entries = await bundleEntries(2);
    for (const link of links.november) await resolves(link, entries.get(hexOf(link))!);
    const old = links.october[0];
    const res = await get(pathOf(old));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      type: 'urn:svc:problem:no-such-evidence',
      code: 'no-such-evidence',
      title: 'Not Found',
      status: 404,
      detail: `no evidence entry has content hash ${hexOf(old)} in run 2 (the latest): evidence links resolve to the evidence of the latest run of every source and of the runs that recorded OCRs froze`,
      instance: pathOf(old),
      request_id: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/stack|\.ts:\d/);
  });

  it("after svc fedramp ocr freezes run 2 and a newer run is processed, run 2's evidence still resolves, byte for byte", async () => {
    const before = await Promise.all(links.november.map((link) => get(pathOf(link))));
    run(['fedramp', 'ocr', '--to', '2026-11-30', '--now', '2026-12-01T00:00:00Z']);
    run(['conmon', 'process', 'december.json']);
    await afterRecheck();
    links.december = await sdrLinks();
    expect(links.december.some((l) => links.november.includes(l))).toBe(false);
    const entries = await bundleEntries(3);
    for (const link of links.december) await resolves(link, entries.get(hexOf(link))!);
    for (const [i, link] of links.november.entries()) {
      const res = await get(pathOf(link));
      expect([res.status, res.text, res.headers.etag]).toEqual([200, before[i].text, before[i].headers.etag]);
    }
    const old = await get(pathOf(links.october[0]));
    expect([old.status, old.body.detail]).toEqual([
      404,
      `no evidence entry has content hash ${hexOf(links.october[0])} in run 3 (the latest) or run 2 (the OCR snapshot of 2026-11-30): evidence links resolve to the evidence of the latest run of every source and of the runs that recorded OCRs froze`,
    ]);
  });

  describe(`a run of ${2 * LIST_PAGE_SIZE + 600} results, over three evidence pages`, () => {
    /** The run's entries in list order: entry i is on page floor(i / LIST_PAGE_SIZE). */
    let entries: Entry[];
    const pathAt = (i: number) => `/fedramp/evidence/${hashOf(entries[i])}`;
    const evidenceOpened = (names: string[]) => names.filter((name) => name.startsWith('evidence.'));

    beforeAll(async () => {
      run(['conmon', 'process', 'large.json']);
      await afterRecheck();
      entries = await bundleOf(4);
    });

    it('reads the index stored with the run: its header and bucket once, then per lookup the one page the entry is on; never a pass over the pages', async () => {
      expect(entries).toHaveLength(2 * LIST_PAGE_SIZE + 600);
      const spread = [0, 1, 999, 1000, 1001, 1999, 2000, 2599];
      const page = (p: number) => `evidence.00000${p}.json`;
      store.opened.length = 0;
      const first = await Promise.all(spread.map((i) => get(pathAt(i))));
      expect(first.map((r) => r.status)).toEqual(spread.map(() => 200));
      expect(first.map((r) => r.text)).toEqual(spread.map((i) => canonicalize(entries[i])));
      const opened = store.opened.splice(0);
      expect(opened.filter((n) => n === 'evidence-index.json')).toHaveLength(1);
      expect(opened.filter((n) => n === 'evidence-index.0000.bin')).toHaveLength(1);
      expect(evidenceOpened(opened).sort()).toEqual(spread.map((i) => page(Math.floor(i / LIST_PAGE_SIZE))).sort());
      for (let round = 0; round < 3; round++) {
        for (const i of spread) expect((await get(pathAt(i))).status).toBe(200);
      }
      const again = store.opened.splice(0);
      expect(again.filter((n) => n.startsWith('evidence-index') || n === 'evidence.index.json')).toHaveLength(0);
      expect(evidenceOpened(again)).toEqual([0, 1, 2].flatMap(() => spread.map((i) => page(Math.floor(i / LIST_PAGE_SIZE)))));
    });

    it("resolves entries on every page, and every evidence link of the run's SDR", async () => {
      for (let i = 0; i < entries.length; i += 37) await resolves(`${BASE}${hashOf(entries[i])}`, entries[i]);
      const byHash = new Map(entries.map((e) => [hashOf(e), e]));
      const links = await sdrLinks();
      for (const link of links) await resolves(link, byHash.get(hexOf(link))!);
    });

    it("the OCR snapshot's run still resolves; the run before, neither latest nor frozen, no longer does", async () => {
      for (const link of links.november) expect((await get(pathOf(link))).status).toBe(200);
      const res = await get(pathOf(links.december[0]));
      expect([res.status, res.body.code]).toEqual([404, 'no-such-evidence']);
      expect(res.body.detail).toContain('in run 4 (the latest) or run 2 (the OCR snapshot of 2026-11-30):');
    });
  });

  describe('requests', () => {
    it.each([
      ['not hex', 'not-a-hash'],
      ['63 digits', 'a'.repeat(63)],
      ['65 digits', 'a'.repeat(65)],
      ['upper case', 'A'.repeat(64)],
      ['the sha256: form', `sha256:${'a'.repeat(64)}`],
    ])('a hash that is not 64 lower-case hex digits (%s) is 400 problem+json naming the pattern', async (_what, hash) => {
      const res = await get(`/fedramp/evidence/${encodeURIComponent(hash)}`);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.body).toMatchObject({
        code: 'invalid-request',
        detail: 'path parameter sha256 must match pattern "^[0-9a-f]{64}$"; see /openapi.json for this route',
      });
    });

    it('401 without credentials, 403 without a role and for operator', async () => {
      const path = pathOf(links.november[0]);
      const anonymous = await request(api.handler).get(path);
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 'authentication-required']);
      expect((await get(path, NOBODY)).status).toBe(403);
      const operator = await get(path, OPERATOR);
      expect([operator.status, operator.body.detail]).toEqual([
        403,
        "bob@SVC.TEST does not hold the agency or auditor role; an administrator grants it under roles in the API config, or recognizes the principal's agency by its realm, certificate issuer or domain (fedramp.agencies in svc.config.json)",
      ]);
    });

    it('is in the OpenAPI document as getFedrampEvidence, module trust, with its 200 and 304', () => {
      const op = api.openapi.paths['/fedramp/evidence/{sha256}'].get as { responses: Record<string, unknown>; parameters: unknown[] };
      expect(op).toMatchObject({ operationId: 'getFedrampEvidence', tags: ['trust'] });
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '304', '400', '401', '403', '404']));
      expect(op.parameters).toEqual([
        expect.objectContaining({ name: 'sha256', in: 'path', required: true, schema: expect.objectContaining({ pattern: '^[0-9a-f]{64}$' }) }),
      ]);
    });
  });
});
