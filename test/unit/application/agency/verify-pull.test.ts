import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { VerifyPull, type VerifyPullInput } from '../../../../src/application/agency/verify-pull';
import type { Delivery, PulledDocumentName } from '../../../../src/domain/agency/pulled-documents';
import { CR26_DOCUMENTS, type Cr26DocumentType } from '../../../../src/domain/fedramp/cr26-documents';
import { FIRST_SHAPES } from '../../../../src/domain/fedramp/schema-shapes';
import { jsonPath, type OscalProblem } from '../../../../src/domain/oscal/oscal-problem';
import type { FedrampSchemaSet } from '../../../../src/ports/schema-validator';
import { FEDRAMP_RULES_SOURCE } from '../../../../src/ports/fedramp-rules-source';
import { FixedRulesSource, builtInRules } from '../../../fakes/fixed-rules-source';
import { FixedSchemaValidator } from '../../../fakes/fixed-schema-validator';
import { FEDRAMP_SCHEMA_GENERATIONS } from '../../../support/fedramp-schemas';
import { FIXTURES } from '../../../support/run-svc';
import { aTrustVdr } from '../../../support/trust-center';
import { unitContainer } from '../../../support/unit-container';

/** The generation each reference folder holds (the same bytes svc carries under schemas/fedramp/<date>/). */
const GENERATION: Record<string, string> = { 'cr26-schemas': '2026-07-15', 'cr26-schemas-2026-09-17': '2026-09-17', 'cr26-schemas-2026-10-08': '2026-10-08' };

/** A `$ref` without `#` read as FedRAMP later fixed it (`<$id>#/$defs/x`), as svc's adapter does. */
function fixRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fixRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && !v.includes('#') ? v.replace(/\.json\//, '.json#/') : fixRefs(v)]),
  );
}

/**
 * SCHEMA_VALIDATOR over FedRAMP's own schema files of every generation (the reference copies), compiled here with
 * Ajv as DESIGN §12.3 says, independent of svc's adapter: a provider's document judged by FedRAMP's schemas as they are.
 */
class ReferenceSchemaValidator extends FixedSchemaValidator {
  private readonly compiled = new Map<string, ValidateFunction>();

  override async locateFedrampGenerations(): Promise<FedrampSchemaSet[]> {
    return [...FEDRAMP_SCHEMA_GENERATIONS]
      .reverse()
      .map((dir) => ({ dir, carried: GENERATION[basename(dir)], files: {}, definitions: [], schemas: [], shapes: FIRST_SHAPES }));
  }

  override async validateFedramp(set: FedrampSchemaSet, type: Cr26DocumentType, document?: unknown): Promise<OscalProblem[]> {
    const key = `${set.dir}:${type}`;
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
      addFormats(ajv);
      ajv.addKeyword({ keyword: '$schemaVersion', schemaType: 'string' });
      for (const file of readdirSync(set.dir).filter((f) => f.endsWith('.json')))
        ajv.addSchema(fixRefs(JSON.parse(readFileSync(join(set.dir, file), 'utf8'))) as object);
      validate = ajv.getSchema(`https://fedramp.gov/schemas/fedramp-${CR26_DOCUMENTS[type].stem}-schema-2026-06-24.json`)!;
      this.compiled.set(key, validate);
    }
    if (validate(document)) return [];
    return (validate.errors ?? []).map((e) => ({
      layer: 'schema',
      rule: e.keyword,
      path: jsonPath(
        e.instancePath
          .split('/')
          .slice(1)
          .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
      ),
      message: e.message ?? e.keyword,
    }));
  }
}

const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, 'fedramp', name), 'utf8')) as Record<string, Record<string, unknown>>;
const SHA = (c: string) => c.repeat(64);
const JSON_DELIVERY: Delivery = { contentType: 'application/json', nosniff: true };
const PROVIDER = { name: 'acme', fedrampId: 'FR0000000000', class: 'B' as const };

