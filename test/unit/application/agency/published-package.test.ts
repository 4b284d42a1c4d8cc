import { createHash } from 'node:crypto';
import { PACKAGE_FINDING_CODES, PACKAGE_REPOSITORY_TYPE, PullProviders, packageRepository } from '../../../../src/application/agency/pull-providers';
import type { AgencyProvider } from '../../../../src/domain/agency/providers';
import type { AgencyPull, PulledDocumentName } from '../../../../src/domain/agency/pulled-documents';
import { toBase64 } from '../../../../src/domain/encoding/base64';
import {
  PACKAGE_ENVELOPE_FILE,
  PACKAGE_MANIFEST_FILE,
  packageManifest,
  packageStatement,
  type PackageFacts,
} from '../../../../src/domain/fedramp/certification-package';
import { IN_TOTO_PAYLOAD_TYPE, pae, type DsseEnvelope } from '../../../../src/domain/signing/dsse';
import { FEDRAMP_RULES_SOURCE } from '../../../../src/ports/fedramp-rules-source';
import { HASHING, type Hashing } from '../../../../src/ports/hashing';
import { SIGNER, type Signer } from '../../../../src/ports/signer';
import { TrustCenterFailure } from '../../../../src/ports/trust-center-client';
import { builtInRules, FixedRulesSource } from '../../../fakes/fixed-rules-source';
import { JSON_HEADERS, type ScriptedTrustCenterClient } from '../../../fakes/scripted-trust-center-client';
import { unitContainer, type UnitDoubles } from '../../../support/unit-container';
import { ACME, BASE, PULL_1 } from './agency-fixtures';

const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PACKAGE_URL = `${BASE}/packages/2026-11`;
const PUBLIC = { serviceIdentification: { fedRampPackageId: 'FR2611250001', serviceName: 'Acme Cloud' }, trustCenter: { certificationClass: 'B' } };
const FACTS: PackageFacts = {
  fedRampPackageId: 'FR2611250001',
  packageUri: `${BASE}/fedramp/cpo`,
  rulesVersion: '25.11A',
  type: '20x',
  class: 'B',
  generatedAt: '2026-09-30T00:00:00Z',
  tool: { name: 'svc', version: '1.0.0' },
  input: { name: 'prowler.json', sha256: 'ab'.repeat(32) },
  initial: false,
  sampleOcr: false,
};
/** The package's files but the manifest and the envelope. */
const CONTENT: Record<string, string> = {
  'cpo.json': '{"serviceIdentification":{"fedRampPackageId":"FR2611250001"}}\n',
  'cpo.md': '# Certification Package Overview\n',
  'sdr.json': '{"keySecurityIndicators":[]}\n',
  'sdr.md': '# Security Decision Record\n',
};

/** A certification package as `svc fedramp package` writes one (manifest, in-toto statement, DSSE envelope), signed by `signer`'s key. */
async function aPackage(signer: Signer, hashing: Hashing): Promise<{ files: Map<string, Uint8Array>; keyid: string }> {
  const encode = (text: string) => new TextEncoder().encode(text);
  const written = Object.entries(CONTENT).map(([name, text]) => ({ name, sha256: sha(text), bytes: Buffer.byteLength(text) }));
  const manifest = packageManifest(FACTS, written, hashing);
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const payload = encode(hashing.canonicalize(packageStatement(manifest, sha(manifestText))));
  const key = await signer.load();
  const envelope: DsseEnvelope = {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: toBase64(payload),
    signatures: [{ keyid: key.keyid, sig: toBase64(key.sign(pae(IN_TOTO_PAYLOAD_TYPE, payload))), jwk: key.publicJwk }],
  };
  const files = new Map(Object.entries(CONTENT).map(([name, text]) => [name, encode(text)]));
  files.set(PACKAGE_MANIFEST_FILE, encode(manifestText));
  files.set(PACKAGE_ENVELOPE_FILE, encode(`${JSON.stringify(envelope, null, 2)}\n`));
  return { files, keyid: key.keyid };
}

