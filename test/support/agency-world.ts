import { createHash, X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSvcApi, type StartedApi } from './api';
import { FEDRAMP_SCHEMAS } from './fedramp-schemas';
import { startKdc, type Kdc } from './kdc';
import { createTestPki, issueCa, SERVER_EXTENSIONS, signCertificate, type Issued, type TestPki } from './pki';
import { ROOT, startSvc, svc, type SvcRun } from './run-svc';
import { AGENCY_CA_SUBJECT, initialIncidentArgs, prowlerReport, TRUST_PROFILE } from './trust-center';

/** The agency the world's svc is the client of, as every provider's profile names it. */
export const OUR_AGENCY = 'Department of Examples';
export const OTHER_AGENCY = 'Agency of Samples';
/** Another user of our agency (a certificate of its CA): the world reads alpha's documents as them to build delta's. */
export const COPIER = 'copier@examples.gov';

/**
 * The time `svc agency status` judges at in the agency tests: bravo's open vulnerability (detected 2026-11-02) is
 * overdue by then, and every healthy provider's next OCR (CCM-OCR-NRD) is still ahead.
 */
export const STATUS_NOW = '2027-01-15T00:00:00Z';

/** The agency's CLI clock (SOURCE_DATE_EPOCH): every pull starts and finishes at this time, after every provider's history. */
export const PULLED_AT = '2026-12-01T00:00:00.000Z';

/** The document routes of a FedRAMP-compatible trust center, as `svc agency pull` asks them (PULLED_DOCUMENTS). */
export const DOCUMENT_ROUTES = ['public', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'scn', 'incidents', 'metrics', 'snapshots'] as const;
export type DocumentRoute = (typeof DOCUMENT_ROUTES)[number];

/** One of the world's real svc-api trust centers. */
export interface SvcProvider {
  name: 'alpha' | 'bravo' | 'charlie';
  class: 'A' | 'B' | 'C';
  fedrampId: string;
  /** How the agency authenticates to it: a client certificate issued by the agency's CA, or alice's Kerberos ticket. */
  auth: 'cert' | 'negotiate';
  /** `https://localhost:<port>` (mTLS) or `http://localhost:<port>` (Negotiate). */
  url: string;
  /** The provider's working directory (its svc.config.json) and svc home. */
  work: string;
  home: string;
  api: StartedApi;
  /** The svc-api's request log lines (`msg: "request"`), parsed. */
  requests(): ApiRequestLine[];
}

/** A request line of svc-api's log. */
export interface ApiRequestLine {
  method: string;
  path: string;
  route?: string;
  status: number;
  principal?: string;
  auth?: string;
  agency?: string;
}

/** A request a hand-made trust center received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** What it answered. */
  status: number;
}

/**
 * What the misbehaving trust center gets wrong, each switchable on its own: `invalidJson` answers that document with
 * bytes that are not JSON, `wrongFedrampId` gives that document another offering's FedRAMP ID, `noCors` leaves
 * Access-Control-Allow-Origin off the public JSON, `staleOcr` puts the CPO's next OCR date and the OCR's period in the
 * past, `serverError` answers that document 500, `slow` answers that document only after `SLOW_MS` (beyond the
 * agency's time-out).
 */
export interface Faults {
  invalidJson?: DocumentRoute;
  wrongFedrampId?: DocumentRoute;
  noCors?: boolean;
  staleOcr?: boolean;
  serverError?: DocumentRoute;
  slow?: DocumentRoute;
}

/** The misbehaving one's slow route answers after this long: beyond AGENCY_PULL's time-out on every attempt. */
export const SLOW_MS = 8_000;
/** The agency's pull settings (agency.pull of its svc.config.json). */
export const AGENCY_PULL = { concurrency: 8, timeout_ms: 3_000, retries: 1 };

/** A hand-made HTTPS trust center requiring a bearer token. */
export interface HandMadeTrustCenter {
  name: string;
  url: string;
  port: number;
  fedrampId: string;
  /** The file holding the bearer token the agency sends (the token itself never enters the agency's configuration). */
  tokenFile: string;
  token: string;
  requests: ReceivedRequest[];
  /** The bytes served for each document now (after the faults), by route. */
  served(route: DocumentRoute): Buffer | undefined;
  /** The SHA-256 fingerprint of the certificate it serves now. */
  fingerprint(): string;
  stop(): Promise<void>;
}

