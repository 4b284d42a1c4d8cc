import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { ProcessRun } from '../../../../src/application/conmon/process-run';
import { WriteOcr } from '../../../../src/application/fedramp/write-ocr';
import { WritePackage, type WritePackageInput } from '../../../../src/application/fedramp/write-package';
import { ConfigError } from '../../../../src/domain/errors';
import type { Cr26DocumentType } from '../../../../src/domain/fedramp/cr26-documents';
import type { FedrampProfile } from '../../../../src/domain/fedramp/profile';
import type { OscalProblem } from '../../../../src/domain/oscal/oscal-problem';
import type { FedrampSchemaSet } from '../../../../src/ports/schema-validator';
import { FixedSchemaValidator } from '../../../fakes/fixed-schema-validator';
import { TEST_SETTINGS } from '../../../support/builders';
import { verifyDsseEnvelope } from '../../../support/dsse-verifier';
import { PACKAGE_PROFILE, prowlerPackageReport as report } from '../../../support/fedramp-profile';
import { unitContainer, type UnitOptions } from '../../../support/unit-container';

// The e2e test's inputs (test/e2e/fedramp-package.test.ts): a Prowler report of CR26 ids observed the day before --now
// (KSI-IAM-APM passing, KSI-CNA-RNT failing with a configuration finding on vpc-0a1b, medium: N3 by the default
// policy), and one of the same KSIs half a year old; the complete 20x Class B profile. Digests are computed here from
// the bytes the writer double holds; the signature is checked by test/support/dsse-verifier.ts, from the DSSE spec.

const hex = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const NOW = '2026-11-25T00:00:00Z';
const PROFILE = PACKAGE_PROFILE as unknown as FedrampProfile;
const PACKAGE_URI = PACKAGE_PROFILE.package_uri;
const GROUP = `VG-${hex('vpc_flow_logs_enabled').slice(0, 16)}`;

const FRESH = report('2026-11-24T08:00:00Z', { ksi_id: 'KSI-AC-02', status: 'WARN', observed_at: '2026-11-24T08:00:00Z' });
const OLD = report('2026-05-04T08:00:00Z');
const FILES = { '/work/fresh.json': FRESH, '/work/old.json': OLD };

const VULNERABILITY_FILES = ['vdr.json', 'vdr.md', 'avi.json', 'avi.md', 'vulnerability-history.json', 'vulnerability-history.md'];
/** The package's files in the order they are written: the documents and twins, the manifest, the envelope. */
const WRITTEN = ['cpo.json', 'cpo.md', 'sdr.json', 'sdr.md', 'ocr-sample.json', 'ocr-sample.md', ...VULNERABILITY_FILES, 'manifest.json', 'package.dsse.json'];
const SAMPLE_NOTE =
  'SAMPLE: an example Ongoing Certification Report that svc built from its run store for the certification package (FRC-CSO-PKG asks for a real or example OCR); no OCR has been recorded for this period.';

/** The use case over the doubles at --now, with the runs of `recorded` (fresh.json by default) recorded by conmon process. */
async function pkg(options: UnitOptions & { recorded?: [string, string][] } = {}) {
  const { recorded = [['/work/fresh.json', '2026-11-24T09:00:00Z']], ...unit } = options;
  const d = unitContainer({ now: NOW, profile: PROFILE, files: FILES, ...unit });
  for (const [input, now] of recorded) await d.container.resolve(ProcessRun).execute({ input, now: new Date(now) });
  const write = (input: Partial<WritePackageInput> = {}) => d.container.resolve(WritePackage).execute({ outDir: '/pkg', ...input });
  const file = (name: string) => d.writer.files.get(`/pkg/${name}`)!;
  const json = (name: string) => JSON.parse(file(name));
  return { ...d, write, file, json };
}

/** FedRAMP's schemas that reject the documents of one type (and accept the rest). */
class Rejecting extends FixedSchemaValidator {
  constructor(
    private readonly type: Cr26DocumentType,
    private readonly problem: OscalProblem,
  ) {
    super();
  }

  override async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    const set = await super.locateFedramp(dir);
    return { ...set, files: { ...set.files, cpo: `/fedramp-schemas/${CPO_SCHEMA}` } };
  }

  override async validateFedramp(set: FedrampSchemaSet, type: Cr26DocumentType): Promise<OscalProblem[]> {
    await super.validateFedramp(set, type);
    return type === this.type ? [this.problem] : [];
  }
}
const CPO_SCHEMA = 'fedramp-certification-package-overview-schema-2026-06-24.json';