/** A CPO publishing its package at `url` as FedRAMP's `$defs/repository`, with `type` as its repository type. */
function cpoPublishing(url: string, type = PACKAGE_REPOSITORY_TYPE): Record<string, unknown> {
  return {
    ...PULL_1.cpo,
    serviceProperties: {
      ...PULL_1.cpo.serviceProperties,
      additionalRepositories: [
        { repositoryType: ['Secure Configuration Guidance'], url: `${BASE}/scg`, repositoryDescription: 'Guides', authenticationRequired: false },
        {
          repositoryType: ['Assessment Reports', type],
          url,
          repositoryDescription: 'The signed package',
          authenticationRequired: true,
          accessRequestInstructions: 'Ask',
        },
      ],
    },
  };
}

function serveDocuments(client: ScriptedTrustCenterClient, cpo: unknown): void {
  const documents: Partial<Record<PulledDocumentName, unknown>> = { public: PUBLIC, ...PULL_1, cpo };
  for (const [name, json] of Object.entries(documents) as [PulledDocumentName, unknown][]) {
    const body = JSON.stringify(json);
    const etag = `"${sha(body).slice(0, 16)}"`;
    client.script(`${BASE}/fedramp/${name}`, (request) =>
      request.etag === etag ? { status: 304, headers: { etag } } : { body, headers: { ...JSON_HEADERS, etag, 'access-control-allow-origin': '*' } },
    );
  }
}

function servePackage(client: ScriptedTrustCenterClient, url: string, files: ReadonlyMap<string, Uint8Array>): void {
  for (const [name, bytes] of files) client.script(`${url}/${name}`, { body: bytes, headers: { 'content-type': 'application/octet-stream' } });
}

interface World extends UnitDoubles {
  pull: (deep?: boolean) => Promise<AgencyPull>;
  made: { files: Map<string, Uint8Array>; keyid: string };
  packageRequests: () => string[];
}

async function world(options: { cpo?: unknown; providers?: AgencyProvider[] } = {}): Promise<World> {
  const doubles = unitContainer({ now: '2026-10-01T00:00:00Z', agency: { providers: options.providers ?? [ACME] } });
  const made = await aPackage(doubles.container.resolve(SIGNER), doubles.container.resolve(HASHING));
  serveDocuments(doubles.trustCenters, options.cpo ?? cpoPublishing(PACKAGE_URL));
  servePackage(doubles.trustCenters, PACKAGE_URL, made.files);
  return {
    ...doubles,
    made,
    pull: async (deep) => (await doubles.container.resolve(PullProviders).execute(deep === true ? { deep } : {})).pulls[0]!,
    packageRequests: () => doubles.trustCenters.requests.filter((r) => !r.url.startsWith(`${BASE}/fedramp/`)).map((r) => r.url),
  };
}

const packageFindings = (pull: AgencyPull) => pull.findings.filter((f) => PACKAGE_FINDING_CODES.includes(f.code));
const AT = '$.serviceProperties.additionalRepositories[1].url';