export interface MisbehavingTrustCenter extends HandMadeTrustCenter {
  /** Replaces the faults (none: `{}`). */
  setFaults(faults: Faults): void;
  /** Stops and starts again on the same port with a new certificate of the same CA (a changed TLS identity). */
  restartWithNewCertificate(): Promise<void>;
}

export interface AgencyWorld {
  dir: string;
  pki: TestPki;
  /** Our agency's CA (the trust centers recognize the Department of Examples by it) and the agency user's certificate. */
  agencyCa: Issued;
  agencyUser: Issued;
  kdc: Kdc;
  providers: { alpha: SvcProvider; bravo: SvcProvider; charlie: SvcProvider };
  /** `delta`: serves alpha's documents under its own FedRAMP ID, wrong in the ways its faults say. */
  misbehaving: MisbehavingTrustCenter;
  /** `globex`: another tool's trust center, FedRAMP's shapes without svc's extensions; /fedramp/history is 403. */
  other: HandMadeTrustCenter;
  /** The agency's working directory (its svc.config.json) and svc home. */
  agencyDir: string;
  agencyHome: string;
  /**
   * Runs the built CLI as the agency user: in agencyDir, with alice's Kerberos ticket. Not waited for synchronously:
   * the hand-made trust centers answer from this process. `cwd`: another directory, for another svc.config.json.
   */
  agency(args: string[], options?: { cwd?: string }): Promise<SvcRun>;
  stop(): Promise<void>;
}

/**
 * Starts the agency tests' world on loopback: three real svc-api trust centers (alpha Class A over mutual TLS with the
 * agency user's certificate from our agency's CA; bravo Class B and charlie Class C over Negotiate with alice's ticket
 * from a real MIT KDC), each with its own svc home, profile (both agencies) and history made with the real CLI; a
 * misbehaving trust center; another tool's. The agency's directory holds a svc.config.json with its name and pull
 * settings and no provider yet (the tests add them).
 */