/** What a pull of a provider with nothing wrong leaves, as of 2026-07-15 (the OCR of 2026-04-01 to 2026-06-30, the next due 2026-09-30). */
function world(): VerifyPullInput {
  const cpo = fixture('cpo-minimal.json');
  cpo.serviceProperties = { ...cpo.serviceProperties, nextOngoingCertificationReportDate: '2026-09-30' };
  const json: Partial<Record<PulledDocumentName, unknown>> = {
    public: { serviceIdentification: cpo.serviceIdentification },
    cpo,
    ocr: fixture('ocr-minimal.json'),
    vdr: { ...aTrustVdr(0) },
    scn: [],
    incidents: [],
    snapshots: { snapshots: [{ snapshot: '2026-06-30', period: { from: '2026-04-01', to: '2026-06-30' } }] },
  };
  const documents: VerifyPullInput['documents'] = {};
  Object.entries(json).forEach(([name, doc], i) => {
    documents[name as PulledDocumentName] = {
      json: doc,
      stored: { sha256: SHA('abcdef0123456789'[i]!), delivery: name === 'public' ? { ...JSON_DELIVERY, cors: '*' } : JSON_DELIVERY },
    };
  });
  return { provider: PROVIDER, documents, now: new Date('2026-07-15T00:00:00Z') };
}
const replace = (input: VerifyPullInput, name: PulledDocumentName, json: unknown): VerifyPullInput => ({
  ...input,
  documents: { ...input.documents, [name]: { ...input.documents[name]!, json } },
});