/** No FedRAMP schemas anywhere: none configured, and svc installed without its own (the real validator's ConfigError). */
class NoFedrampSchemas extends FixedSchemaValidator {
  override async locateFedramp(dir?: string): Promise<FedrampSchemaSet> {
    throw new ConfigError('fedramp-schemas-missing', `FedRAMP schemas not found${dir === undefined ? '' : ` in ${dir}`}`);
  }
}

describe('WritePackage (svc fedramp package), unit', () => {
  it("writes the package of the store's state: every document with its twin, a manifest of their digests, a signed statement naming every file", async () => {
    const d = await pkg();
    const result = await d.write();
    expect([...d.writer.files.keys()]).toEqual(WRITTEN.map((name) => `/pkg/${name}`));
    const listed = WRITTEN.filter((name) => name !== 'package.dsse.json');
    const documents = listed.filter((name) => name !== 'manifest.json');
    // The aggregate hash as `sha256sum` lines, in file-name order, over every file but the manifest and the envelope.
    const aggregate = `sha256:${hex(
      [...documents]
        .sort()
        .map((name) => `${hex(d.file(name))}  ${name}\n`)
        .join(''),
    )}`;
    expect(result).toMatchObject({
      written: true,
      out_dir: '/pkg',
      files: listed.map((name) => ({ name, sha256: `sha256:${hex(d.file(name))}`, bytes: Buffer.byteLength(d.file(name)) })),
      aggregate_hash: aggregate,
      envelope: 'package.dsse.json',
      algorithm: 'EdDSA',
      key: { kind: 'development', path: '/home/.svc/dev-signing-key.pem', created: false },
      sample_ocr: true,
      notes: ['ocr-sample.json is a sample built from the run store: no OCR is recorded for this period (FRC-CSO-PKG asks for a real or example OCR)'],
      validated: { schemas: '/fedramp-schemas' },
      judged: { store: 'memory', sources: [{ source: 'Prowler', seq: 1, as_of: '2026-11-24T08:00:00Z' }] },
    });
    // As the e2e test's CLI output says: "SDR: 155 rules (no statement supplied 146), 46 KSIs (no evidence 36)".
    expect(result.written && result.sdr).toMatchObject({
      profile: { type: '20x', class: 'B' },
      rules: '2026.10.05.01',
      requirements: { total: 155, none: 146 },
      ksis: { total: 46, no_evidence: 36 },
    });

    const facts = {
      fedRampPackageId: 'FR2611250001',
      packageUri: PACKAGE_URI,
      rulesVersion: '2026.10.05.01',
      type: '20x',
      class: 'B',
      generatedAt: NOW,
      tool: TEST_SETTINGS.tool,
      input: { name: 'fresh.json', sha256: `sha256:${hex(JSON.stringify(FRESH))}` },
      initial: false,
      sampleOcr: true,
    };
    const manifest = d.json('manifest.json');
    expect(manifest).toEqual({
      schema: 'svc.fedramp-package/v1',
      package: facts,
      // The fixed validator's set holds the SDR's schema alone, without common definitions.
      schemas: {},
      files: Object.fromEntries(
        [...documents].sort().map((name) => [
          name,
          {
            sha256: `sha256:${hex(d.file(name))}`,
            bytes: Buffer.byteLength(d.file(name)),
            ...(name === 'sdr.json' ? { schema: { type: 'sdr', file: 'sdr.json', $schemaVersion: '1.1.1', sha256: `sha256:${'a'.repeat(64)}` } } : {}),
          },
        ]),
      ),
      aggregate_hash: aggregate,
    });
    expect(d.file('manifest.json')).toBe(`${JSON.stringify(manifest, null, 2)}\n`);

    const envelope = verifyDsseEnvelope(d.file('package.dsse.json'));
    expect(envelope.keyid).toBe(result.written && result.keyid);
    const statement = JSON.parse(envelope.payload.toString('utf8'));
    expect(envelope.payload.toString('utf8')).toBe(canonicalize(statement));
    expect(statement).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [...listed].sort().map((name) => ({ name, digest: { sha256: hex(d.file(name)) } })),
      predicateType: 'https://github.com/svc-compliance/svc/fedramp-package/v1',
      predicate: facts,
    });
    // Every CR26 document validated (the CPO once more by BuildCpo, which builds it).
    expect(d.schemas.validated.map((v) => v.model)).toEqual(['cpo', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history']);
  });

  it('carries a sample OCR of the 3 months ending --now, marked as one, and the vulnerability documents of the register', async () => {
    const d = await pkg();
    await d.write();
    expect(d.json('ocr-sample.json')).toEqual({
      sample: true,
      sampleNote: SAMPLE_NOTE,
      certificationPackageOverviewUri: PACKAGE_URI,
      reportPeriod: { from: '2026-08-26', to: '2026-11-25' },
      certificationDataChanges: [SAMPLE_NOTE],
      plannedCertificationDataChanges: { planningHorizonThrough: '2027-02-25', changes: [] },
      acceptedVulnerabilities: `No accepted vulnerabilities; the Accepted Vulnerability Info (VER-RPT-AVI) is at https://trust.example.com/fedramp/avi.json.`,
      transformativeChanges: [],
      updatedRecommendations: [],
      activeAgencies: ['Department of Examples'],
      reportableIncidents: { incidents: [] },
    });
    expect(d.file('ocr-sample.md').split('\n')[0]).toBe('# Ongoing Certification Report (SAMPLE)');
    const vdr = d.json('vdr.json');
    expect(vdr.reportPeriod).toEqual({ from: '2026-10-26T00:00:00Z', to: NOW });
    expect(vdr.vulnerabilities).toEqual([
      {
        providerTrackingId: GROUP,
        detection: { detectedAt: '2026-11-24T08:00:00Z', detectionSource: 'Prowler' },
        vulnerabilityDescription: 'vpc_flow_logs_enabled: VPC Flow Logs are not enabled (on 1 resource: vpc-0a1b)',
        potentialAgencyImpact: expect.stringMatching(/^N3: /),
        evaluationCompletedAt: '2026-11-24T08:00:00Z',
        isInternetReachable: false,
        isLikelyExploitable: false,
        currentRating: 3,
        overdueStatus: { isOverdue: false },
      },
    ]);
    expect(d.json('vulnerability-history.json')).toEqual({
      certificationPackageOverviewUri: PACKAGE_URI,
      generatedAt: NOW,
      activeVulnerabilities: vdr.vulnerabilities,
      acceptedVulnerabilities: [],
    });
    expect(d.file('avi.md')).toContain('\n## Accepted vulnerabilities (0)\n\nNone.\n');
    expect(d.json('cpo.json').serviceIdentification.fedRampPackageId).toBe('FR2611250001');
  });

  it('carries the OCR recorded for the current period as ocr.json in place of the sample, its next report date in the CPO', async () => {
    const d = await pkg();
    await d.container.resolve(WriteOcr).execute({ to: '2026-11-24', out: '/ocr/ocr.json' });
    d.writer.files.clear();
    const result = await d.write();
    expect(result).toMatchObject({ written: true, sample_ocr: false });
    expect(result).not.toHaveProperty('notes');
    const [recorded] = await d.store.journal('fedramp-ocr');
    expect(d.json('ocr.json')).toEqual((recorded.record as { document: unknown }).document);
    expect(d.file('ocr.md').split('\n')[0]).toBe('# Ongoing Certification Report');
    expect(d.writer.files.has('/pkg/ocr-sample.json')).toBe(false);
    expect(d.json('manifest.json').package.sampleOcr).toBe(false);
    // The OCR ending 2026-11-24: the next report 3 months on.
    expect(d.json('cpo.json').serviceProperties.nextOngoingCertificationReportDate).toBe('2027-02-24');
  });

  it("carries a sample again once the recorded OCR's next report date has passed, the CPO naming that date", async () => {
    const d = await pkg();
    await d.container.resolve(WriteOcr).execute({ to: '2026-08-20', now: new Date('2026-08-21T00:00:00Z'), out: '/ocr/ocr.json' });
    d.writer.files.clear();
    const result = await d.write();
    expect(result).toMatchObject({ written: true, sample_ocr: true });
    expect(d.writer.files.has('/pkg/ocr-sample.json')).toBe(true);
    expect(d.json('cpo.json').serviceProperties.nextOngoingCertificationReportDate).toBe('2026-11-20');
  });

  it("packages an input that is the store's state alone, or one given to an empty store (its vulnerability documents empty)", async () => {
    const recorded = await pkg();
    expect(await recorded.write({ input: '/work/fresh.json' })).toMatchObject({ written: true, judged: { input: '/work/fresh.json', recorded: true } });
    const empty = await pkg({ recorded: [] });
    expect(await empty.write({ input: '/work/fresh.json' })).toMatchObject({ written: true, judged: { input: '/work/fresh.json', recorded: false } });
    expect(empty.json('vdr.json').vulnerabilities).toEqual([]);
    expect(empty.json('manifest.json').package.input).toEqual({ name: 'fresh.json', sha256: `sha256:${hex(JSON.stringify(FRESH))}` });
  });

  it('hashes resource names in the vulnerability documents with --redact (VER-RPT-NID)', async () => {
    const d = await pkg();
    await d.write({ redact: true });
    const hashed = `resource-${hex('vpc-0a1b').slice(0, 12)}`;
    expect(d.json('vdr.json').vulnerabilities[0].vulnerabilityDescription).toBe(
      `vpc_flow_logs_enabled: VPC Flow Logs are not enabled (on 1 resource: ${hashed})`,
    );
    for (const name of VULNERABILITY_FILES) expect([name, d.file(name).includes('vpc-0a1b')]).toEqual([name, false]);
  });

  it('writes an initial package whose statuses are fresh, and says so in the manifest and the signed statement', async () => {
    const d = await pkg();
    await d.write({ initial: true });
    expect(d.json('manifest.json').package.initial).toBe(true);
    expect(JSON.parse(verifyDsseEnvelope(d.file('package.dsse.json')).payload.toString('utf8')).predicate.initial).toBe(true);
  });

  it("notes what the CPO schema in use cannot carry (fedramp.advisors before CPO 0.1.6) before the sample OCR's note", async () => {
    const d = await pkg({ profile: { ...PROFILE, advisors: ['Ada Advisor'] } });
    const result = await d.write();
    expect(result).toMatchObject({
      notes: [
        "fedramp.advisors is not written: FedRAMP's first CPO schema declares no advisors (CPO 0.1.6 does)",
        'ocr-sample.json is a sample built from the run store: no OCR is recorded for this period (FRC-CSO-PKG asks for a real or example OCR)',
      ],
    });
    expect(d.file('cpo.json')).not.toContain('Ada Advisor');
  });

  it('writes it unvalidated, saying why, when no FedRAMP schemas are found and none were named', async () => {
    const d = await pkg({ schemas: new NoFedrampSchemas() });
    const result = await d.write();
    expect(result).toMatchObject({ written: true, validated: { note: 'the documents were not validated: FedRAMP schemas not found' } });
    const manifest = d.json('manifest.json');
    expect(manifest).not.toHaveProperty('schemas');
    expect(Object.values(manifest.files as Record<string, object>).filter((f) => 'schema' in f)).toEqual([]);
  });

  describe('--initial (FRC-APP-FCP): statuses older than 7 days', () => {
    it('refuses them, naming each, and writes nothing', async () => {
      // A store whose state is the old run alone, packaged as the store's state.
      const d = await pkg({ recorded: [['/work/old.json', '2026-05-04T09:00:00Z']] });
      expect(await d.write({ initial: true })).toEqual({
        written: false,
        out_dir: '/pkg',
        initial: true,
        days: 7,
        stale: [
          'the run is as of 2026-05-04T08:00:00Z, before 2026-11-18T00:00:00Z',
          'KSI-CNA-RNT: 1 of 1 contributing result older than 2026-11-18, the oldest observed 2026-05-04 (Prowler result for KSI-CNA-RNT)',
          'KSI-IAM-APM: 1 of 1 contributing result older than 2026-11-18, the oldest observed 2026-05-04 (Prowler result for KSI-IAM-APM)',
          'the vulnerability register is of run 1, as of 2026-05-04T08:00:00Z, before 2026-11-18T00:00:00Z',
          `vulnerabilities: 1 of 1 open groups last evaluated before 2026-11-18T00:00:00Z, the oldest ${GROUP} (vpc_flow_logs_enabled) on 2026-05-04T08:00:00Z`,
        ],
      });
      expect(d.writer.files.size).toBe(0);
    });

    it('counts from --now: the fresh run is stale 10 days on', async () => {
      const d = await pkg();
      const result = await d.write({ initial: true, now: new Date('2026-12-05T00:00:00Z') });
      expect(result).toMatchObject({ written: false, days: 7 });
      expect(result.written === false && result.stale.filter((l) => l.startsWith('the') || l.startsWith('vulnerabilities'))).toEqual([
        'the run is as of 2026-11-24T08:00:00Z, before 2026-11-28T00:00:00Z',
        'the vulnerability register is of run 1, as of 2026-11-24T08:00:00Z, before 2026-11-28T00:00:00Z',
        `vulnerabilities: 1 of 1 open groups last evaluated before 2026-11-28T00:00:00Z, the oldest ${GROUP} (vpc_flow_logs_enabled) on 2026-11-24T08:00:00Z`,
      ]);
      expect(d.writer.files.size).toBe(0);
    });
  });

  describe('refuses before anything is written', () => {
    it('a store without runs and no input', async () => {
      const d = await pkg({ recorded: [] });
      await expect(d.write()).rejects.toMatchObject({
        code: 'no-run-recorded',
        message:
          "the run store at memory holds no runs; record the scanners' reports (svc conmon process <report>...) first, or give one report to package it alone",
      });
      expect(d.writer.files.size).toBe(0);
    });

    it("an input that is not the run store's state: its SDR would judge one report, its VDR the store", async () => {
      const d = await pkg();
      await expect(d.write({ input: '/work/old.json' })).rejects.toMatchObject({
        code: 'mixed-state',
        message:
          "/work/old.json is not the run store's state (1 source: Prowler), whose vulnerability register the package's VDR and AVI report; record it (svc conmon process /work/old.json) and run svc fedramp package without an input to package the store's state",
      });
      expect(d.writer.files.size).toBe(0);
    });

    it('a profile without the CPO keys, naming the key and the file', async () => {
      const { cpo: _cpo, ...rest } = PROFILE;
      const d = await pkg({ profile: rest });
      await expect(d.write()).rejects.toMatchObject({
        code: 'invalid-config',
        message: expect.stringMatching(/^\/work\/svc\.config\.json: fedramp\.cpo: missing; svc fedramp package needs it: /),
      });
      expect(d.writer.files.size).toBe(0);
    });

    it.each<[Cr26DocumentType, string]>([
      ['sdr', 'sdr.json'],
      ['ocr', 'ocr-sample.json'],
      ['vdr', 'vdr.json'],
    ])("the %s, when FedRAMP's schema rejects it: svc's bug, an internal error naming the file", async (type, name) => {
      const d = await pkg({ schemas: new Rejecting(type, { layer: 'fedramp', rule: 'required', path: '$.x', message: "must have required property 'x'" }) });
      const refused = d.write();
      await expect(refused).rejects.toThrow(`${name}: $.x: must have required property 'x': svc built a document FedRAMP's schema rejects, and wrote nothing`);
      await expect(refused).rejects.not.toHaveProperty('code');
      expect(d.writer.files.size).toBe(0);
    });

    it("a CPO FedRAMP's schema rejects: the profile's error, naming the profile key each problem comes from", async () => {
      const d = await pkg({
        schemas: new Rejecting('cpo', {
          layer: 'fedramp',
          rule: 'enum',
          path: 'serviceProperties.deploymentModel',
          message: 'must be equal to one of the allowed values',
        }),
      });
      await expect(d.write()).rejects.toMatchObject({
        code: 'invalid-config',
        message: `/work/svc.config.json: fedramp.cpo.serviceProperties.deploymentModel: must be equal to one of the allowed values; fix the profile so the CPO validates against FedRAMP's ${CPO_SCHEMA}; see docs/fedramp.md`,
      });
      expect(d.writer.files.size).toBe(0);
    });

    it('--schemas naming a directory without FedRAMP schemas', async () => {
      const d = await pkg({ schemas: new NoFedrampSchemas() });
      await expect(d.write({ schemas: '/nowhere' })).rejects.toMatchObject({
        code: 'fedramp-schemas-missing',
        message: 'FedRAMP schemas not found in /nowhere',
      });
      expect(d.writer.files.size).toBe(0);
    });

    it('a file that cannot be written: none of the others is put in place', async () => {
      const d = await pkg();
      d.writer.failWriting = 'manifest.json';
      await expect(d.write()).rejects.toThrow('injected failure writing manifest.json');
      expect(d.writer.files.size).toBe(0);
    });

    it('a journal that no longer verifies', async () => {
      const d = await pkg();
      await d.store.appendJournal('fedramp-scn', { type: 'adaptive', summary: 'one' }, '2026-11-24T10:00:00Z');
      (d.store.shared.journal[0].record as Record<string, unknown>).summary = 'edited';
      await expect(d.write()).rejects.toMatchObject({ code: 'run-store-tampered' });
      expect(d.writer.files.size).toBe(0);
    });
  });
});