export async function startAgencyWorld(): Promise<AgencyWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-agency-world-'));
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const pki = createTestPki(join(dir, 'pki'));
    const agencyCa = issueCa(pki.dir, 'agency-ca', AGENCY_CA_SUBJECT);
    const agencyUser = pki.client('erin', { upn: 'erin@examples.gov', ca: agencyCa });
    writeFileSync(join(pki.dir, 'clients.pem'), pki.ca.certPem + agencyCa.certPem);
    const kdc = await startKdc();
    stops.push(() => kdc.stop());

    // The histories are written before the servers start: svc-api serves the store as it finds it.
    const alphaDir = provider(dir, 'alpha', 'A', 'FR2611250101', [
      ['conmon', 'process', report('october', '2026-10-01', 'PASS', [])],
      ['fedramp', 'ocr', '--to', '2026-10-31', '--now', '2026-11-01T00:00:00Z'],
      [
        'fedramp',
        'scn',
        '--type',
        'adaptive',
        '--summary',
        'Move the audit log store to a second region',
        '--finish',
        '2026-12-20',
        '--now',
        '2026-11-10T00:00:00Z',
      ],
    ]);
    const bravoDir = provider(dir, 'bravo', 'B', 'FR2611250102', [
      ['conmon', 'process', report('august', '2026-08-03', 'PASS', [])],
      ['fedramp', 'ocr', '--to', '2026-08-31', '--now', '2026-09-01T00:00:00Z'],
      ['conmon', 'process', report('november', '2026-11-02', 'FAIL', ['iam_root_mfa_enabled', 'iam_password_policy_strong'])],
      ['vuln', 'evaluate', 'iam_root_mfa_enabled', '--accept', '--reason', 'break-glass account in a vault', '--by', 'ciso', '--now', '2026-11-03T00:00:00Z'],
      ['fedramp', 'ocr', '--to', '2026-11-15', '--now', '2026-11-16T00:00:00Z'],
      initialIncidentArgs('Examples case exports exposed', OUR_AGENCY, '2026-11-20T10:00:00Z'),
      initialIncidentArgs('Samples sign-in outage', OTHER_AGENCY, '2026-11-20T11:00:00Z'),
    ]);
    const charlieDir = provider(dir, 'charlie', 'C', 'FR2611250103', [
      ['conmon', 'process', report('november', '2026-11-05', 'PASS', [])],
      ['fedramp', 'ocr', '--to', '2026-11-15', '--now', '2026-11-16T00:00:00Z'],
    ]);

    /** Request lines of the world's own reads, which `requests()` leaves out. */
    const skipped = new Map<string, number>();
    const mtls = { ca: join(pki.dir, 'clients.pem'), cert: pki.server.cert, key: pki.server.key };
    const negotiate = { spn: kdc.spn, keytab: kdc.keytab };
    const start = async (p: ProviderDir, auth: 'cert' | 'negotiate'): Promise<SvcProvider> => {
      const log = join(p.work, 'svc-api.log');
      writeFileSync(join(p.work, 'api.json'), JSON.stringify({ port: 0, auth: auth === 'cert' ? { mtls } : { negotiate }, log: { file: log } }));
      const env = { SVC_HOME: p.home, SVC_CONFIG: '', SVC_STORE: '', KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5RCACHEDIR: kdc.env.KRB5RCACHEDIR };
      const api = await startSvcApi(['--config', join(p.work, 'api.json')], env, { cwd: p.work });
      stops.push(() => api.stop());
      return { ...p, auth, url: api.url.replace('127.0.0.1', 'localhost'), api, requests: () => requestLines(log).slice(skipped.get(p.name) ?? 0) };
    };
    const [alpha, bravo, charlie] = await Promise.all([start(alphaDir, 'cert'), start(bravoDir, 'negotiate'), start(charlieDir, 'negotiate')]);

    // delta serves alpha's documents as our agency reads them, under its own FedRAMP ID; read by another of our
    // agency's users (COPIER), whose requests alpha.requests() leaves out.
    const copier = pki.client('copier', { upn: COPIER, ca: agencyCa });
    const fromAlpha = new Map<DocumentRoute, Buffer>();
    for (const route of DOCUMENT_ROUTES) {
      const res = await getTls(`${alpha.url}/fedramp/${route}`, pki.ca, copier);
      if (res.status === 200) fromAlpha.set(route, Buffer.from(res.body.toString('utf8').replaceAll(alpha.fedrampId, 'FR2611250104')));
    }
    // svc-api logs a request as it ends: wait for the lines of the world's reads before counting them.
    for (let waited = 0; alpha.requests().length < DOCUMENT_ROUTES.length && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    skipped.set('alpha', alpha.requests().length);
    const misbehaving = await startMisbehaving(dir, pki, fromAlpha);
    stops.push(() => misbehaving.stop());
    const other = await startOtherTool(dir, pki);
    stops.push(() => other.stop());

    const agencyDir = join(dir, 'agency');
    const agencyHome = join(agencyDir, '.svc');
    mkdirSync(agencyDir);
    writeFileSync(join(agencyDir, 'svc.config.json'), `${JSON.stringify({ agency: { name: OUR_AGENCY, pull: AGENCY_PULL } }, null, 2)}\n`);
    const agencyEnv = {
      SOURCE_DATE_EPOCH: String(Date.parse(PULLED_AT) / 1000),
      SVC_HOME: agencyHome,
      SVC_STORE: '',
      KRB5_CONFIG: kdc.env.KRB5_CONFIG,
      KRB5CCNAME: kdc.ccacheFor('alice'),
    };
    return {
      dir,
      pki,
      agencyCa,
      agencyUser,
      kdc,
      providers: { alpha, bravo, charlie },
      misbehaving,
      other,
      agencyDir,
      agencyHome,
      agency: (args, options = {}) => startSvc(args, { cwd: options.cwd ?? agencyDir, env: agencyEnv }).done,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }

  function report(name: string, day: string, status: 'PASS' | 'FAIL', failed: string[]): string {
    return JSON.stringify({ name, report: prowlerReport(day, status, failed) });
  }
}

interface ProviderDir {
  name: 'alpha' | 'bravo' | 'charlie';
  class: 'A' | 'B' | 'C';
  fedrampId: string;
  work: string;
  home: string;
}

/**
 * A provider's working directory with its profile (TRUST_PROFILE with its class and FedRAMP ID) and its history written
 * by the real CLI. A `conmon process` step names its report as `{"name", "report"}` JSON: written to `<name>.json` first.
 */
