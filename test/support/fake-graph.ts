import { constants, createHash, createPublicKey, verify, X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_ORG_PATH_ATTRIBUTE, type GraphSettings } from '../../src/ports/graph-settings';
import { createTestPki, type TestPki } from './pki';

/** One request the fake received, for assertions. */
export interface RecordedRequest {
  method: string;
  pathname: string;
  query: Record<string, string>;
  authorization?: string;
  body: string;
}

/** A canned answer served instead of the normal one (throttling, outages). */
export interface CannedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeGraphOptions {
  /** Where the test PKI is written. */
  dir: string;
  tenantId: string;
  clientId: string;
  /** The client secret the token endpoint accepts. */
  secret?: string;
  /** PEM certificate whose key signs accepted client assertions. */
  certificatePem?: string;
  /** A Graph export (fixtures/graph-export.json) the Graph endpoints serve. */
  data: GraphData;
  /** Items per page of every collection; default 5. */
  pageSize?: number;
}

export interface GraphData {
  users: Record<string, unknown>[];
  groups: Record<string, unknown>[];
  directoryRoles: (Record<string, unknown> & { members: Record<string, unknown>[] })[];
  userRegistrationDetails: Record<string, unknown>[];
}

export const ISSUED_TOKEN = 'fake-access-token-0123456789';

/**
 * A local HTTPS server on 127.0.0.1 speaking the Microsoft identity platform token endpoint
 * (`POST /<tenant>/oauth2/v2.0/token`, client credentials with a secret or a signed client assertion) and the
 * Microsoft Graph v1.0 endpoints svc calls, served from a Graph export with `$select`, `$top`-sized pages and
 * `@odata.nextLink`. Tests queue canned answers per path (429/503 with Retry-After), forbid paths (403 as when
 * admin consent is missing), and read every request back.
 */
export class FakeGraph {
  readonly requests: RecordedRequest[] = [];
  /** Canned answers per pathname (e.g. `/v1.0/users`), served first, one per request. */
  readonly canned = new Map<string, CannedAnswer[]>();
  /** Pathnames answered 403 Authorization_RequestDenied. */
  readonly forbidden = new Set<string>();
  /** User ids whose PATCH Graph refuses (synchronized from on-premises AD). */
  readonly synced = new Set<string>();
  /** When set, nextLinks point at this host instead of the server's own. */
  nextLinkHost: string | undefined;
  /** When set, the token endpoint answers this instead of a token. */
  tokenAnswer: CannedAnswer | undefined;
  pki!: TestPki;
  private server!: Server;
  host = '';

  constructor(private readonly options: FakeGraphOptions) {}

  /**
   * GraphSettings for an app that signs in to this server with a client secret read from SVC_GRAPH_SECRET (its
   * tenant and client id, its host for both the authority and Graph, its CA), with `overrides` laid over them.
   */
  settings(overrides: Partial<GraphSettings> = {}): GraphSettings {
    return {
      cloud: 'Public',
      tenantId: this.options.tenantId,
      clientId: this.options.clientId,
      credential: { kind: 'secret', secretEnv: 'SVC_GRAPH_SECRET' },
      authorityHost: this.host,
      graphHost: this.host,
      caFile: this.pki.ca.cert,
      orgPathAttribute: DEFAULT_ORG_PATH_ATTRIBUTE,
      retry: { attempts: 3, maxWaitMs: 10_000 },
      ...overrides,
    };
  }

