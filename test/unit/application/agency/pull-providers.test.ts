import { IntegrityError } from '../../../../src/domain/errors';
import { createHash } from 'node:crypto';
import {
  EVIDENCE_SAMPLE,
  PULL_ORIGIN,
  PullProviders,
  evidenceLinks,
  evidenceSample,
  pullSummary,
  selectProviders,
  urlOf,
  type PullProvidersInput,
} from '../../../../src/application/agency/pull-providers';
import { DEFAULT_PULL_SETTINGS, type AgencyProvider, type PullSettings } from '../../../../src/domain/agency/providers';
import { PULLED_DOCUMENT_NAMES, type AgencyPull, type PulledDocumentName, type TlsIdentity } from '../../../../src/domain/agency/pulled-documents';
import { RUN_SETTINGS } from '../../../../src/ports/run-settings';
import { TrustCenterFailure } from '../../../../src/ports/trust-center-client';
import { JSON_HEADERS, SCRIPTED_TLS, type ScriptedTrustCenterClient } from '../../../fakes/scripted-trust-center-client';
import { TEST_SETTINGS } from '../../../support/builders';
import { unitContainer, type UnitDoubles } from '../../../support/unit-container';
import { ACME, BASE, PULL_1, PULL_2 } from './agency-fixtures';

const FILE = '/work/svc.config.json';
const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const etagOf = (text: string) => `"${sha(text).slice(0, 16)}"`;
const PUBLIC = {
  serviceIdentification: { fedRampPackageId: 'FR2611250001', serviceName: 'Acme Cloud' },
  trustCenter: { certificationClass: 'B' },
};
const OTHER_TLS: TlsIdentity = { ...SCRIPTED_TLS, fingerprint256: 'BB:'.repeat(31) + 'BB', issuer: 'CN=Other CA' };

/**
 * A trust center at `base` serving `documents` as svc-api does: JSON with nosniff, CORS on the public information, an
 * ETag of the bytes and a 304 to If-None-Match with it, every answer over `tls`.
 */
function serve(
  client: ScriptedTrustCenterClient,
  base: string,
  documents: Partial<Record<PulledDocumentName, unknown>>,
  tls: TlsIdentity = SCRIPTED_TLS,
): void {
  for (const [name, json] of Object.entries(documents) as [PulledDocumentName, unknown][]) {
    const body = JSON.stringify(json);
    const headers = { ...JSON_HEADERS, etag: etagOf(body), ...(name === 'public' ? { 'access-control-allow-origin': '*' } : {}) };
    client.script(`${base}/fedramp/${name}`, (request) =>
      request.etag === headers.etag ? { status: 304, headers: { etag: headers.etag }, tls } : { body, headers, tls },
    );
  }
}

interface World extends UnitDoubles {
  pull: (input?: PullProvidersInput) => ReturnType<PullProviders['execute']>;
  at: (iso: string) => void;
}

function world(providers: AgencyProvider[] = [ACME], options: { pull?: Partial<PullSettings>; agency?: string; sinks?: string[] } = {}): World {
  const doubles = unitContainer({
    now: '2026-10-01T00:00:00Z',
    agency: { providers, ...(options.pull === undefined ? {} : { pull: options.pull }), ...(options.agency === undefined ? {} : { name: options.agency }) },
  });
  if (options.sinks !== undefined) doubles.container.register(RUN_SETTINGS, { useValue: { ...TEST_SETTINGS, conmon: { sinks: options.sinks } } });
  return {
    ...doubles,
    pull: (input) => doubles.container.resolve(PullProviders).execute(input),
    at: (iso) => void (doubles.clock.time = new Date(iso)),
  };
}

const outcomes = (pull: AgencyPull) => Object.fromEntries(pull.documents.map((d) => [d.name, d.outcome]));
const doc = (pull: AgencyPull, name: PulledDocumentName) => pull.documents.find((d) => d.name === name)!;