function provider(root: string, name: ProviderDir['name'], cls: ProviderDir['class'], fedrampId: string, steps: string[][]): ProviderDir {
  const work = join(root, name);
  const home = join(work, '.svc');
  mkdirSync(work);
  writeFileSync(
    join(work, 'svc.config.json'),
    JSON.stringify({ fedramp: { ...TRUST_PROFILE, class: cls, fedramp_id: fedrampId }, fedramp_schemas: FEDRAMP_SCHEMAS }),
  );
  for (const step of steps) {
    const args = [...step];
    if (args[0] === 'conmon') {
      const { name: file, report } = JSON.parse(args[2]!) as { name: string; report: unknown };
      writeFileSync(join(work, `${file}.json`), JSON.stringify(report));
      args[2] = `${file}.json`;
    }
    const r = svc(args, { cwd: work, env: { SVC_HOME: home, SVC_CONFIG: '', SVC_STORE: '' } });
    if (r.status !== 0) throw new Error(`${name}: svc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return { name, class: cls, fedrampId, work, home };
}

function requestLines(file: string): ApiRequestLine[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ApiRequestLine & { msg: string })
    .filter((l) => l.msg === 'request');
}

/** A GET over TLS trusting `ca`, with a client certificate. */
function getTls(url: string, ca: Issued, client: Issued): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca: ca.certPem, cert: client.certPem, key: client.keyPem, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A second server certificate for localhost from the test CA: the same trust, another TLS identity. */
function renewServerCertificate(pki: TestPki, name: string): Issued {
  return signCertificate(pki.dir, pki.ca, name, '/CN=localhost', SERVER_EXTENSIONS);
}

type Answer = { status: number; body: Buffer; headers?: Record<string, string>; delayMs?: number };

/**
 * An HTTPS trust center on loopback answering `answer(path)`: requires `Authorization: Bearer <token>` on everything
 * but /fedramp/public, sends the ETag of the bytes and answers 304 to a matching If-None-Match, JSON with nosniff.
 */
async function handMade(
  dir: string,
  name: string,
  fedrampId: string,
  cert: Issued,
  answer: (path: string) => Answer | undefined,
  options: { port?: number; requests?: ReceivedRequest[] } = {},
): Promise<HandMadeTrustCenter & { server: Server; sockets: Set<Socket> }> {
  const token = createHash('sha256').update(`${name}-token`).digest('hex');
  const tokenFile = join(dir, `${name}.token`);
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const requests = options.requests ?? [];
  const sockets = new Set<Socket>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    const send = (a: Answer) => {
      requests.push({ method: req.method ?? '', path, headers: req.headers, status: a.status });
      const write = () => {
        if (res.destroyed) return;
        res.writeHead(a.status, { 'content-length': String(a.body.length), ...a.headers });
        res.end(a.body);
      };
      if (a.delayMs === undefined) write();
      else setTimeout(write, a.delayMs).unref();
    };
    if (path !== '/fedramp/public' && req.headers.authorization !== `Bearer ${token}`)
      return send(problem(401, 'a bearer token is required', { 'www-authenticate': 'Bearer' }));
    const a = answer(path);
    if (a === undefined) return send(problem(404, `${path}: not served here`));
    const etag = `"${createHash('sha256').update(a.body).digest('hex')}"`;
    if (a.status === 200 && req.headers['if-none-match'] === etag) return send({ ...a, status: 304, body: Buffer.alloc(0), headers: { etag } });
    send({ ...a, headers: { ...(a.status === 200 ? { etag } : {}), ...a.headers } });
  };
  const server = createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, listener);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  const fingerprint = new X509Certificate(cert.certPem).fingerprint256;
  return {
    name,
    url: `https://localhost:${bound}`,
    port: bound,
    fedrampId,
    token,
    tokenFile,
    requests,
    served: (route) => answer(`/fedramp/${route}`)?.body,
    fingerprint: () => fingerprint,
    server,
    sockets,
    stop: () => closeServer(server, sockets),
  };
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

function problem(status: number, detail: string, headers: Record<string, string> = {}): Answer {
  return {
    status,
    body: Buffer.from(JSON.stringify({ title: status === 404 ? 'Not Found' : 'Unauthorized', status, detail })),
    headers: { 'content-type': 'application/problem+json', ...headers },
  };
}

const JSON_HEADERS = { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' };

/** The misbehaving trust center (`delta`): alpha's documents under FR2611250104, wrong as its faults say. */
async function startMisbehaving(dir: string, pki: TestPki, documents: Map<DocumentRoute, Buffer>): Promise<MisbehavingTrustCenter> {
  const fedrampId = 'FR2611250104';
  let faults: Faults = {};
  const answer = (path: string): Answer | undefined => {
    const route = /^\/fedramp\/([a-z]+)$/.exec(path)?.[1] as DocumentRoute | undefined;
    const original = route === undefined ? undefined : documents.get(route);
    if (route === undefined || original === undefined) return undefined;
    if (faults.serverError === route) return { status: 500, body: Buffer.from('Internal Server Error'), headers: { 'content-type': 'text/plain' } };
    let text = original.toString('utf8');
    // Cut short, as a proxy giving up mid-body leaves it.
    if (faults.invalidJson === route) text = text.slice(0, 40);
    if (faults.wrongFedrampId === route) text = text.replaceAll(fedrampId, 'FR2611259999');
    if (faults.staleOcr && (route === 'cpo' || route === 'public'))
      text = text.replace(/"nextOngoingCertificationReportDate":"[^"]*"/, '"nextOngoingCertificationReportDate":"2026-07-31"');
    if (faults.staleOcr && route === 'ocr') text = text.replace(/"reportPeriod":\{[^}]*\}/, '"reportPeriod":{"from":"2026-02-01","to":"2026-04-30"}');
    const cors: Record<string, string> = route === 'public' && !faults.noCors ? { 'access-control-allow-origin': '*' } : {};
    return { status: 200, body: Buffer.from(text), headers: { ...JSON_HEADERS, ...cors }, ...(faults.slow === route ? { delayMs: SLOW_MS } : {}) };
  };
  let current = await handMade(dir, 'delta', fedrampId, pki.server, answer);
  let renewals = 0;
  return {
    name: current.name,
    url: current.url,
    port: current.port,
    fedrampId,
    token: current.token,
    tokenFile: current.tokenFile,
    requests: current.requests,
    setFaults: (f) => {
      faults = { ...f };
    },
    served: (route) => answer(`/fedramp/${route}`)?.body,
    fingerprint: () => current.fingerprint(),
    stop: () => current.stop(),
    async restartWithNewCertificate() {
      await current.stop();
      const cert = renewServerCertificate(pki, `delta-renewed-${++renewals}`);
      // The same port and token, one request list across restarts.
      current = await handMade(dir, 'delta', fedrampId, cert, answer, { port: current.port, requests: current.requests });
    },
  };
}

/** Another tool's trust center (`globex`): hand-written FedRAMP documents (test/fixtures/agency/other-tool), no svc extensions. */
async function startOtherTool(dir: string, pki: TestPki): Promise<HandMadeTrustCenter> {
  const fixtures = join(ROOT, 'test', 'fixtures', 'agency', 'other-tool');
  let base = '';
  const file = (name: string) => Buffer.from(readFileSync(join(fixtures, `${name}.json`), 'utf8').replaceAll('BASE', base));
  const evidence = Buffer.from(JSON.stringify({ check: 'mfa-enforced', result: 'pass', at: '2026-11-20T02:00:00Z' }));
  const answer = (path: string): Answer | undefined => {
    const json = (body: Buffer) => ({ status: 200, body, headers: JSON_HEADERS });
    switch (path) {
      case '/fedramp/public':
        return { ...json(file('public')), headers: { ...JSON_HEADERS, 'access-control-allow-origin': '*' } };
      case '/fedramp/cpo':
      case '/fedramp/sdr':
      case '/fedramp/ocr':
      case '/fedramp/vdr':
      case '/fedramp/avi':
      case '/fedramp/scn':
        return json(file(path.slice('/fedramp/'.length)));
      case '/fedramp/incidents':
        return json(Buffer.from('[]'));
      case '/fedramp/history':
        return {
          status: 403,
          body: Buffer.from(JSON.stringify({ title: 'Forbidden', status: 403, detail: 'your agency is not granted the historical activity' })),
          headers: { 'content-type': 'application/problem+json' },
        };
      case '/evidence/mfa-scan.json':
        return json(evidence);
      default:
        return undefined;
    }
  };
  const server = await handMade(dir, 'globex', 'FR2611250099', pki.server, answer);
  base = server.url;
  return server;
}
