import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { AgencyPull, PulledDocument } from '../../src/domain/agency/pulled-documents';
import { DOCUMENT_ROUTES, OUR_AGENCY, PULLED_AT, STATUS_NOW, startAgencyWorld, type AgencyWorld, type DocumentRoute } from '../support/agency-world';
import { fedrampSchemaErrors } from '../support/fedramp-schemas';

/** JSON.parse's message for the misbehaving SDR cut after 40 characters (Node 20). */
const SDR_PARSE_ERROR = 'Unterminated string in JSON at position 40';
/** bravo's incident affecting our agency: its tracking id, from its summary and start (svc fedramp incident). */
const BRAVO_INCIDENT = 'INC-5d283ce368730344';
const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'globex'] as const;
type Name = (typeof NAMES)[number];

/**
 * `svc agency` end to end, as an agency runs it: three real svc-api trust centers (Class A over mutual TLS with a
 * certificate of our agency's CA, Classes B and C over Negotiate with alice's ticket from a real KDC), a misbehaving
 * one and another tool's, all on loopback (test/support/agency-world.ts).
 */
describe('svc agency over real trust centers: add, import, pull, status', () => {
  let world: AgencyWorld;
  let config: string;
  const url = (name: Name) =>
    name === 'delta' ? world.misbehaving.url : name === 'globex' ? world.other.url : world.providers[name as 'alpha' | 'bravo' | 'charlie'].url;
  const store = () => join(world.agencyHome, 'agency');
  /** Every content-addressed object of the agency store. */
  const objects = () => {
    const dir = join(store(), 'objects');
    return existsSync(dir) ? readdirSync(dir).flatMap((d) => readdirSync(join(dir, d)).map((f) => `${d}${f.replace(/\.br$/, '')}`)) : [];
  };
  /** A provider's pull records, oldest first. */
  const pulls = (name: Name): AgencyPull[] => {
    const dir = join(store(), 'providers', name, 'pulls');
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as AgencyPull);
  };
  const pull = (name: Name, seq: number) => pulls(name).find((p) => p.seq === seq)!;
  const doc = (p: AgencyPull, route: DocumentRoute) => p.documents.find((d) => d.name === route)!;
  const bytesOf = (d: PulledDocument) => {
    const sha = d.stored!.sha256;
    return brotliDecompressSync(readFileSync(join(store(), 'objects', sha.slice(0, 2), `${sha.slice(2)}.br`))).toString('utf8');
  };
  /** `route: outcome` of each document of a pull. */
  const outcomes = (p: AgencyPull) => Object.fromEntries(p.documents.map((d) => [d.name, d.outcome]));
  const every = (outcome: string, except: Record<string, string> = {}) => Object.fromEntries(DOCUMENT_ROUTES.map((r) => [r, except[r] ?? outcome]));
  const sortedLines = (text: string) => text.split('\n').filter(Boolean).sort();

  beforeAll(async () => {
    world = await startAgencyWorld();
    config = join(world.agencyDir, 'svc.config.json');
  }, 120_000);
  afterAll(() => world?.stop());

  describe('svc agency add and import', () => {
    it('add writes each provider with how to authenticate into svc.config.json, keeping the agency settings, and says so in one line', async () => {
      const { alpha, bravo, charlie } = world.providers;
      const ca = world.pki.ca.cert;
      const adds: [Name, string[], string][] = [
        [
          'alpha',
          ['--fedramp-id', alpha.fedrampId, '--class', 'A', '--auth', 'cert', '--cert', world.agencyUser.cert, '--key', world.agencyUser.key, '--ca', ca],
          'cert',
        ],
        ['bravo', ['--fedramp-id', bravo.fedrampId, '--class', 'B', '--auth', 'negotiate'], 'negotiate'],
        ['charlie', ['--fedramp-id', charlie.fedrampId, '--class', 'C', '--auth', 'negotiate', '--spn', 'HTTP@localhost'], 'negotiate'],
        [
          'delta',
          ['--fedramp-id', world.misbehaving.fedrampId, '--class', 'B', '--auth', 'token', '--token-file', world.misbehaving.tokenFile, '--ca', ca],
          'token',
        ],
        ['globex', ['--fedramp-id', world.other.fedrampId, '--class', 'C', '--auth', 'token', '--token-file', world.other.tokenFile, '--ca', ca], 'token'],
      ];
      for (const [name, flags, kind] of adds) {
        const r = await world.agency(['agency', 'add', name, '--url', `${url(name)}/`, ...flags]);
        expect([name, r.status, r.stdout, r.stderr]).toEqual([name, 0, `Provider ${name} (${url(name)}, auth ${kind}) written to ${config}\n`, '']);
      }
      const text = readFileSync(config, 'utf8');
      expect(JSON.parse(text)).toEqual({
        agency: {
          name: OUR_AGENCY,
          pull: { concurrency: 8, timeout_ms: 3000, retries: 1 },
          providers: [
            {
              name: 'alpha',
              url: alpha.url,
              fedramp_id: alpha.fedrampId,
              class: 'A',
              auth: { kind: 'cert', cert: world.agencyUser.cert, key: world.agencyUser.key },
              ca,
            },
            { name: 'bravo', url: bravo.url, fedramp_id: bravo.fedrampId, class: 'B', auth: { kind: 'negotiate' } },
            { name: 'charlie', url: charlie.url, fedramp_id: charlie.fedrampId, class: 'C', auth: { kind: 'negotiate', spn: 'HTTP@localhost' } },
            {
              name: 'delta',
              url: world.misbehaving.url,
              fedramp_id: world.misbehaving.fedrampId,
              class: 'B',
              auth: { kind: 'token', token_file: world.misbehaving.tokenFile },
              ca,
            },
            {
              name: 'globex',
              url: world.other.url,
              fedramp_id: world.other.fedrampId,
              class: 'C',
              auth: { kind: 'token', token_file: world.other.tokenFile },
              ca,
            },
          ],
        },
      });
      // Only paths: no token, no key, no ticket.
      for (const secret of [world.misbehaving.token, world.other.token, world.agencyUser.keyPem.split('\n')[1]!, 'PRIVATE KEY'])
        expect(text).not.toContain(secret);
    });

    it('add refuses a second provider of the same name, and --auth cert without --key, in one line each, leaving the file as it was', async () => {
      const before = readFileSync(config, 'utf8');
      const again = await world.agency(['agency', 'add', 'alpha', '--url', world.providers.alpha.url]);
      expect([again.status, again.stdout, again.stderr]).toEqual([
        3,
        '',
        `Error: ${config}: agency.providers already names "alpha"; pass --replace to replace it, or choose another name\n`,
      ]);
      const noKey = await world.agency(['agency', 'add', 'echo', '--url', 'https://trust.echo.example', '--auth', 'cert', '--cert', world.agencyUser.cert]);
      expect([noKey.status, noKey.stdout, noKey.stderr]).toEqual([2, '', 'Error: --auth cert needs --key\n']);
      expect(readFileSync(config, 'utf8')).toBe(before);
    });

    it("import reads a marketplace list of CPOs: each CPO's trust center and FedRAMP ID, named by its acronym; a CPO naming no trust center is skipped with a note", async () => {
      const dir = join(world.dir, 'importing');
      mkdirSync(dir);
      const globex = JSON.parse(world.other.served('public')!.toString('utf8'));
      const bravo = {
        ...globex,
        serviceIdentification: { ...globex.serviceIdentification, serviceAcronym: 'BRV', fedRampPackageId: world.providers.bravo.fedrampId },
        serviceProperties: {
          ...globex.serviceProperties,
          trustCenter: { ...globex.serviceProperties.trustCenter, url: `${world.providers.bravo.url}/fedramp/public` },
        },
      };
      const noTrustCenter = {
        ...globex,
        serviceIdentification: { ...globex.serviceIdentification, serviceAcronym: 'NTC' },
        serviceProperties: { serviceType: ['SaaS'], deploymentModel: 'Public Cloud' },
      };
      for (const cpo of [globex, bravo, noTrustCenter]) expect(fedrampSchemaErrors('cpo', cpo)).toEqual([]);
      writeFileSync(join(dir, 'marketplace.json'), JSON.stringify({ offerings: [globex, noTrustCenter, bravo] }));
      const r = await world.agency(['agency', 'import', 'marketplace.json', '--auth', 'negotiate'], { cwd: dir });
      const written = join(dir, 'svc.config.json');
      expect([r.status, r.stdout, r.stderr]).toEqual([
        0,
        `2 providers written to ${written}:\n- gdp: ${world.other.url} (${world.other.fedrampId})\n- brv: ${world.providers.bravo.url} (${world.providers.bravo.fedrampId})\n`,
        'Note: marketplace.json: $.offerings[1] skipped: it names no trust center (serviceProperties.trustCenter.url)\n',
      ]);
      expect(JSON.parse(readFileSync(written, 'utf8'))).toEqual({
        agency: {
          providers: [
            { name: 'gdp', url: world.other.url, fedramp_id: world.other.fedrampId, auth: { kind: 'negotiate' } },
            { name: 'brv', url: world.providers.bravo.url, fedramp_id: world.providers.bravo.fedrampId, auth: { kind: 'negotiate' } },
          ],
        },
      });
    });
  });

  describe('svc agency pull', () => {
    it('the first pull fetches every document of every provider, one progress line each on stderr, content-addressed; exit 0', async () => {
      const r = await world.agency(['agency', 'pull']);
      expect([r.status, r.stdout]).toEqual([0, `Pulled 5 providers: 5 ok, 0 partial, 0 failed\n`]);
      expect(sortedLines(r.stderr)).toEqual([
        'alpha: pull 1, 11 documents (11 fetched) in 0.0 s',
        'bravo: pull 1, 11 documents (11 fetched) in 0.0 s',
        'charlie: pull 1, 11 documents (11 fetched) in 0.0 s',
        'delta: pull 1, 11 documents (11 fetched) in 0.0 s',
        'globex: pull 1, 11 documents (8 fetched, 2 absent, 1 denied) in 0.0 s',
      ]);
      for (const name of NAMES) {
        const p = pull(name, 1);
        expect([name, p.outcome, p.started, p.finished, p.url]).toEqual([name, 'ok', PULLED_AT, PULLED_AT, url(name)]);
        expect(p.tls === undefined).toBe(name === 'bravo' || name === 'charlie');
      }
      // Verified as pulled: svc-api's own incident report is valid only under an older generation of FedRAMP's schema
      // (its potentialImpact a string, as the provider's profile's schemas have it); globex serves no snapshots.
      expect(
        NAMES.map((n) => [n, pull(n, 1).findings.map((f) => `${f.level} ${f.rule} ${f.code}${f.document === undefined ? '' : ` ${f.document}`}`)]),
      ).toEqual([
        ['alpha', []],
        ['bravo', ['notice FRC-CSO-JSN schema-older-generation incidents']],
        ['charlie', []],
        ['delta', []],
        ['globex', ['notice CDS-CSO-HAD snapshots-missing snapshots']],
      ]);
      expect(outcomes(pull('globex', 1))).toEqual(every('fetched', { history: 'denied', metrics: 'absent', snapshots: 'absent' }));
      // Content-addressed: each stored document is its bytes' SHA-256, as the trust center served them.
      for (const route of ['public', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'scn'] as const) {
        const d = doc(pull('globex', 1), route);
        expect([route, bytesOf(d)]).toEqual([route, world.other.served(route)!.toString('utf8')]);
        // Another tool's documents: valid under FedRAMP's schemas, none of svc's extensions.
        const json = JSON.parse(bytesOf(d));
        for (const one of Array.isArray(json) ? json : [json])
          expect([route, fedrampSchemaErrors(route === 'public' ? 'cpo' : route, one)]).toEqual([route, []]);
      }
      const shas = new Set(NAMES.flatMap((n) => pull(n, 1).documents.flatMap((d) => (d.stored === undefined ? [] : [d.stored.sha256]))));
      expect(objects().sort()).toEqual([...shas].sort());
    });

    it('a second pull with nothing changed asks with If-None-Match, stores nothing new and records every document unchanged (304)', async () => {
      const before = objects().sort();
      const r = await world.agency(['agency', 'pull']);
      expect([r.status, r.stdout]).toEqual([0, `Pulled 5 providers: 5 ok, 0 partial, 0 failed\n`]);
      expect(sortedLines(r.stderr)).toEqual([
        'alpha: pull 2, 11 documents (11 unchanged) in 0.0 s',
        'bravo: pull 2, 11 documents (11 unchanged) in 0.0 s',
        'charlie: pull 2, 11 documents (11 unchanged) in 0.0 s',
        'delta: pull 2, 11 documents (11 unchanged) in 0.0 s',
        'globex: pull 2, 11 documents (8 unchanged, 2 absent, 1 denied) in 0.0 s',
      ]);
      expect(objects().sort()).toEqual(before);
      for (const name of NAMES) {
        const [first, second] = [pull(name, 1), pull(name, 2)];
        for (const d of second.documents) {
          const was = doc(first, d.name);
          if (d.outcome === 'unchanged') expect([name, d.name, d.status, d.stored]).toEqual([name, d.name, 304, was.stored]);
          else expect([name, d.name, d.outcome]).toEqual([name, d.name, was.outcome]);
        }
      }
      const revalidations = world.other.requests.filter((q) => q.status === 304);
      expect(revalidations.length).toBe(8);
    });

    it('an agency principal sees only what each trust center grants it, and svc asks for nothing more', () => {
      const documentPaths = DOCUMENT_ROUTES.map((r) => `/fedramp/${r}`).sort();
      // alpha (mutual TLS): erin's certificate of our agency's CA is the Department of Examples; bravo and charlie
      // (Negotiate): alice@SVC.TEST is, by the realm. Each document asked once a pull, nothing else.
      const expected = { alpha: 'erin@examples.gov', bravo: 'alice@SVC.TEST', charlie: 'alice@SVC.TEST' } as const;
      for (const [name, principal] of Object.entries(expected) as [keyof typeof expected, string][]) {
        const lines = world.providers[name].requests();
        expect([name, lines.map((l) => l.path).sort()]).toEqual([name, [...documentPaths, ...documentPaths].sort()]);
        expect([name, [...new Set(lines.map((l) => l.status))].sort()]).toEqual([name, [200, 304]]);
        for (const l of lines.filter((x) => x.path !== '/fedramp/public'))
          expect([name, l.path, l.principal, l.agency]).toEqual([name, l.path, principal, OUR_AGENCY]);
      }
      // bravo's incident affecting only the Agency of Samples never reaches the agency: the trust center serves each
      // agency its own, and svc asks no other way.
      const incidents = JSON.parse(bytesOf(doc(pull('bravo', 2), 'incidents')));
      expect(incidents.map((i: { incidentDescription: string; affectedAgencies: string[] }) => [i.incidentDescription, i.affectedAgencies])).toEqual([
        ['Examples case exports exposed', [OUR_AGENCY]],
      ]);
      const stored = objects().map((o) => brotliDecompressSync(readFileSync(join(store(), 'objects', o.slice(0, 2), `${o.slice(2)}.br`))).toString('utf8'));
      expect(stored.filter((text) => text.includes('Samples sign-in outage'))).toEqual([]);
      // globex grants no historical activity: 403 is `denied`, asked once a pull and never again another way.
      const globex = world.other.requests;
      expect(globex.filter((q) => q.path === '/fedramp/history').map((q) => q.status)).toEqual([403, 403]);
      expect(doc(pull('globex', 2), 'history')).toEqual({
        name: 'history',
        url: `${world.other.url}/fedramp/history`,
        outcome: 'denied',
        status: 403,
        attempts: 1,
        error: `${world.other.url}/fedramp/history: 403 your agency is not granted the historical activity`,
      });
      expect([...new Set(globex.map((q) => q.path))].sort()).toEqual([...documentPaths, '/evidence/mfa-scan.json'].sort());
      expect(globex.every((q) => q.method === 'GET')).toBe(true);
      expect(globex.filter((q) => q.path !== '/fedramp/public').every((q) => q.headers.authorization === `Bearer ${world.other.token}`)).toBe(true);
    });
  });

  describe('a misbehaving trust center is reported for itself; the others are pulled and its good data stays', () => {
    it('invalid JSON, a 500 and a route beyond the time-out fail those documents (the bytes held stay current); a wrong FedRAMP ID, no CORS and a stale OCR are stored as served; exit 1', async () => {
      world.misbehaving.setFaults({ invalidJson: 'sdr', serverError: 'vdr', slow: 'avi', wrongFedrampId: 'cpo', noCors: true, staleOcr: true });
      const before = pull('delta', 2);
      const r = await world.agency(['agency', 'pull']);
      expect([r.status, r.stdout]).toEqual([1, 'Pulled 5 providers: 4 ok, 1 partial, 0 failed (delta)\n- delta: 4 findings to act on (svc agency status)\n']);
      expect(sortedLines(r.stderr)).toEqual([
        'alpha: pull 3, 11 documents (11 unchanged) in 0.0 s',
        'bravo: pull 3, 11 documents (11 unchanged) in 0.0 s',
        'charlie: pull 3, 11 documents (11 unchanged) in 0.0 s',
        'delta: pull 3, 11 documents (3 fetched, 5 unchanged, 3 failed) in 0.0 s',
        'globex: pull 3, 11 documents (8 unchanged, 2 absent, 1 denied) in 0.0 s',
      ]);
      const after = pull('delta', 3);
      expect(after.outcome).toBe('partial');
      expect(outcomes(after)).toEqual(every('unchanged', { public: 'fetched', cpo: 'fetched', ocr: 'fetched', sdr: 'failed', vdr: 'failed', avi: 'failed' }));
      for (const route of ['sdr', 'vdr', 'avi'] as const) expect([route, doc(after, route).stored]).toEqual([route, doc(before, route).stored]);
      const at = world.misbehaving.url;
      expect([doc(after, 'sdr').error, doc(after, 'vdr').error, doc(after, 'avi').error]).toEqual([
        `${at}/fedramp/sdr: the body is not JSON (${SDR_PARSE_ERROR})`,
        `${at}/fedramp/vdr: HTTP 500`,
        `${at}/fedramp/avi: no complete answer within 3000 ms after 2 attempts; agency.pull.timeout_ms sets how long svc waits`,
      ]);
      expect([doc(after, 'vdr').attempts, doc(after, 'avi').attempts]).toEqual([2, 2]);
      expect(doc(after, 'public').stored!.delivery).toEqual({ contentType: 'application/json', nosniff: true });
      expect(bytesOf(doc(after, 'cpo'))).toContain('"fedRampPackageId":"FR2611259999"');
      // Verification of what came: each content fault is found, citing its rule (the stale OCR also has no snapshot).
      expect(after.findings.map((f) => `${f.level} ${f.rule} ${f.code} ${f.document}`)).toEqual([
        'action CCM-OCR-NRD ocr-overdue ocr',
        'action CDS-CSO-FID fedramp-id-mismatch cpo',
        'action CDS-CSO-HAD snapshot-missing snapshots',
        'action FRC-CSO-JSN cors-missing public',
        'notice CCM-OCR-NRD next-ocr-date-beyond-cadence cpo',
      ]);
      for (const name of ['alpha', 'bravo', 'charlie', 'globex'] as const) expect([name, pull(name, 3).outcome]).toEqual([name, 'ok']);
    }, 60_000);
  });

  describe('svc agency status', () => {
    it("exit 1 and exactly what each provider owes: unreviewed OCRs, the overdue vulnerability, the open incident affecting us and not the other agency, the misbehaving one's failures", async () => {
      const r = await world.agency(['agency', 'status', '--now', STATUS_NOW]);
      expect([r.status, r.stderr]).toEqual([1, '']);
      const ocr = (name: string, end: string) =>
        `  - CCM-AGM-ROR: the OCR for the period ending ${end} is not reviewed yet (svc agency review ${name} --ocr ${end})`;
      const { alpha, bravo, charlie } = world.providers;
      expect(r.stdout.split('\n')).toEqual([
        `Agency status at 2027-01-15T00:00:00.000Z (CR26 2026.10.05.01): 5 providers, 5 with something to act on`,
        '',
        `alpha (${alpha.fedrampId}, Class A, 20x): pulled ${PULLED_AT} (pull 3, ok)`,
        '  OCR: period ending 2026-10-31, not reviewed; next OCR due 2027-01-31',
        '  Vulnerabilities: open none; overdue none; accepted 0',
        '  Incidents open: 0 · SCNs: 1 (latest planned completion 2026-12-20) · KSI changes since last review: 0 · invalid: none · stale: none',
        '  Act on:',
        ocr('alpha', '2026-10-31'),
        '',
        `bravo (${bravo.fedrampId}, Class B, 20x): pulled ${PULLED_AT} (pull 3, ok)`,
        '  OCR: period ending 2026-11-15, not reviewed; next OCR due 2027-02-15',
        '  Vulnerabilities: open N4 1; overdue N4 1; accepted 1',
        '  Incidents open: 1 · SCNs: 0 · KSI changes since last review: 0 · invalid: none · stale: none',
        '  Act on:',
        ocr('bravo', '2026-11-15'),
        '  - VER-AGM-RVR: 1 N4 vulnerability overdue, recomputed from the VDR',
        // Ours only: the incident affecting only the Agency of Samples never reached the agency.
        // The N-rating read from the older schema's words svc-api writes; the next ongoing report counted from the pull that first got it.
        `  - incident ${BRAVO_INCIDENT} open (Initial report, N4); next report due 2026-12-02T00:00:00Z`,
        '  Notes:',
        // svc-api writes an incident's potentialImpact in the words of the generation its profile was judged by.
        "  - FRC-CSO-JSN: valid against FedRAMP's incident schema of 2026-07-15 at newest, not of 2026-10-08, the newest generation svc carries: [0].potentialImpact: must be object",
        '',
        `charlie (${charlie.fedrampId}, Class C, 20x): pulled ${PULLED_AT} (pull 3, ok)`,
        '  OCR: period ending 2026-11-15, not reviewed; next OCR due 2027-02-15',
        '  Vulnerabilities: open none; overdue none; accepted 0',
        '  Incidents open: 0 · SCNs: 0 · KSI changes since last review: 0 · invalid: none · stale: none',
        '  Act on:',
        ocr('charlie', '2026-11-15'),
        '',
        `delta (${world.misbehaving.fedrampId}, Class B, 20x): pulled ${PULLED_AT} (pull 3, partial)`,
        '  OCR: period ending 2026-04-30, not reviewed; next OCR due 2026-07-31',
        '  Vulnerabilities: open none; overdue none; accepted 0',
        '  Incidents open: 0 · SCNs: 1 (latest planned completion 2026-12-20) · KSI changes since last review: 0 · invalid: none · stale: sdr, vdr, avi',
        '  Act on:',
        `  - pull 3 partial: 3 documents failed (sdr: ${world.misbehaving.url}/fedramp/sdr: the body is not JSON (${SDR_PARSE_ERROR}); vdr: ${world.misbehaving.url}/fedramp/vdr: HTTP 500; avi: ${world.misbehaving.url}/fedramp/avi: no complete answer within 3000 ms after 2 attempts; agency.pull.timeout_ms sets how long svc waits)`,
        "  - CCM-OCR-NRD: the OCR due 2026-07-31 (the CPO's next report date) is overdue: the latest OCR covers 2026-02-01 to 2026-04-30",
        `  - CDS-CSO-FID: the FedRAMP ID is "FR2611259999", not the FedRAMP ID configured for delta (agency.providers[].fedramp_id) "${world.misbehaving.fedrampId}"`,
        '  - CDS-CSO-HAD: no snapshot is listed for the latest OCR (2026-02-01 to 2026-04-30); 1 is listed',
        '  - FRC-CSO-JSN: the public JSON answered a request carrying an Origin without Access-Control-Allow-Origin, so a web application on another domain cannot read it',
        ocr('delta', '2026-04-30'),
        ocr('delta', '2026-10-31'),
        '  Notes:',
        "  - CCM-OCR-NRD: the CPO gives 2026-07-31 as the next OCR date, later than 2026-07-30 (3 months after the latest OCR's period, CCM-OCR-AVL)",
        '',
        `globex (${world.other.fedrampId}, Class C, 20x): pulled ${PULLED_AT} (pull 3, ok)`,
        '  OCR: period ending 2026-10-31, not reviewed; next OCR due 2027-01-31',
        '  Vulnerabilities: open N1 1; overdue none; accepted 1',
        '  Incidents open: 0 · SCNs: 1 (latest planned completion 2026-12-20) · KSI changes since last review: 0 · invalid: none · stale: none',
        '  Act on:',
        // Another tool's trust center serves no /fedramp/snapshots (svc-api's route, FedRAMP names none): a notice, nothing to act on.
        ocr('globex', '2026-10-31'),
        '  Notes:',
        '  - CDS-CSO-HAD: the trust center lists no snapshots of its certification data at /fedramp/snapshots, so svc cannot check that the data of the OCR of 2026-08-01 to 2026-10-31 stays available; ask the provider how it makes historical certification data available',
        '',
      ]);
      const json = JSON.parse((await world.agency(['agency', 'status', '--now', STATUS_NOW, '--json'])).stdout);
      expect(json.providers.map((p: { provider: string; class: string; classSource: string }) => [p.provider, p.class, p.classSource])).toEqual([
        ['alpha', 'A', 'configuration'],
        ['bravo', 'B', 'configuration'],
        ['charlie', 'C', 'configuration'],
        ['delta', 'B', 'configuration'],
        ['globex', 'C', 'configuration'],
      ]);
      expect(json.providers[1].incidents).toEqual([{ id: BRAVO_INCIDENT, reportType: 'Initial', rating: 4, nextReportDue: '2026-12-02T00:00:00Z' }]);
    });
    it('a changed TLS certificate fails the pull with one line naming both fingerprints and how to accept a renewal; every document held stays', async () => {
      const trusted = world.misbehaving.fingerprint();
      await world.misbehaving.restartWithNewCertificate();
      const r = await world.agency(['agency', 'pull', 'delta']);
      const changed = `${world.misbehaving.url}: the trust center's TLS identity changed (certificate SHA-256 ${trusted} at pull 3, now ${world.misbehaving.fingerprint()}, issued by CN=svc test CA); if the provider renewed its certificate, run svc agency pull delta --accept-identity delta`;
      // The documents held are judged again at the failed pull's time: what was wrong with them stays said.
      expect([r.status, r.stdout, r.stderr]).toEqual([
        1,
        'Pulled 1 provider: 0 ok, 0 partial, 1 failed (delta)\n- delta: 4 findings to act on (svc agency status)\n',
        `delta: pull 4 failed: ${changed}\n`,
      ]);
      const p = pull('delta', 4);
      expect([p.outcome, p.tls?.fingerprint256]).toEqual(['failed', trusted]);
      expect(p.documents.map((d) => [d.name, d.outcome, d.stored])).toEqual(pull('delta', 3).documents.map((d) => [d.name, 'failed', d.stored]));
      const status = await world.agency(['agency', 'status', 'delta', '--now', STATUS_NOW]);
      expect(status.status).toBe(1);
      const lines = status.stdout.split('\n');
      expect(lines.slice(0, 7)).toEqual([
        'Agency status at 2027-01-15T00:00:00.000Z (CR26 2026.10.05.01): 1 provider, 1 with something to act on',
        '',
        `delta (${world.misbehaving.fedrampId}, Class B, 20x): pulled ${PULLED_AT} (pull 4, failed)`,
        '  OCR: period ending 2026-04-30, not reviewed; next OCR due 2026-07-31',
        '  Vulnerabilities: open none; overdue none; accepted 0',
        '  Incidents open: 0 · SCNs: 1 (latest planned completion 2026-12-20) · KSI changes since last review: 0 · invalid: none · stale: public, cpo, sdr, ocr, vdr, avi, history, scn, incidents, metrics, snapshots',
        '  Act on:',
      ]);
      expect(lines).toContain(`  - pull 4 failed: unreachable for 45 days (${changed})`);
      world.misbehaving.setFaults({});
      const accepted = await world.agency(['agency', 'pull', 'delta', '--accept-identity', 'delta']);
      // The bytes held for sdr, vdr and avi are the trust center's again: 304 to their ETags.
      expect([accepted.status, accepted.stdout, accepted.stderr]).toEqual([
        0,
        'Pulled 1 provider: 1 ok, 0 partial, 0 failed\n',
        'delta: pull 5, 11 documents (3 fetched, 8 unchanged) in 0.0 s\n',
      ]);
      expect(pull('delta', 5).tls?.fingerprint256).toBe(world.misbehaving.fingerprint());
    });
  });

  describe("the agency's duties over what it pulled: review, poam, notice, diff, report", () => {
    const at = (f: string) => join(world.agencyDir, f);

    it('review records a signed review of the OCR (CCM-AGM-ROR); status no longer asks for it; an unknown period lists the periods pulled', async () => {
      const r = await world.agency(['agency', 'review', 'bravo', '--ocr', '2026-11-15', '--note', 'Read with the ISSO', '--reviewer', 'Dana Example']);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(/^Review of bravo's OCR for the period ending 2026-11-15 recorded \(signed by [A-Za-z0-9_-]{43}\)\n$/);
      const unknown = await world.agency(['agency', 'review', 'bravo', '--ocr', '2026-09-30']);
      expect([unknown.status, unknown.stdout, unknown.stderr]).toEqual([
        3,
        '',
        'Error: provider "bravo": no pulled OCR has a reporting period ending 2026-09-30; the periods pulled end 2026-11-15\n',
      ]);
      const status = await world.agency(['agency', 'status', 'bravo', '--now', STATUS_NOW]);
      expect(status.stdout.split('\n').slice(2)).toEqual([
        `bravo (${world.providers.bravo.fedrampId}, Class B, 20x): pulled ${PULLED_AT} (pull 3, ok)`,
        '  OCR: period ending 2026-11-15, reviewed; next OCR due 2027-02-15',
        '  Vulnerabilities: open N4 1; overdue N4 1; accepted 1',
        '  Incidents open: 1 · SCNs: 0 · KSI changes since last review: 0 · invalid: none · stale: none',
        '  Act on:',
        '  - VER-AGM-RVR: 1 N4 vulnerability overdue, recomputed from the VDR',
        `  - incident ${BRAVO_INCIDENT} open (Initial report, N4); next report due 2026-12-02T00:00:00Z`,
        '  Notes:',
        // svc-api writes an incident's potentialImpact in the words of the generation its profile was judged by.
        "  - FRC-CSO-JSN: valid against FedRAMP's incident schema of 2026-07-15 at newest, not of 2026-10-08, the newest generation svc carries: [0].potentialImpact: must be object",
        '',
      ]);
    });

    it('poam writes the agency POA&M rows from the VDR and AVI with the POA&M writers, overdue recomputed (VER-AGM-MAP)', async () => {
      const r = await world.agency(['agency', 'poam', 'bravo', '--format', 'csv', '--out', at('bravo-poam.csv'), '--now', STATUS_NOW]);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(
        /^POA&M of bravo written to .*bravo-poam\.csv \(csv\): 2 items, 2 open, 1 overdue at 2027-01-15T00:00:00Z \(Class B; from VDR [0-9a-f]{64}, AVI [0-9a-f]{64}\)\n$/,
      );
      const rows = readFileSync(at('bravo-poam.csv'), 'utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(rows[0]).toMatch(/^POAM ID,Controls,Weakness Name,/);
      expect(rows.slice(1).map((row) => row.split(',')[0])).toHaveLength(2);
      expect(rows.slice(1).every((row) => row.includes(`bravo (FedRAMP ID ${world.providers.bravo.fedrampId})`))).toBe(true);
    });

    it('notice drafts the notification to the provider (AGU-USE-NPC), citing the document, its digest and the field behind each concern', async () => {
      const r = await world.agency(['agency', 'notice', 'bravo', '--to', 'provider', '--now', STATUS_NOW, '--out', at('bravo-notice.md')]);
      expect([r.status, r.stdout.replace(at('bravo-notice.md'), '<out>'), r.stderr]).toEqual([
        0,
        'Notice to provider (AGU-USE-NPC) drafted to <out>: 1 concern\n',
        '',
      ]);
      const notice = readFileSync(at('bravo-notice.md'), 'utf8');
      expect(notice).toContain('- Rule: AGU-USE-NPC Notify Provider of Concerns (SHOULD)\n');
      expect(notice).toMatch(
        /\n1\. VDR-TFR-PVR \(vulnerability-overdue\): VG-[0-9a-f]{16} \(N4\) is overdue as svc recomputes it: N4 not mitigated or remediated by 2027-01-05T08:00:00Z \(VDR-TFR-PVR\); the provider reports it as not overdue\n {3}- Document: vdr, http:\/\/localhost:\d+\/fedramp\/vdr, SHA-256 [0-9a-f]{64}\n {3}- Field: vulnerabilities\\\[0\\\]\n/,
      );
    });

    it("diff shows what changed between two pulls of the misbehaving trust center: its CPO's FedRAMP ID and next OCR date", async () => {
      const r = await world.agency(['agency', 'diff', 'delta', '--from', '2', '--to', '3']);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain(
        'From pull 2 (2026-12-01T00:00:00.000Z, OCR for the period ending 2026-10-31) to pull 3 (2026-12-01T00:00:00.000Z, OCR for the period ending 2026-04-30).\n',
      );
      expect(r.stdout).toContain(
        '| serviceIdentification.fedRampPackageId | "FR2611250104" | "FR2611259999" |\n| serviceProperties.nextOngoingCertificationReportDate | "2027-01-31" | "2026-07-31" |\n',
      );
    });

    it('report writes the portfolio page of every provider', async () => {
      const r = await world.agency(['agency', 'report', '--out', at('portfolio.html'), '--now', STATUS_NOW]);
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(/^Portfolio of 5 providers written to .*portfolio\.html \(sha256:[0-9a-f]{64}\)\n$/);
      const page = readFileSync(at('portfolio.html'), 'utf8');
      for (const name of NAMES) expect(page).toContain(`>${name}<`);
    });
  });
});