describe('PullProviders: the certification package the CPO publishes', () => {
  it('fetches the envelope, the manifest and every file through the trust center session, verifies them, and records it with no finding', async () => {
    const w = await world();
    const pull = await w.pull();

    expect(w.packageRequests()).toEqual(
      [PACKAGE_ENVELOPE_FILE, PACKAGE_MANIFEST_FILE, 'cpo.json', 'cpo.md', 'sdr.json', 'sdr.md'].map((name) => `${PACKAGE_URL}/${name}`),
    );
    expect(w.trustCenters.requests.filter((r) => r.url.startsWith(PACKAGE_URL)).every((r) => r.provider === 'acme' && r.etag === undefined)).toBe(true);
    expect(pull.package).toEqual({ url: PACKAGE_URL, verified: true, files: 6, keyid: w.made.keyid });
    expect(packageFindings(pull)).toEqual([]);
    expect(w.trustCenters.closed).toEqual(['acme']);
  });

  it('one byte of a file changed: one action citing FRC-CSO-PKG and the CPO repository, worded as svc ir validate words it', async () => {
    const w = await world();
    const changed = Uint8Array.from(w.made.files.get('sdr.json')!);
    changed[2] ^= 1;
    w.trustCenters.script(`${PACKAGE_URL}/sdr.json`, { body: changed });
    const pull = await w.pull();

    const message = `${PACKAGE_URL}/sdr.json: sha256 is sha256:${sha(changed)}, manifest.json says sha256:${sha(CONTENT['sdr.json']!)}; the package was changed after it was signed`;
    expect(packageFindings(pull)).toEqual([{ level: 'action', rule: 'FRC-CSO-PKG', code: 'package-invalid', document: 'cpo', at: AT, message }]);
    expect(pull.package).toEqual({ url: PACKAGE_URL, verified: false, files: 6, error: message });
  });

  it('a signature that does not verify: an action naming the key, before any other file is fetched', async () => {
    const w = await world();
    const envelope = JSON.parse(new TextDecoder().decode(w.made.files.get(PACKAGE_ENVELOPE_FILE))) as DsseEnvelope;
    const sig = Buffer.from(envelope.signatures[0].sig, 'base64');
    sig[0] ^= 1;
    envelope.signatures[0].sig = sig.toString('base64');
    w.trustCenters.script(`${PACKAGE_URL}/${PACKAGE_ENVELOPE_FILE}`, { body: JSON.stringify(envelope) });
    const pull = await w.pull();

    const message = `${PACKAGE_URL}/package.dsse.json: the EdDSA signature does not verify with key ${w.made.keyid}; the package was changed after it was signed`;
    expect(packageFindings(pull)).toEqual([{ level: 'action', rule: 'FRC-CSO-PKG', code: 'package-invalid', document: 'cpo', at: AT, message }]);
    expect(pull.package).toEqual({ url: PACKAGE_URL, verified: false, files: 1, error: message });
    expect(w.packageRequests()).toEqual([`${PACKAGE_URL}/${PACKAGE_ENVELOPE_FILE}`]);
  });

  it('a file the manifest names that answers 404: the package is incomplete (an action)', async () => {
    const w = await world();
    w.trustCenters.script(`${PACKAGE_URL}/cpo.md`, { status: 404, json: { title: 'Not Found' } });
    const pull = await w.pull();

    expect(packageFindings(pull).map((f) => [f.level, f.code, f.message])).toEqual([
      ['action', 'package-invalid', `${PACKAGE_URL}/cpo.md: missing; the package is incomplete`],
    ]);
    expect(pull.package).toMatchObject({ verified: false, files: 3 });
  });

  it('a package that cannot be fetched (HTTP 403, unreachable): a notice saying it was not verified', async () => {
    const w = await world();
    w.trustCenters.script(`${PACKAGE_URL}/${PACKAGE_MANIFEST_FILE}`, { status: 403, json: { title: 'Forbidden', detail: 'not granted to this principal' } });
    const denied = await w.pull();
    expect(packageFindings(denied)).toEqual([
      {
        level: 'notice',
        rule: 'FRC-CSO-PKG',
        code: 'package-unreachable',
        document: 'cpo',
        at: AT,
        message: `${PACKAGE_URL}/manifest.json: HTTP 403 not granted to this principal; the certification package at ${PACKAGE_URL} could not be read, so it was not verified`,
      },
    ]);
    expect(denied.package).toMatchObject({ url: PACKAGE_URL, verified: false, files: 1 });

    w.trustCenters.script(
      `${PACKAGE_URL}/${PACKAGE_ENVELOPE_FILE}`,
      new TrustCenterFailure('unreachable', `${PACKAGE_URL}/package.dsse.json: unreachable (ECONNRESET)`, 3),
    );
    w.trustCenters.script(`${BASE}/fedramp/cpo`, { json: cpoPublishing(`${PACKAGE_URL}/`) });
    const down = await w.pull();
    expect(packageFindings(down).map((f) => f.message)).toEqual([
      `${PACKAGE_URL}/package.dsse.json: unreachable (ECONNRESET); the certification package at ${PACKAGE_URL} could not be read, so it was not verified`,
    ]);
  });

  it("a package on another origin than the trust center's is not fetched (the agency's credentials go nowhere else): a notice", async () => {
    const elsewhere = 'https://downloads.acme.example/pkg';
    const w = await world({ cpo: cpoPublishing(elsewhere) });
    servePackage(w.trustCenters, elsewhere, w.made.files);
    const pull = await w.pull();

    const message = `${elsewhere}: the certification package is not on the trust center's origin (${BASE}); not fetched, so the agency's credentials go nowhere else: download it and run svc ir validate on its directory`;
    expect(packageFindings(pull)).toEqual([{ level: 'notice', rule: 'FRC-CSO-PKG', code: 'package-elsewhere', document: 'cpo', at: AT, message }]);
    expect(pull.package).toEqual({ url: elsewhere, verified: false, files: 0, error: message });
    expect(w.packageRequests()).toEqual([]);
  });

  it('another port or scheme of the same host is another origin too', async () => {
    for (const elsewhere of [`${BASE}:8443/pkg`, BASE.replace('https:', 'http:') + '/pkg', 'ftp://trust.acme.example/pkg']) {
      const w = await world({ cpo: cpoPublishing(elsewhere) });
      const pull = await w.pull();
      expect([packageFindings(pull).map((f) => f.code), w.packageRequests()]).toEqual([['package-elsewhere'], []]);
    }
  });

  it('checked when the CPO is fetched anew, or with --deep; otherwise the last check and its finding are carried', async () => {
    const w = await world();
    const changed = Uint8Array.from(w.made.files.get('cpo.md')!);
    changed[0] ^= 1;
    w.trustCenters.script(`${PACKAGE_URL}/cpo.md`, { body: changed });
    const first = await w.pull();
    expect(packageFindings(first).map((f) => f.code)).toEqual(['package-invalid']);
    const fetched = w.packageRequests().length;

    const second = await w.pull();
    expect(second.documents.find((d) => d.name === 'cpo')!.outcome).toBe('unchanged');
    expect(w.packageRequests()).toHaveLength(fetched);
    expect([second.package, packageFindings(second)]).toEqual([first.package, packageFindings(first)]);

    servePackage(w.trustCenters, PACKAGE_URL, w.made.files);
    const deep = await w.pull(true);
    expect(w.packageRequests()).toHaveLength(fetched * 2);
    expect([deep.package, packageFindings(deep)]).toEqual([{ url: PACKAGE_URL, verified: true, files: 6, keyid: w.made.keyid }, []]);
  });

  it('a CPO naming no certification package: nothing fetched beyond the documents, no record, no finding', async () => {
    const w = await world({ cpo: PULL_1.cpo });
    const pull = await w.pull();
    expect([w.packageRequests(), pull.package, packageFindings(pull)]).toEqual([[], undefined, []]);
  });

  it('cites svc:package when the rules release in use does not hold FRC-CSO-PKG', async () => {
    const w = await world();
    const rules = builtInRules();
    w.container.register(FEDRAMP_RULES_SOURCE, { useValue: new FixedRulesSource({ ...rules, rules: rules.rules.filter((r) => r.id !== 'FRC-CSO-PKG') }) });
    w.trustCenters.script(`${PACKAGE_URL}/sdr.md`, { body: 'changed\n' });
    const pull = await w.pull();
    expect(packageFindings(pull).map((f) => [f.rule, f.code])).toEqual([['svc:package', 'package-invalid']]);
  });
});