describe('VerifyPull: schema generations and the rules, per document (DESIGN §14)', () => {
  const verifier = () => unitContainer({ schemas: new ReferenceSchemaValidator() }).container.resolve(VerifyPull);

  it('a provider with nothing wrong: every CR26 document current, in PULLED_DOCUMENTS order, and no finding', async () => {
    const result = await verifier().verify(world());
    expect(result).toEqual({
      schemas: [
        { document: 'cpo', sha256: SHA('b'), generation: '2026-10-08', current: true, problems: [] },
        { document: 'ocr', sha256: SHA('c'), generation: '2026-10-08', current: true, problems: [] },
        { document: 'vdr', sha256: SHA('d'), generation: '2026-10-08', current: true, problems: [] },
        { document: 'scn', sha256: SHA('e'), generation: '2026-10-08', current: true, problems: [] },
        { document: 'incidents', sha256: SHA('f'), generation: '2026-10-08', current: true, problems: [] },
      ],
      findings: [],
    });
  });

  it("svc's own trust-center VDR (aTrustVdr) is valid under the newest generation", async () => {
    const { schemas } = await verifier().verify(replace(world(), 'vdr', aTrustVdr()));
    expect(schemas.find((s) => s.document === 'vdr')).toEqual({ document: 'vdr', sha256: SHA('d'), generation: '2026-10-08', current: true, problems: [] });
  });

  it('a CPO naming its advisor in words, as another tool writes it: valid under 2026-09-17 at newest (CPO 0.1.6 made advisors a list of {name})', async () => {
    const input = world();
    const older = { ...(input.documents.cpo!.json as object), advisors: 'Example Advisory Partners' };
    const result = await verifier().verify(replace(input, 'cpo', older));
    const problem = 'advisors: must be array';
    expect(result.schemas[0]).toEqual({ document: 'cpo', sha256: SHA('b'), generation: '2026-09-17', current: false, problems: [problem] });
    expect(result.findings).toEqual([
      {
        level: 'notice',
        rule: 'FRC-CSO-JSN',
        code: 'schema-older-generation',
        document: 'cpo',
        at: 'advisors',
        message: `valid against FedRAMP's cpo schema of 2026-09-17 at newest, not of 2026-10-08, the newest generation svc carries: ${problem}`,
      },
    ]);
  });

  it('an OCR without its incidents list: valid under 2026-07-15 only (OCR 0.2.0 made it required)', async () => {
    const input = world();
    const ocr = { ...(input.documents.ocr!.json as object), reportableIncidents: {} };
    const result = await verifier().verify(replace(input, 'ocr', ocr));
    expect(result.schemas[1]).toEqual({
      document: 'ocr',
      sha256: SHA('c'),
      generation: '2026-07-15',
      current: false,
      problems: ["reportableIncidents: must have required property 'incidents'"],
    });
    expect(result.findings.map((f) => [f.level, f.code, f.document, f.at])).toEqual([['notice', 'schema-older-generation', 'ocr', 'reportableIncidents']]);
  });

  it('a VDR with the Remediated disposition is current, not older: the newest that accepts it is what counts', async () => {
    const vdr = aTrustVdr(1);
    vdr.vulnerabilities[0]!.finalDisposition = 'Remediated';
    vdr.vulnerabilities[0]!.overdueStatus = { isOverdue: false };
    const { schemas, findings } = await verifier().verify(replace(world(), 'vdr', vdr));
    expect([schemas[2]?.generation, schemas[2]?.current, findings]).toEqual(['2026-10-08', true, []]);
  });

  it('a document valid under no generation: an action naming the first problem and its path, the first five problems kept', async () => {
    const input = world();
    const broken = {
      certificationPackageOverviewUri: 'not a uri',
      reportPeriod: { from: '2026-07-01T00:00:00Z', to: '2026-07-14T00:00:00Z' },
      vulnerabilities: [{ providerTrackingId: 'X-1', vulnerabilityDescription: 'no detection', overdueStatus: { isOverdue: true } }],
    };
    const result = await verifier().verify(replace(input, 'vdr', broken));
    const problems = [
      'certificationPackageOverviewUri: must match format "uri"',
      "vulnerabilities[0]: must have required property 'detection'",
      "vulnerabilities[0].overdueStatus: must have required property 'explanation'",
      'vulnerabilities[0].overdueStatus: must match "then" schema',
    ];
    expect(result.schemas[2]).toEqual({ document: 'vdr', sha256: SHA('d'), current: false, problems });
    expect(result.findings).toEqual([
      {
        level: 'action',
        rule: 'FRC-CSO-JSN',
        code: 'schema-invalid',
        document: 'vdr',
        at: 'certificationPackageOverviewUri',
        message: `not valid against FedRAMP's vdr schema of any generation svc carries (newest 2026-10-08): ${problems[0]}`,
      },
      // No detection time: no clock runs, so the provider's own "overdue" is not confirmed.
      {
        level: 'notice',
        rule: 'VER-TFR-EVU',
        code: 'overdue-status-disagrees',
        document: 'vdr',
        message: 'the VDR says 1 vulnerability is overdue that svc recomputes as not overdue: X-1',
      },
      {
        level: 'notice',
        rule: 'svc:vulnerability-clock',
        code: 'vulnerabilities-unreadable',
        document: 'vdr',
        message: '1 vulnerability has fields the clock cannot read: X-1 (detection.detectedAt: not given)',
      },
    ]);
  });

  it('a list is judged item by item, the path naming the item; a list that is not one is invalid at its root', async () => {
    const input = replace(replace(world(), 'scn', [{}, {}]), 'incidents', { incidents: [] });
    const result = await verifier().verify(input);
    expect(result.schemas.slice(3)).toEqual([
      { document: 'scn', sha256: SHA('e'), current: false, problems: expect.arrayContaining([expect.stringMatching(/^\[0\]: must have required property '/)]) },
      { document: 'incidents', sha256: SHA('f'), current: false, problems: ['$: expected a list of incident documents, got an object'] },
    ]);
    expect(result.schemas[3]!.problems).toHaveLength(5);
    expect(result.findings.map((f) => [f.level, f.code, f.document, f.at])).toEqual([
      ['action', 'schema-invalid', 'incidents', '$'],
      ['action', 'schema-invalid', 'scn', '[0]'],
    ]);
  });

  it('no verdict for a document FedRAMP has no schema for, or one not fetched; the rules still judge what is there', async () => {
    const input = world();
    const { cpo: _cpo, ocr: _ocr, ...rest } = input.documents;
    const result = await verifier().verify({
      ...input,
      documents: {
        ...rest,
        metrics: { json: { fedRampPackageId: 'FR9' }, stored: { sha256: SHA('9'), delivery: { nosniff: false, contentType: 'application/json' } } },
      },
    });
    expect(result.schemas.map((s) => s.document)).toEqual(['vdr', 'scn', 'incidents']);
    expect(result.findings).toEqual([
      {
        level: 'action',
        rule: 'CDS-CSO-FID',
        code: 'fedramp-id-mismatch',
        document: 'metrics',
        at: 'fedRampPackageId',
        message: 'the FedRAMP ID is "FR9", not the FedRAMP ID configured for acme (agency.providers[].fedramp_id) "FR0000000000"',
      },
      {
        level: 'action',
        rule: 'FRC-CSO-JSN',
        code: 'nosniff-missing',
        document: 'metrics',
        at: 'X-Content-Type-Options',
        message: 'served without X-Content-Type-Options: nosniff',
      },
    ]);
  });

  it('without the class, the vulnerability clocks are not guessed; without FRC-CSO-JSN in the release, verdicts but no schema finding', async () => {
    const noClass = await verifier().verify({ ...world(), provider: { name: 'acme', fedrampId: 'FR0000000000' } });
    expect(noClass.findings.map((f) => f.code)).toEqual(['class-unknown']);
    const lacking = builtInRules();
    lacking.rules = lacking.rules.filter((r) => r.id !== 'FRC-CSO-JSN');
    const { container } = unitContainer({ schemas: new ReferenceSchemaValidator() });
    container.register(FEDRAMP_RULES_SOURCE, { useValue: new FixedRulesSource(lacking) });
    const result = await container.resolve(VerifyPull).verify(replace(world(), 'incidents', {}));
    expect([result.schemas.at(-1)?.current, result.findings]).toEqual([false, []]);
  });

  it('asks the validator for the newest generation only when a document is valid under it', async () => {
    const schemas = new FixedSchemaValidator();
    const { container } = unitContainer({ schemas });
    const result = await container.resolve(VerifyPull).verify(world());
    expect(result.schemas.map((s) => [s.document, s.generation, s.current])).toEqual([
      ['cpo', '2026-10-08', true],
      ['ocr', '2026-10-08', true],
      ['vdr', '2026-10-08', true],
      ['scn', '2026-10-08', true],
      ['incidents', '2026-10-08', true],
    ]);
    // The two lists are empty: no item to validate.
    expect(schemas.validated).toEqual([
      { version: 'cr26', model: 'cpo' },
      { version: 'cr26', model: 'ocr' },
      { version: 'cr26', model: 'vdr' },
    ]);
  });

  describe('the previous pull: unchanged bytes are neither validated nor read again beyond what the time asks', () => {
    /** The previous pull of the same documents, as PullProviders records it. */
    async function previousOf(input: VerifyPullInput) {
      const { schemas, findings } = await verifier().verify(input);
      const documents = (Object.entries(input.documents) as [PulledDocumentName, { stored: { sha256: string; delivery: Delivery } }][]).map(([name, d]) => ({
        name,
        url: `https://trust.acme.example/fedramp/${name}`,
        outcome: 'fetched' as const,
        attempts: 1,
        stored: { ...d.stored, bytes: 1, url: '', fetchedAt: '2026-07-14T00:00:00Z' },
      }));
      return { schemas, findings, documents, fedrampId: PROVIDER.fedrampId };
    }
    /** The input with each document a reader that counts its calls. */
    function lazily(input: VerifyPullInput, reads: string[]): VerifyPullInput {
      const documents: VerifyPullInput['documents'] = {};
      for (const [name, d] of Object.entries(input.documents) as [PulledDocumentName, NonNullable<VerifyPullInput['documents'][PulledDocumentName]>][])
        documents[name] = { ...d, json: () => (reads.push(name), Promise.resolve(d.json)) };
      return { ...input, documents };
    }

    it("all the same: the verdicts and the checks of the bytes are the previous pull's; only the documents the time asks are read, and the time is judged anew", async () => {
      const before = replace(world(), 'public', { serviceIdentification: { fedRampPackageId: 'FR9999999999' } });
      const previous = await previousOf(before);
      expect(previous.findings.map((f) => f.code)).toEqual(['fedramp-id-mismatch']);
      const reads: string[] = [];
      const later = { ...lazily(before, reads), now: new Date('2026-10-15T00:00:00Z'), previous };
      const result = await verifier().verify(later);
      expect(reads.sort()).toEqual(['cpo', 'ocr', 'snapshots', 'vdr']);
      expect(result.schemas).toEqual(previous.schemas);
      expect(result.findings.map((f) => [f.rule, f.code])).toEqual([
        ['CCM-OCR-NRD', 'ocr-overdue'],
        ['CDS-CSO-FID', 'fedramp-id-mismatch'],
      ]);
    });

    it('one document changed, or the FedRAMP ID configured changed: every document read and every check made again', async () => {
      const previous = await previousOf(world());
      for (const input of [
        { ...world(), documents: { ...world().documents, scn: { ...world().documents.scn!, stored: { sha256: SHA('9'), delivery: JSON_DELIVERY } } } },
        { ...world(), provider: { ...PROVIDER, fedrampId: 'FR1111111111' } },
      ]) {
        const reads: string[] = [];
        await verifier().verify({ ...lazily(input, reads), previous });
        expect(reads.sort()).toEqual(['cpo', 'incidents', 'ocr', 'public', 'scn', 'snapshots', 'vdr']);
      }
    });
  });
});