describe('PullProviders (svc agency pull)', () => {
  it('first pull: the public information first with an Origin, then every other document without validators, each stored with its delivery', async () => {
    const w = world();
    serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
    const lines: string[] = [];
    const { pulls, events, deliveries } = await w.pull({ onProvider: (_pull, line) => lines.push(line) });

    expect(w.trustCenters.requests[0]).toEqual({ provider: 'acme', url: `${BASE}/fedramp/public`, origin: PULL_ORIGIN });
    expect(PULL_ORIGIN).toBe('https://agency-grc.invalid');
    expect(w.trustCenters.requests.slice(1, 11)).toEqual(
      PULLED_DOCUMENT_NAMES.filter((n) => n !== 'public').map((name) => ({ provider: 'acme', url: urlOf(ACME, name) })),
    );
    expect(w.trustCenters.opened).toEqual([{ provider: 'acme', settings: DEFAULT_PULL_SETTINGS }]);
    expect(w.trustCenters.closed).toEqual(['acme']);

    const [pull] = pulls;
    expect(outcomes(pull!)).toEqual({
      public: 'fetched',
      cpo: 'fetched',
      sdr: 'fetched',
      ocr: 'fetched',
      vdr: 'fetched',
      avi: 'fetched',
      history: 'absent',
      scn: 'fetched',
      incidents: 'fetched',
      metrics: 'absent',
      snapshots: 'absent',
    });
    const body = JSON.stringify(PUBLIC);
    expect(doc(pull!, 'public')).toEqual({
      name: 'public',
      url: `${BASE}/fedramp/public`,
      outcome: 'fetched',
      status: 200,
      attempts: 1,
      stored: {
        sha256: sha(body),
        bytes: Buffer.byteLength(body),
        url: `${BASE}/fedramp/public`,
        fetchedAt: '2026-10-01T00:00:00.000Z',
        etag: etagOf(body),
        delivery: { contentType: 'application/json', nosniff: true, cors: '*' },
      },
    });
    expect(doc(pull!, 'history')).toEqual({ name: 'history', url: `${BASE}/fedramp/history`, outcome: 'absent', status: 404, attempts: 1 });
    expect(doc(pull!, 'vdr').stored!.delivery).toEqual({ contentType: 'application/json', nosniff: true });
    expect(new TextDecoder().decode(await w.agencyStore.readDocument(sha(body)))).toBe(body);
    expect(pull).toMatchObject({ provider: 'acme', seq: 1, url: BASE, tls: SCRIPTED_TLS, outcome: 'ok', started: '2026-10-01T00:00:00.000Z' });
    expect(pull).not.toHaveProperty('error');
    // Verified at the pull's time by the real VerifyPull (FixedSchemaValidator: every document valid under 2026-10-08).
    expect(pull!.schemas.map((s) => [s.document, s.generation, s.current])).toEqual([
      ['cpo', '2026-10-08', true],
      ['sdr', '2026-10-08', true],
      ['ocr', '2026-10-08', true],
      ['vdr', '2026-10-08', true],
      ['avi', '2026-10-08', true],
      ['scn', '2026-10-08', true],
      ['incidents', '2026-10-08', true],
    ]);
    expect(await w.agencyStore.pulls('acme')).toEqual([pull]);
    expect(lines).toEqual(['acme: pull 1, 11 documents (8 fetched, 3 absent) in 0.0 s']);
    expect([events, deliveries]).toEqual([[], []]);
  });

  it('second pull: If-None-Match with each held ETag; a 304 is unchanged and carries the stored bytes of the first fetch', async () => {
    const w = world();
    serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
    const [first] = (await w.pull()).pulls;
    w.at('2026-10-02T00:00:00Z');
    serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1, ocr: PULL_2.ocr });
    w.trustCenters.requests.length = 0;
    const lines: string[] = [];
    const [second] = (await w.pull({ onProvider: (_p, line) => lines.push(line) })).pulls;

    const etags = Object.fromEntries(w.trustCenters.requests.map((r) => [r.url.slice(BASE.length), r.etag]));
    expect(etags).toEqual({
      '/fedramp/public': doc(first!, 'public').stored!.etag,
      '/fedramp/cpo': doc(first!, 'cpo').stored!.etag,
      '/fedramp/sdr': doc(first!, 'sdr').stored!.etag,
      '/fedramp/ocr': doc(first!, 'ocr').stored!.etag,
      '/fedramp/vdr': doc(first!, 'vdr').stored!.etag,
      '/fedramp/avi': doc(first!, 'avi').stored!.etag,
      '/fedramp/history': undefined,
      '/fedramp/scn': doc(first!, 'scn').stored!.etag,
      '/fedramp/incidents': doc(first!, 'incidents').stored!.etag,
      '/fedramp/metrics': undefined,
      '/fedramp/snapshots': undefined,
    });
    expect(doc(second!, 'cpo')).toEqual({
      name: 'cpo',
      url: `${BASE}/fedramp/cpo`,
      outcome: 'unchanged',
      status: 304,
      attempts: 1,
      stored: doc(first!, 'cpo').stored,
    });
    expect(doc(second!, 'ocr').outcome).toBe('fetched');
    expect(doc(second!, 'ocr').stored!.fetchedAt).toBe('2026-10-02T00:00:00.000Z');
    expect(doc(second!, 'cpo').stored!.fetchedAt).toBe('2026-10-01T00:00:00.000Z');
    expect(second!.seq).toBe(2);
    expect(lines).toEqual(['acme: pull 2, 11 documents (1 fetched, 7 unchanged, 3 absent) in 0.0 s']);
    // The verdicts of unchanged bytes are kept, not judged again.
    expect(second!.schemas.filter((s) => s.document !== 'ocr')).toEqual(first!.schemas.filter((s) => s.document !== 'ocr'));
    // What status and diff read is kept with each pull: the SDR's statuses from the first pull's JSON, carried by the
    // second for the same bytes, the new OCR's period from the JSON fetched.
    expect(first!.facts).toEqual({ ocrPeriodEnd: '2026-09-30', ksiStatuses: { 'KSI-IAM-MFA': 'Partially Implemented' } });
    expect(second!.facts).toEqual({ ocrPeriodEnd: '2026-12-31', ksiStatuses: { 'KSI-IAM-MFA': 'Partially Implemented' } });
  });

  it('facts of bytes held from a record that kept none are read from the store once; the same bytes later are not read again', async () => {
    const w = world();
    serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
    const [first] = (await w.pull()).pulls;
    // A record written before svc kept facts.
    const { facts: _kept, ...legacy } = first!;
    w.agencyStore.pullsByProvider.set('acme', [legacy]);
    const sdr = doc(first!, 'sdr').stored!.sha256;
    const reads: string[] = [];
    const read = w.agencyStore.readDocument.bind(w.agencyStore);
    w.agencyStore.readDocument = (sha256) => (reads.push(sha256), read(sha256));
    const [second] = (await w.pull()).pulls;
    expect(second!.facts).toEqual(first!.facts);
    expect(reads.filter((r) => r === sdr)).toHaveLength(1);
    reads.length = 0;
    await w.pull();
    expect(reads.filter((r) => r === sdr)).toEqual([]);
  });

  it('a 304 to a request without If-None-Match is a failure, not a document', async () => {
    const w = world();
    w.trustCenters.script(`${BASE}/fedramp/public`, { json: PUBLIC, tls: SCRIPTED_TLS });
    w.trustCenters.script(`${BASE}/fedramp/cpo`, { status: 304 });
    const [pull] = (await w.pull()).pulls;
    expect(doc(pull!, 'cpo')).toEqual({
      name: 'cpo',
      url: `${BASE}/fedramp/cpo`,
      outcome: 'failed',
      status: 304,
      attempts: 1,
      error: `${BASE}/fedramp/cpo: 304 Not Modified to a request without If-None-Match`,
    });
    expect(pull!.outcome).toBe('partial');
  });

  describe('what a trust center answers besides 200', () => {
    async function afterGoodPull(answers: Record<string, Parameters<ScriptedTrustCenterClient['script']>[1]>) {
      const w = world();
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
      const [first] = (await w.pull()).pulls;
      w.at('2026-10-02T00:00:00Z');
      for (const [name, script] of Object.entries(answers)) w.trustCenters.script(`${BASE}/fedramp/${name}`, script);
      const [second] = (await w.pull()).pulls;
      return { w, first: first!, second: second! };
    }

    it("401 and 403: denied, with the problem's detail, else its title, else the status's words; the bytes held carried", async () => {
      const { first, second } = await afterGoodPull({
        vdr: { status: 403, json: { title: 'Forbidden', status: 403, detail: 'agency@EXAMPLE.GOV is not granted the VDR' } },
        avi: { status: 403, json: { title: 'Not granted' } },
        scn: { status: 401, body: 'nope' },
        incidents: { status: 403 },
      });
      expect(doc(second, 'vdr')).toEqual({
        name: 'vdr',
        url: `${BASE}/fedramp/vdr`,
        outcome: 'denied',
        status: 403,
        attempts: 1,
        error: `${BASE}/fedramp/vdr: 403 agency@EXAMPLE.GOV is not granted the VDR`,
        stored: doc(first, 'vdr').stored,
      });
      expect([doc(second, 'avi').error, doc(second, 'scn').error, doc(second, 'incidents').error]).toEqual([
        `${BASE}/fedramp/avi: 403 Not granted`,
        `${BASE}/fedramp/scn: 401 Unauthorized`,
        `${BASE}/fedramp/incidents: 403 Forbidden`,
      ]);
      // What the trust center does not grant is as it serves it: the pull is not partial.
      expect(second.outcome).toBe('ok');
    });

    it('404: absent, the bytes held carried', async () => {
      const { first, second } = await afterGoodPull({ scn: { status: 404 } });
      expect(doc(second, 'scn')).toEqual({
        name: 'scn',
        url: `${BASE}/fedramp/scn`,
        outcome: 'absent',
        status: 404,
        attempts: 1,
        stored: doc(first, 'scn').stored,
      });
    });

    it('500 after the retries: failed, the previous bytes carried forward, the pull partial and those documents stale', async () => {
      const { w, first, second } = await afterGoodPull({ vdr: { status: 500, attempts: 3, body: 'oops' } });
      expect(doc(second, 'vdr')).toEqual({
        name: 'vdr',
        url: `${BASE}/fedramp/vdr`,
        outcome: 'failed',
        status: 500,
        attempts: 3,
        error: `${BASE}/fedramp/vdr: HTTP 500`,
        stored: doc(first, 'vdr').stored,
      });
      expect(second.outcome).toBe('partial');
      expect(pullSummary(second)).toBe('acme: pull 2, 11 documents (7 unchanged, 3 absent, 1 failed) in 0.0 s');
      expect(w.agencyStore.documents.size).toBe(8);
    });

    it('not JSON, or not UTF-8: failed with why, nothing stored', async () => {
      const html = '<html>oops</html>';
      let parseError = '';
      try {
        JSON.parse(html);
      } catch (error) {
        parseError = (error as Error).message;
      }
      const { w, first, second } = await afterGoodPull({
        cpo: { body: html, headers: { 'content-type': 'text/html' } },
        sdr: { body: Uint8Array.from([0xff, 0xfe, 0x7b]) },
      });
      expect(doc(second, 'cpo')).toEqual({
        name: 'cpo',
        url: `${BASE}/fedramp/cpo`,
        outcome: 'failed',
        status: 200,
        attempts: 1,
        error: `${BASE}/fedramp/cpo: the body is not JSON (${parseError})`,
        stored: doc(first, 'cpo').stored,
      });
      expect(doc(second, 'sdr').error).toBe(`${BASE}/fedramp/sdr: the body is not UTF-8 text`);
      expect(w.agencyStore.documents.size).toBe(8);
    });

    it("a failure on the public information fails the whole pull: no other request, every document's bytes carried, the TLS identity kept", async () => {
      const w = world();
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
      const [first] = (await w.pull()).pulls;
      w.trustCenters.requests.length = 0;
      const message = `${BASE}/fedramp/public: connect ECONNREFUSED 10.0.0.7:443`;
      w.trustCenters.script(`${BASE}/fedramp/public`, new TrustCenterFailure('unreachable', message, 3));
      const lines: string[] = [];
      const [second] = (await w.pull({ onProvider: (_p, line) => lines.push(line) })).pulls;
      expect(w.trustCenters.requests.map((r) => r.url)).toEqual([`${BASE}/fedramp/public`]);
      // The documents held stay current and are judged again at the pull's time: what was wrong with them stays said.
      expect(second).toMatchObject({ seq: 2, outcome: 'failed', error: message, tls: SCRIPTED_TLS, schemas: first!.schemas, findings: first!.findings });
      expect(first!.findings.length).toBeGreaterThan(0);
      expect(second!.documents).toEqual(
        PULLED_DOCUMENT_NAMES.map((name) => ({
          name,
          url: urlOf(ACME, name),
          outcome: 'failed',
          error: message,
          attempts: 3,
          ...(doc(first!, name).stored === undefined ? {} : { stored: doc(first!, name).stored }),
        })),
      );
      expect(lines).toEqual([`acme: pull 2 failed: ${message}`]);
      expect(w.trustCenters.closed).toEqual(['acme', 'acme']);
    });

    it('a public document too large fails the pull: without its answer the TLS identity is unknown, so nothing else is asked', async () => {
      const w = world();
      serve(w.trustCenters, BASE, PULL_1);
      w.trustCenters.script(`${BASE}/fedramp/public`, new TrustCenterFailure('too-large', `${BASE}/fedramp/public: larger than 268435456 bytes`, 1));
      const [pull] = (await w.pull()).pulls;
      expect(doc(pull!, 'public')).toEqual({
        name: 'public',
        url: `${BASE}/fedramp/public`,
        outcome: 'failed',
        error: `${BASE}/fedramp/public: larger than 268435456 bytes`,
        attempts: 1,
      });
      expect([pull!.outcome, doc(pull!, 'cpo').outcome]).toEqual(['failed', 'failed']);
      expect(w.trustCenters.requests.map((r) => r.url)).toEqual([`${BASE}/fedramp/public`]);
    });

    it('a document answered with another certificate than the public information within one pull is not kept', async () => {
      const w = world();
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
      const other = { ...SCRIPTED_TLS, fingerprint256: 'EE:EE' };
      w.trustCenters.script(`${BASE}/fedramp/sdr`, { json: { keySecurityIndicators: [] }, headers: JSON_HEADERS, tls: other });
      const [pull] = (await w.pull()).pulls;
      expect(doc(pull!, 'sdr')).toEqual({
        name: 'sdr',
        url: `${BASE}/fedramp/sdr`,
        outcome: 'failed',
        status: 200,
        error: `${BASE}: answered with another TLS certificate (SHA-256 EE:EE) than the public information's (${SCRIPTED_TLS.fingerprint256}) within one pull; nothing of it is kept`,
        attempts: 1,
      });
      expect(pull!.outcome).toBe('partial');
    });

    it('no session (an unreadable key file): the pull failed, nothing asked', async () => {
      const w = world();
      w.trustCenters.failOpen('acme', new TrustCenterFailure('auth', '/keys/agency.key: cannot read the client key (EACCES)', 0));
      const [pull] = (await w.pull()).pulls;
      expect(pull).toMatchObject({ outcome: 'failed', error: '/keys/agency.key: cannot read the client key (EACCES)' });
      expect(pull!.documents.every((d) => d.outcome === 'failed' && d.attempts === 0)).toBe(true);
      expect(w.trustCenters.requests).toEqual([]);
    });
  });

  describe("the trust center's TLS identity", () => {
    async function renewed() {
      const w = world();
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
      const [first] = (await w.pull()).pulls;
      w.at('2026-10-02T00:00:00Z');
      // Another server (or a renewed certificate) serving changed documents.
      serve(w.trustCenters, BASE, { public: { ...PUBLIC, changed: true }, ...PULL_2 }, OTHER_TLS);
      w.trustCenters.requests.length = 0;
      return { w, first: first! };
    }

    it('changed: the pull fails with what changed and how to accept it, nothing fetched or stored past the public information, the old identity kept', async () => {
      const { w, first } = await renewed();
      const before = new Set(w.agencyStore.documents.keys());
      const [second] = (await w.pull()).pulls;
      const message =
        `${BASE}: the trust center's TLS identity changed (certificate SHA-256 ${SCRIPTED_TLS.fingerprint256} at pull 1, now ${OTHER_TLS.fingerprint256}, ` +
        'issued by CN=Other CA); if the provider renewed its certificate, run svc agency pull acme --accept-identity acme';
      expect(second).toMatchObject({ seq: 2, outcome: 'failed', error: message, tls: SCRIPTED_TLS, schemas: first.schemas, findings: first.findings });
      expect(second!.documents.map((d) => [d.name, d.outcome, d.error, d.stored])).toEqual(
        PULLED_DOCUMENT_NAMES.map((name) => [name, 'failed', message, doc(first, name).stored]),
      );
      expect(w.trustCenters.requests.map((r) => r.url)).toEqual([`${BASE}/fedramp/public`]);
      expect(new Set(w.agencyStore.documents.keys())).toEqual(before);
    });

    it('--accept-identity accepts the new one: the pull goes on and records it', async () => {
      const { w } = await renewed();
      const [second] = (await w.pull({ acceptIdentity: ['acme'] })).pulls;
      expect([second!.outcome, second!.tls, doc(second!, 'ocr').outcome]).toEqual(['ok', OTHER_TLS, 'fetched']);
      // And the next pull holds the new one.
      const [third] = (await w.pull()).pulls;
      expect([third!.outcome, third!.tls]).toEqual(['ok', OTHER_TLS]);
    });

    it('--accept-identity naming a provider not in the pull is a usage error', async () => {
      const w = world([ACME, { ...ACME, name: 'beta' }]);
      await expect(w.pull({ names: ['acme'], acceptIdentity: ['beta'] })).rejects.toMatchObject({
        kind: 'usage',
        code: 'agency-unknown-provider',
        message: '--accept-identity beta: not a provider of this pull',
      });
    });
  });

  it('providers at once are bounded by agency.pull.concurrency, and one failing stops none of the others', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const providers = names.map((name): AgencyProvider => ({ name, url: `https://${name}.example`, auth: { kind: 'none' } }));
    const w = world(providers, { pull: { concurrency: 2 } });
    // Every answer waits a few turns of the event loop, so the providers' pulls overlap where they can.
    for (const p of providers)
      for (const name of PULLED_DOCUMENT_NAMES)
        w.trustCenters.script(
          urlOf(p, name),
          name === 'public' && p.name === 'c'
            ? new TrustCenterFailure('timeout', `${p.url}/fedramp/public: no answer in 15000 ms`, 3)
            : name === 'public' || name === 'cpo'
              ? { json: name === 'public' ? PUBLIC : PULL_1.cpo, tls: SCRIPTED_TLS, turns: 5 }
              : { status: 404, turns: 5 },
        );
    const { pulls } = await w.pull();
    expect(w.trustCenters.maxOpen).toBe(2);
    expect(pulls.map((p) => [p.provider, p.outcome])).toEqual([
      ['a', 'ok'],
      ['b', 'ok'],
      ['c', 'failed'],
      ['d', 'ok'],
      ['e', 'ok'],
    ]);
    expect(w.trustCenters.opened.map((o) => o.provider)).toEqual(names);
  });

  it('a provider whose pull cannot be made (the store refusing its bytes) is recorded as failed for itself; the others go on', async () => {
    const providers = ['a', 'b'].map((name): AgencyProvider => ({ name, url: `https://${name}.example`, auth: { kind: 'none' } }));
    const w = world(providers);
    for (const p of providers) serve(w.trustCenters, p.url, { public: { ...PUBLIC, name: p.name } });
    const put = w.agencyStore.putDocument.bind(w.agencyStore);
    w.agencyStore.putDocument = async (bytes) => {
      if (Buffer.from(bytes).toString('utf8').includes('"name":"a"'))
        throw new IntegrityError('agency-document-corrupt', '/store/objects/ab/cd.br: the stored bytes no longer hash to abcd; pull the provider again');
      return put(bytes);
    };
    const { pulls } = await w.pull();
    expect(pulls.map((p) => [p.provider, p.seq, p.outcome, p.error])).toEqual([
      ['a', 1, 'failed', '/store/objects/ab/cd.br: the stored bytes no longer hash to abcd; pull the provider again'],
      ['b', 1, 'ok', undefined],
    ]);
    expect((await w.agencyStore.pulls('a')).map((p) => p.outcome)).toEqual(['failed']);
  });

  describe('evidence links of the SDR', () => {
    const EVIDENCE = (i: number) => `evidence ${i}`;
    const link = (i: number) => `${BASE}/fedramp/evidence/${sha(EVIDENCE(i))}`;
    const sdr = {
      ...PULL_1.sdr,
      keySecurityIndicators: [
        { ksiId: 'KSI-A', ksiEvidence: [0, 1, 2].map((i) => ({ evidenceLocation: link(i) })) },
        { ksiId: 'KSI-B', ksiEvidence: [{ evidenceLocation: 'https://elsewhere.example/evidence/1' }, { evidenceLocation: link(3) }, { note: 'no link' }] },
        { ksiId: 'KSI-C', ksiEvidence: [4, 5, 6].map((i) => ({ evidenceLocation: link(i) })) },
      ],
    };
    function evidenceWorld() {
      const w = world();
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1, sdr });
      for (let i = 0; i < 7; i++) w.trustCenters.script(link(i), { body: EVIDENCE(i), headers: { 'content-type': 'application/octet-stream' } });
      return w;
    }
    const asked = (w: World) => w.trustCenters.requests.filter((r) => r.url.includes('/fedramp/evidence/')).map((r) => r.url);

    it('evidenceLinks: every evidenceLocation with its JSON path', () => {
      expect(evidenceLinks(sdr)).toEqual([
        { url: link(0), at: '$.keySecurityIndicators[0].ksiEvidence[0].evidenceLocation' },
        { url: link(1), at: '$.keySecurityIndicators[0].ksiEvidence[1].evidenceLocation' },
        { url: link(2), at: '$.keySecurityIndicators[0].ksiEvidence[2].evidenceLocation' },
        { url: 'https://elsewhere.example/evidence/1', at: '$.keySecurityIndicators[1].ksiEvidence[0].evidenceLocation' },
        { url: link(3), at: '$.keySecurityIndicators[1].ksiEvidence[1].evidenceLocation' },
        { url: link(4), at: '$.keySecurityIndicators[2].ksiEvidence[0].evidenceLocation' },
        { url: link(5), at: '$.keySecurityIndicators[2].ksiEvidence[1].evidenceLocation' },
        { url: link(6), at: '$.keySecurityIndicators[2].ksiEvidence[2].evidenceLocation' },
      ]);
      expect(evidenceLinks({ keySecurityIndicators: {} })).toEqual([]);
      expect(evidenceLinks([])).toEqual([]);
    });

    it('evidenceSample: the first, middle and last under the base, or every one under it; all of them when three or fewer', () => {
      const at = (i: number, j: number) => `$.keySecurityIndicators[${i}].ksiEvidence[${j}].evidenceLocation`;
      expect(evidenceSample(sdr, `${BASE}/`, false)).toEqual([
        { url: link(0), at: at(0, 0) },
        { url: link(3), at: at(1, 1) },
        { url: link(6), at: at(2, 2) },
      ]);
      expect(evidenceSample(sdr, `${BASE}/`, true).map((l) => l.url)).toEqual([0, 1, 2, 3, 4, 5, 6].map(link));
      expect(evidenceSample(sdr, 'https://elsewhere.example/', false)).toEqual([{ url: 'https://elsewhere.example/evidence/1', at: at(1, 0) }]);
      expect(evidenceSample({}, `${BASE}/`, false)).toEqual([]);
    });

    it('a changed SDR: the first, middle and last link under the trust center checked, never one elsewhere', async () => {
      const w = evidenceWorld();
      const [pull] = (await w.pull()).pulls;
      expect(EVIDENCE_SAMPLE).toBe(3);
      expect(asked(w)).toEqual([link(0), link(3), link(6)]);
      expect(w.trustCenters.requests.filter((r) => r.url.startsWith('https://elsewhere.example'))).toEqual([]);
      expect(pull!.findings.filter((f) => f.rule === 'svc:evidence-links')).toEqual([]);
    });

    it('--deep: every link under the trust center; an unchanged SDR is checked again only with --deep', async () => {
      const w = evidenceWorld();
      await w.pull({ deep: true });
      expect(asked(w)).toEqual([0, 1, 2, 3, 4, 5, 6].map(link));
      w.trustCenters.requests.length = 0;
      await w.pull();
      expect(asked(w)).toEqual([]);
      await w.pull({ deep: true });
      expect(asked(w)).toEqual([0, 1, 2, 3, 4, 5, 6].map(link));
    });

    it('a link whose bytes do not hash to its SHA-256, one not found, one unreachable: each an action finding', async () => {
      const w = evidenceWorld();
      w.trustCenters.script(link(0), { body: 'tampered' });
      w.trustCenters.script(link(3), { status: 404 });
      w.trustCenters.script(link(6), new TrustCenterFailure('timeout', `${link(6)}: no answer in 15000 ms`, 3));
      const [pull] = (await w.pull()).pulls;
      expect(pull!.findings.filter((f) => f.rule === 'svc:evidence-links')).toEqual([
        {
          level: 'action',
          rule: 'svc:evidence-links',
          code: 'evidence-link-broken',
          document: 'sdr',
          at: '$.keySecurityIndicators[0].ksiEvidence[0].evidenceLocation',
          message: `${link(0)}: the bytes served hash to ${sha('tampered')}, not the SHA-256 the link names`,
        },
        {
          level: 'action',
          rule: 'svc:evidence-links',
          code: 'evidence-link-broken',
          document: 'sdr',
          at: '$.keySecurityIndicators[1].ksiEvidence[1].evidenceLocation',
          message: `${link(3)}: HTTP 404`,
        },
        {
          level: 'action',
          rule: 'svc:evidence-links',
          code: 'evidence-link-broken',
          document: 'sdr',
          at: '$.keySecurityIndicators[2].ksiEvidence[2].evidenceLocation',
          message: `${link(6)}: ${link(6)}: no answer in 15000 ms`,
        },
      ]);
    });
  });

  describe('which providers', () => {
    const beta: AgencyProvider = { name: 'beta', url: 'https://beta.example', auth: { kind: 'none' } };
    const gamma: AgencyProvider = { name: 'gamma', url: 'https://gamma.example', auth: { kind: 'none' } };

    it('the names given, in the configuration order; all without names', () => {
      expect(selectProviders([ACME, beta, gamma], ['gamma', 'acme'], FILE)).toEqual([ACME, gamma]);
      expect(selectProviders([ACME, beta], [], FILE)).toEqual([ACME, beta]);
      expect(selectProviders([ACME, beta], undefined, FILE)).toEqual([ACME, beta]);
    });

    it.each<[string, AgencyProvider[], string[] | undefined, string, string]>([
      ['one unknown', [ACME, beta], ['zeta'], 'agency-unknown-provider', `zeta: not a provider of ${FILE} (known: acme, beta); add one with svc agency add`],
      [
        'two unknown',
        [ACME],
        ['zeta', 'acme', 'eta'],
        'agency-unknown-provider',
        `zeta, eta: not providers of ${FILE} (known: acme); add one with svc agency add`,
      ],
      [
        'no provider configured',
        [],
        undefined,
        'agency-no-providers',
        `${FILE}: agency.providers names no provider; add one with svc agency add <name> --url <trust center>`,
      ],
      [
        'no provider configured, names given',
        [],
        ['acme'],
        'agency-no-providers',
        `${FILE}: agency.providers names no provider; add one with svc agency add <name> --url <trust center>`,
      ],
    ])('%s: a usage error', async (_what, providers, names, code, message) => {
      expect(() => selectProviders(providers, names, FILE)).toThrow(message);
      const w = world(providers);
      await expect(w.pull(names === undefined ? {} : { names })).rejects.toMatchObject({ kind: 'usage', code, message });
      expect(w.trustCenters.requests).toEqual([]);
    });
  });

  describe('events to the conmon sinks', () => {
    const INC_9 = {
      providerTrackingId: 'INC-9',
      reportType: 'Initial',
      incidentDescription: 'x',
      affectedAgencies: ['Dept of Examples'],
      potentialImpact: { currentRating: 3 },
    };
    const ELSEWHERE = { ...INC_9, providerTrackingId: 'INC-8', affectedAgencies: ['Dept of Elsewhere'] };

    it("none on a provider's first pull; then what changed, delivered to the sinks of svc.config.json", async () => {
      const w = world([ACME], { agency: 'Dept of Examples', sinks: ['ndjson:/var/log/agency.ndjson'] });
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1, incidents: [] });
      const first = await w.pull();
      expect([first.events, first.deliveries, w.sinks.received.size]).toEqual([[], [], 0]);
      expect(w.sinks.opened).toEqual([['ndjson:/var/log/agency.ndjson']]);

      w.at('2027-01-20T00:00:00Z');
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_2, incidents: [INC_9, ELSEWHERE] });
      const second = await w.pull();
      expect(second.events.map((e) => [e.kind, e.summary])).toEqual([
        ['agency.incident', 'acme: incident INC-9 affects the agency (Initial report, N3)'],
        ['agency.overdue', 'acme: vulnerability VG-000000000000000b (N3) is overdue, recomputed from the VDR'],
        // Detected on 2027-01-02 and not evaluated: late by VER-TFR-EVU, without a rating.
        ['agency.overdue', 'acme: vulnerability VG-000000000000000d is overdue, recomputed from the VDR'],
        ['agency.ocr-published', 'acme: an OCR for the period ending 2026-12-31 is published'],
      ]);
      expect(second.events[0]).toMatchObject({
        time: '2027-01-20T00:00:00.000Z',
        run: { id: 'agency/acme/2', seq: 2, input: { name: BASE } },
        data: { provider: 'acme', incident: 'INC-9', report_type: 'Initial', rating: 3, next_report_due: '2027-01-21T00:00:00Z' },
      });
      expect(second.deliveries).toEqual([{ sink: 'ndjson:/var/log/agency.ndjson', delivered: 4, attempts: 1 }]);
      expect(w.sinks.received.get('ndjson:/var/log/agency.ndjson')).toEqual(second.events);
    });

    it('a trust center unreachable for a day or more; --sink instead of the configured sinks', async () => {
      const w = world([ACME], { sinks: ['ndjson:/var/log/agency.ndjson'] });
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
      await w.pull();
      w.at('2026-10-03T06:00:00Z');
      w.trustCenters.script(`${BASE}/fedramp/public`, new TrustCenterFailure('unreachable', `${BASE}/fedramp/public: connect ECONNREFUSED`, 3));
      const { events, deliveries } = await w.pull({ sinks: ['ndjson:/tmp/told.ndjson'] });
      expect(events.map((e) => [e.kind, e.summary, e.data])).toEqual([
        [
          'agency.unreachable',
          `acme: the trust center has been unreachable for 2 days (${BASE}/fedramp/public: connect ECONNREFUSED)`,
          { provider: 'acme', last_reached: '2026-10-01T00:00:00.000Z', days: 2, error: `${BASE}/fedramp/public: connect ECONNREFUSED` },
        ],
      ]);
      expect(deliveries.map((d) => d.sink)).toEqual(['ndjson:/tmp/told.ndjson']);
      expect([...w.sinks.received.keys()]).toEqual(['ndjson:/tmp/told.ndjson']);
    });

    it('no sink: no events computed, whatever changed', async () => {
      const w = world();
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_1 });
      await w.pull();
      serve(w.trustCenters, BASE, { public: PUBLIC, ...PULL_2 });
      expect(await w.pull()).toMatchObject({ events: [], deliveries: [] });
      expect(w.sinks.opened).toEqual([[], []]);
    });
  });
});