describe('packageRepository', () => {
  const cpo = (repositories: unknown) => ({ serviceProperties: { additionalRepositories: repositories } });

  it('the first repository typed "Certification Package" (any case), its url without a trailing slash, with its JSON path', () => {
    expect(
      packageRepository(
        cpo([
          { repositoryType: ['Trust Center'], url: 'https://a.example/tc' },
          { repositoryType: ['Assessment Reports', ' certification PACKAGE '], url: 'https://a.example/pkg//' },
          { repositoryType: ['Certification Package'], url: 'https://a.example/other' },
        ]),
      ),
    ).toEqual({ url: 'https://a.example/pkg', at: '$.serviceProperties.additionalRepositories[1].url' });
  });

  it('none for a CPO without one, or with repositories not shaped as FedRAMP defines them', () => {
    expect(packageRepository(undefined)).toBeUndefined();
    expect(packageRepository({})).toBeUndefined();
    expect(packageRepository({ serviceProperties: { trustCenter: { repositoryType: ['Certification Package'], url: 'https://a.example' } } })).toBeUndefined();
    expect(
      packageRepository(
        cpo([
          'https://a.example/pkg',
          { repositoryType: 'Certification Package', url: 'https://a.example/pkg' },
          { repositoryType: ['Certification Package'], url: 42 },
          { repositoryType: [7], url: 'https://a.example/pkg' },
        ]),
      ),
    ).toBeUndefined();
  });
});
