import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgencyFinding, AgencyPull } from '../../../src/domain/agency/pulled-documents';
import { json, startStubTrustCenter, type StubTrustCenter } from '../../support/agency-servers';
import { FEDRAMP_SCHEMAS } from '../../support/fedramp-schemas';
import { PACKAGE_PROFILE, prowlerPackageReport } from '../../support/fedramp-profile';
import { startSvc, svc, type SvcRun } from '../../support/run-svc';

/**
 * `svc agency pull` verifying the signed certification package a provider's CPO publishes: a real package written by
 * the built `svc fedramp package`, served from a loopback trust center whose CPO lists it as a repository typed
 * "Certification Package", pulled by the built CLI.
 */
const EPOCH = String(Date.parse('2026-11-20T09:00:00Z') / 1000);
const NOW = '2026-11-25T00:00:00Z';
const PACKAGE_CODES = ['package-invalid', 'package-elsewhere', 'package-unreachable'];

let tmp: string;
let pkg: string;
let agencyDir: string;
let trustCenter: StubTrustCenter;
let elsewhere: StubTrustCenter;
/** Where the trust center's CPO says the package is. */
let packageUrl: string;

const packageFile = (name: string) => join(pkg, name);
/** Serves the package directory's files as they are on disk at each request, under `/package/`. */
const servePackage = (path: string, res: Parameters<Parameters<typeof startStubTrustCenter>[0]>[1]) => {
  const name = decodeURIComponent(path.slice('/package/'.length));
  if (name.includes('/') || !existsSync(packageFile(name))) return json(res, 404, { title: 'Not Found', status: 404 });
  const bytes = readFileSync(packageFile(name));
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
  res.end(bytes);
};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-published-package-'));
  const provider = join(tmp, 'provider');
  mkdirSync(provider);
  writeFileSync(join(provider, 'svc.config.json'), JSON.stringify({ fedramp: PACKAGE_PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
  writeFileSync(join(provider, 'fresh.json'), JSON.stringify(prowlerPackageReport('2026-11-24T08:00:00Z')));
  const env = { SVC_HOME: join(provider, '.svc'), SOURCE_DATE_EPOCH: EPOCH, SVC_CACHE_DIR: join(tmp, 'cache'), SVC_CONFIG: '', SVC_STORE: '' };
  expect(svc(['conmon', 'process', 'fresh.json'], { cwd: provider, env }).status).toBe(0);
  const made = svc(['fedramp', 'package', 'fresh.json', '--out-dir', 'pkg', '--now', NOW], { cwd: provider, env });
  expect(made.status).toBe(0);
  // The development key: a key of its own proves no more here (the agency trusts the key the envelope carries).
  expect(made.stderr).toMatch(/^Warning: no signing key given \(--key or SVC_SIGNING_KEY\): signed with the development key /);
  pkg = join(provider, 'pkg');

  trustCenter = await startStubTrustCenter((req, res) => {
    const path = req.url ?? '';
    if (path === '/fedramp/public') return json(res, 200, { serviceIdentification: { serviceName: 'Acme Cloud' } }, { 'access-control-allow-origin': '*' });
    if (path === '/fedramp/cpo')
      return json(res, 200, {
        serviceIdentification: { serviceName: 'Acme Cloud' },
        serviceProperties: {
          additionalRepositories: [
            { repositoryType: ['Certification Package'], url: packageUrl, repositoryDescription: 'The signed package', authenticationRequired: false },
          ],
        },
      });
    if (path.startsWith('/package/')) return servePackage(path, res);
    return json(res, 404, { title: 'Not Found', status: 404 });
  });
  elsewhere = await startStubTrustCenter((req, res) => servePackage(req.url ?? '', res));
  packageUrl = `${trustCenter.url}/package`;

  agencyDir = join(tmp, 'agency');
  mkdirSync(agencyDir);
  expect(agency(['agency', 'add', 'acme', '--url', trustCenter.url]).status).toBe(0);
}, 120_000);
afterAll(async () => {
  await Promise.all([trustCenter?.close(), elsewhere?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

function agency(args: string[]): SvcRun {
  return svc(args, { cwd: agencyDir, env: { SVC_HOME: join(agencyDir, '.svc'), SVC_CONFIG: '', SVC_STORE: '' } });
}

/** `svc agency pull --json` run beside the stub servers (not blocking them), its pull of acme. */
async function pull(): Promise<{ run: SvcRun; pull: AgencyPull; findings: AgencyFinding[] }> {
  const run = await startSvc(['agency', 'pull', '--json'], { cwd: agencyDir, env: { SVC_HOME: join(agencyDir, '.svc'), SVC_CONFIG: '', SVC_STORE: '' } }).done;
  const [pulled] = (JSON.parse(run.stdout) as { pulls: AgencyPull[] }).pulls;
  return { run, pull: pulled!, findings: pulled!.findings.filter((f) => PACKAGE_CODES.includes(f.code)) };
}

/** Runs `change` on the package's file `name`, then `check`, then puts the file back. */
async function withChanged(name: string, change: (bytes: Buffer) => Buffer, check: () => Promise<void>): Promise<void> {
  const original = readFileSync(packageFile(name));
  writeFileSync(packageFile(name), change(Buffer.from(original)));
  try {
    await check();
  } finally {
    writeFileSync(packageFile(name), original);
  }
}

describe('svc agency pull: the certification package the CPO publishes', () => {
  it('verified: every file fetched from the trust center, no finding, the package recorded with its key id', async () => {
    const envelope = JSON.parse(readFileSync(packageFile('package.dsse.json'), 'utf8')) as { signatures: { keyid: string }[] };
    const manifest = JSON.parse(readFileSync(packageFile('manifest.json'), 'utf8')) as { files: Record<string, unknown> };
    const before = trustCenter.requests.length;
    const { run, pull: p, findings } = await pull();

    expect(run.status).toBe(0);
    expect(findings).toEqual([]);
    expect(p.package).toEqual({ url: packageUrl, verified: true, files: Object.keys(manifest.files).length + 2, keyid: envelope.signatures[0]!.keyid });
    const fetched = trustCenter.requests.slice(before).flatMap((r) => (r.path.startsWith('/package/') ? [r.path.slice('/package/'.length)] : []));
    expect(fetched).toEqual(['package.dsse.json', 'manifest.json', ...Object.keys(manifest.files)]);
    // status says it, one line.
    const status = agency(['agency', 'status', '--now', NOW]);
    expect(status.stdout.split('\n')).toContain(
      `  Package: verified, ${Object.keys(manifest.files).length + 2} files signed by ${envelope.signatures[0]!.keyid} at ${packageUrl}`,
    );
  });

  it('one byte of a file changed: exactly one action naming the file and both digests', async () => {
    await withChanged(
      'sdr.md',
      (bytes) => {
        bytes[0] = bytes[0]! ^ 1;
        return bytes;
      },
      async () => {
        const { run, pull: p, findings } = await pull();
        expect(run.status).toBe(0);
        expect(findings).toHaveLength(1);
        expect(findings[0]).toMatchObject({ level: 'action', rule: 'FRC-CSO-PKG', code: 'package-invalid', document: 'cpo' });
        expect(findings[0]!.message).toMatch(
          new RegExp(
            `^${packageUrl}/sdr\\.md: sha256 is sha256:[0-9a-f]{64}, manifest\\.json says sha256:[0-9a-f]{64}; the package was changed after it was signed$`,
          ),
        );
        expect(p.package).toMatchObject({ url: packageUrl, verified: false, error: findings[0]!.message });
      },
    );
  });

  it("the envelope's signature broken: an action naming the key it does not verify with", async () => {
    await withChanged(
      'package.dsse.json',
      (bytes) => {
        const envelope = JSON.parse(bytes.toString('utf8')) as { signatures: { sig: string; keyid: string }[] };
        const sig = Buffer.from(envelope.signatures[0]!.sig, 'base64');
        sig[sig.length - 1] = sig[sig.length - 1]! ^ 1;
        envelope.signatures[0]!.sig = sig.toString('base64');
        return Buffer.from(JSON.stringify(envelope, null, 2));
      },
      async () => {
        const [signature] = (JSON.parse(readFileSync(packageFile('package.dsse.json'), 'utf8')) as { signatures: { keyid: string; jwk: { alg: string } }[] })
          .signatures;
        const { findings, pull: p } = await pull();
        expect(findings.map((f) => [f.level, f.code, f.message])).toEqual([
          [
            'action',
            'package-invalid',
            `${packageUrl}/package.dsse.json: the ${signature!.jwk.alg} signature does not verify with key ${signature!.keyid}; the package was changed after it was signed`,
          ],
        ]);
        expect(p.package).toMatchObject({ verified: false, files: 1 });
      },
    );
  });

  it('a package on another origin: a notice, and nothing fetched there', async () => {
    packageUrl = `${elsewhere.url}/package`;
    try {
      const { run, findings, pull: p } = await pull();
      expect(run.status).toBe(0);
      expect(findings.map((f) => [f.level, f.code])).toEqual([['notice', 'package-elsewhere']]);
      expect(findings[0]!.message).toBe(
        `${packageUrl}: the certification package is not on the trust center's origin (${trustCenter.url}); not fetched, so the agency's credentials go nowhere else: download it and run svc ir validate on its directory`,
      );
      expect(p.package).toEqual({ url: packageUrl, verified: false, files: 0, error: findings[0]!.message });
      expect(elsewhere.requests).toEqual([]);
    } finally {
      packageUrl = `${trustCenter.url}/package`;
    }
  });
});