describe('pullSummary', () => {
  const pull = (extra: Partial<AgencyPull>): AgencyPull => ({
    provider: 'acme',
    seq: 4,
    started: '2026-10-01T00:00:00.000Z',
    finished: '2026-10-01T00:00:01.250Z',
    url: BASE,
    outcome: 'ok',
    documents: [],
    schemas: [],
    findings: [],
    ...extra,
  });
  const d = (name: PulledDocumentName, outcome: AgencyPull['documents'][number]['outcome'], error?: string) => ({
    name,
    url: `${BASE}/fedramp/${name}`,
    outcome,
    attempts: 1,
    ...(error === undefined ? {} : { error }),
  });

  it.each<[string, Partial<AgencyPull>, string]>([
    [
      'counts by outcome, in a fixed order',
      { documents: [d('cpo', 'denied'), d('sdr', 'fetched'), d('ocr', 'unchanged'), d('vdr', 'unchanged')] },
      'acme: pull 4, 4 documents (1 fetched, 2 unchanged, 1 denied) in 1.3 s',
    ],
    ['a failed pull: its error', { outcome: 'failed', error: 'refused', documents: [d('cpo', 'failed', 'other')] }, 'acme: pull 4 failed: refused'],
    [
      'a failed pull without an error: the first document error',
      { outcome: 'failed', documents: [d('public', 'failed'), d('cpo', 'failed', 'cpo broke')] },
      'acme: pull 4 failed: cpo broke',
    ],
    ['a failed pull with nothing said', { outcome: 'failed' }, 'acme: pull 4 failed: no document came'],
  ])('%s', (_what, extra, line) => expect(pullSummary(pull(extra))).toBe(line));
});