  get tokenRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.pathname.endsWith('/oauth2/v2.0/token'));
  }

  get graphRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.pathname.startsWith('/v1.0/'));
  }

  async start(): Promise<this> {
    this.pki = createTestPki(this.options.dir);
    this.server = createServer({ key: this.pki.server.keyPem, cert: this.pki.server.certPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'https://x');
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          pathname: url.pathname,
          query: Object.fromEntries(url.searchParams),
          authorization: req.headers.authorization,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(recorded);
        const answer = this.answer(recorded, url);
        res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.host = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Serves `data` from now on instead of the directory given at construction (contract suites seed one per test). */
  serve(data: GraphData): void {
    this.options.data = data;
  }

  private answer(r: RecordedRequest, url: URL): CannedAnswer {
    const queue = this.canned.get(r.pathname);
    if (queue && queue.length > 0) return queue.shift() as CannedAnswer;
    if (r.method === 'POST' && r.pathname === `/${this.options.tenantId}/oauth2/v2.0/token`) return this.tokenAnswer ?? this.token(r);
    if (!r.pathname.startsWith('/v1.0/')) return { status: 404, body: { error: { code: 'NotFound', message: 'no such endpoint' } } };
    if (r.authorization !== `Bearer ${ISSUED_TOKEN}`)
      return { status: 401, body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty or invalid.' } } };
    if (this.forbidden.has(r.pathname))
      return { status: 403, body: { error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges to complete the operation.' } } };
    const { data } = this.options;
    const path = r.pathname.slice('/v1.0/'.length);
    if (r.method === 'PATCH') {
      const m = /^users\/([^/]+)$/.exec(path);
      const user = m ? data.users.find((u) => u.id === decodeURIComponent(m[1])) : undefined;
      if (!user) return { status: 404, body: { error: { code: 'Request_ResourceNotFound', message: `Resource '${m?.[1]}' does not exist.` } } };
      if (this.synced.has(user.id as string))
        return {
          status: 400,
          body: {
            error: { code: 'Request_BadRequest', message: 'Unable to update the specified properties for on-premises mastered Directory Sync objects.' },
          },
        };
      const patch = JSON.parse(r.body) as Record<string, unknown>;
      for (const [key, value] of Object.entries(patch)) {
        user[key] = value !== null && typeof value === 'object' ? { ...(user[key] as object), ...(value as object) } : value;
      }
      return { status: 204 };
    }
    if (r.method !== 'GET') return { status: 405, body: { error: { code: 'MethodNotAllowed', message: r.method } } };
    const collections: Record<string, Record<string, unknown>[]> = {
      users: data.users,
      groups: data.groups,
      directoryRoles: data.directoryRoles.map(({ members: _members, ...role }) => role),
      'reports/authenticationMethods/userRegistrationDetails': data.userRegistrationDetails,
    };
    const members = /^directoryRoles\/([^/]+)\/members$/.exec(path);
    let items = collections[path];
    if (members) items = data.directoryRoles.find((role) => role.id === decodeURIComponent(members[1]))?.members ?? (undefined as never);
    if (items === undefined) return { status: 404, body: { error: { code: 'Request_ResourceNotFound', message: `Resource '${path}' does not exist.` } } };
    return { status: 200, body: this.page(items, url, r) };
  }

  private page(items: Record<string, unknown>[], url: URL, r: RecordedRequest): Record<string, unknown> {
    const size = this.options.pageSize ?? 5;
    const skip = Number(r.query.$skiptoken ?? '0');
    const select = r.query.$select?.split(',');
    const project = (item: Record<string, unknown>) =>
      select ? Object.fromEntries(Object.entries(item).filter(([k]) => select.includes(k) || k === '@odata.type')) : item;
    const body: Record<string, unknown> = {
      '@odata.context': `https://${this.host}/v1.0/$metadata#${r.pathname}`,
      value: items.slice(skip, skip + size).map(project),
    };
    if (skip + size < items.length) {
      const next = new URL(url.pathname, `https://${this.nextLinkHost ?? this.host}`);
      for (const [k, v] of Object.entries(r.query)) if (k !== '$skiptoken') next.searchParams.set(k, v);
      next.searchParams.set('$skiptoken', String(skip + size));
      body['@odata.nextLink'] = next.href;
    }
    return body;
  }

  private token(r: RecordedRequest): CannedAnswer {
    const form = new URLSearchParams(r.body);
    const refuse = (description: string): CannedAnswer => ({
      status: 401,
      body: { error: 'invalid_client', error_description: description, error_codes: [7000215] },
    });
    if (form.get('grant_type') !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'AADSTS70003: grant_type' } };
    if (form.get('client_id') !== this.options.clientId)
      return { status: 400, body: { error: 'unauthorized_client', error_description: 'AADSTS700016: Application not found in the directory.' } };
    if (form.get('scope') !== 'https://graph.microsoft.com/.default')
      return { status: 400, body: { error: 'invalid_scope', error_description: `AADSTS70011: scope ${form.get('scope')}` } };
    const secret = form.get('client_secret');
    const assertion = form.get('client_assertion');
    if (secret !== null) {
      if (secret !== this.options.secret) return refuse('AADSTS7000215: Invalid client secret provided.');
    } else if (assertion !== null) {
      if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' || !this.assertionValid(assertion))
        return refuse('AADSTS700027: Client assertion failed signature validation.');
    } else {
      return refuse('AADSTS7000216: client_assertion or client_secret is required.');
    }
    return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: ISSUED_TOKEN } };
  }

  /** Verifies the client assertion JWT: signed by the certificate's key (RS256 or PS256), naming it by thumbprint, for this client and endpoint. */
  private assertionValid(jwt: string): boolean {
    const pem = this.options.certificatePem;
    if (!pem) return false;
    const [h, p, s] = jwt.split('.');
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, string>;
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    const cert = new X509Certificate(pem);
    const der = cert.raw;
    const sha1 = createHash('sha1').update(der).digest('base64url');
    const sha256 = createHash('sha256').update(der).digest('base64url');
    if (header.alg === 'PS256' ? header['x5t#S256'] !== sha256 : header.x5t !== sha1) return false;
    if (payload.iss !== this.options.clientId || payload.sub !== this.options.clientId) return false;
    if (payload.aud !== `https://${this.host}/${this.options.tenantId}/oauth2/v2.0/token`) return false;
    const key = createPublicKey(pem);
    const data = Buffer.from(`${h}.${p}`);
    const signature = Buffer.from(s, 'base64url');
    if (header.alg === 'PS256') return verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
    if (header.alg === 'RS256') return verify('sha256', data, key, signature);
    return false;
  }
}

/** An RSA key and self-signed certificate for an app registration (MSAL signs client assertions with RSA only). */
export function createAppCertificate(dir: string): { key: string; cert: string; certPem: string; sha1: string; sha256: string } {
  const key = join(dir, 'app.key');
  const cert = join(dir, 'app.crt');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=svc-graph-app'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const certPem = readFileSync(cert, 'utf8');
  const x509 = new X509Certificate(certPem);
  const hex = (f: string) => f.replace(/:/g, '').toLowerCase();
  return { key, cert, certPem, sha1: hex(x509.fingerprint), sha256: hex(x509.fingerprint256) };
}

export function loadGraphExport(): GraphData & { tenant_id: string; cloud: string } {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'graph-export.json'), 'utf8')) as GraphData & { tenant_id: string; cloud: string };
}
