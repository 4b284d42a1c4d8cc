import { materialize } from '../../../src/domain/encoding/json-chunks';
import { buildSap as lazySap } from '../../../src/domain/oscal/assessment-plan';
import { buildSar as lazySar } from '../../../src/domain/oscal/assessment-results';
import { checkReferences } from '../../../src/domain/oscal/reference-checks';
import { readOscalDocument } from '../../../src/domain/oscal/oscal-model';
import { metadata, toolComponents, touchedControls, type Json, type OscalRun } from '../../../src/domain/oscal/oscal-run';
import { buildOscalPoam as lazyPoam } from '../../../src/domain/oscal/plan-of-action-and-milestones';
import { buildSsp as lazySsp } from '../../../src/domain/oscal/system-security-plan';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { aResult, sampleResults } from '../../support/builders';
import { anOscalRun, INPUT_SHA } from '../../support/oscal-runs';
import { schemaErrors, SCHEMA_VERSIONS } from '../../support/oscal-schemas';

/** The shared OscalRun of a report with no generated_at, whose entries are read from a bundle. */
function aRun(results: KsiResult[] = sampleResults(), overrides: Partial<OscalRun> = {}): OscalRun {
  return anOscalRun(results, {
    context: {
      input: { name: 'sample.json', sha256: INPUT_SHA },
      source: { tool: 'ScubaGear', version: '1.5.0', tenant: 'contoso.onmicrosoft.com' },
      runAt: new Date('2026-01-01T00:00:00Z'),
    },
    entriesFile: 'evidence-bundle.json',
    ...overrides,
  });
}

// The builders' growing lists are LazyArrays (test/unit/domain/oscal-streaming.test.ts): these tests read the documents as objects.
const buildSsp = (run: OscalRun) => materialize(lazySsp(run));
const buildSar = (run: OscalRun) => materialize(lazySar(run));
const buildSap = (run: OscalRun) => materialize(lazySap(run));
const buildOscalPoam = (run: OscalRun) => materialize(lazyPoam(run));
const BUILDERS = { ssp: buildSsp, sar: buildSar, sap: buildSap, poam: buildOscalPoam };
const body = (document: Json) => Object.values(document)[0] as Record<string, any>;

describe('generated OSCAL documents', () => {
  describe.each(Object.entries(BUILDERS))('%s', (_, build) => {
    it.each(SCHEMA_VERSIONS)('is valid against the OSCAL %s schema, whichever release it declares', (version) => {
      for (const declared of ['1.1.3', '1.2.1']) expect(schemaErrors(build(aRun(undefined, { oscalVersion: declared })), version)).toEqual([]);
    });

    it('passes the reference checks against the Moderate baseline, warnings included', () => {
      const document = build(aRun());
      const baseline = { level: 'moderate' as const, title: 'FedRAMP Moderate', controls: builtInCatalog().data.baseline_controls.map((c) => c.id) };
      expect(checkReferences(document, { model: readOscalDocument(document, 'x').model, baseline })).toEqual([]);
    });

    it('is the same document when regenerated, except for its timestamps', () => {
      expect(build(aRun())).toEqual(build(aRun()));
      const later = JSON.stringify(build(aRun(undefined, { generatedAt: '2026-02-02T00:00:00Z' })));
      expect(later.replaceAll('2026-02-02T00:00:00Z', '2026-01-01T00:00:00Z')).toBe(JSON.stringify(build(aRun())));
    });

    it('carries one back-matter resource per evidence entry and file, with SHA-256 hashes', () => {
      const run = aRun();
      const resources = body(build(run))['back-matter'].resources as Record<string, any>[];
      const hashed = resources.filter((r) => r.rlinks?.[0]?.hashes);
      expect(hashed.map((r) => [r.rlinks[0].href, r.rlinks[0].hashes])).toEqual([
        ...run.results.map(({ item, hash }) => [`evidence-bundle.json#${item.result.ksi_id}`, [{ algorithm: 'SHA-256', value: hash }]]),
        ['sample.json', [{ algorithm: 'SHA-256', value: INPUT_SHA }]],
      ]);
    });
  });

  it('SAR: an observation and a finding per KSI, a risk due by the SLA per FAIL or WARN, tools as origins', () => {
    const run = aRun();
    const result = body(buildSar(run)).results[0];
    expect(result.observations.map((o: any) => o.props[0].value)).toEqual(['KSI-AC-02', 'KSI-AU-02', 'KSI-CNA-01', 'KSI-IA-02', 'KSI-SC-08']);
    expect(result.findings.map((f: any) => [f.target['target-id'], f.target.status.state])).toEqual([
      ['ac-2_obj', 'not-satisfied'],
      ['au-2_obj', 'not-satisfied'],
      ['KSI-CNA-01', 'satisfied'],
      ['ia-2_obj', 'not-satisfied'],
      ['sc-8_obj', 'satisfied'],
    ]);
    // KSI-IA-02 FAILed, observed 2026-11-02: IA is Critical, whose SLA is 7 days.
    const ia = result.risks.find((r: any) => r.props[0].value === 'KSI-IA-02');
    expect([ia.status, ia.deadline, ia.characterizations[0].facets[0].value]).toEqual(['open', '2026-11-09T00:00:00Z', 'high']);
    expect(ia.remediations[0].tasks.map((t: any) => t.timing['on-date'].date)).toEqual(['2026-11-06T00:00:00Z', '2026-11-09T00:00:00Z']);
    expect(result.risks.map((r: any) => r.props[0].value)).toEqual(['KSI-AC-02', 'KSI-AU-02', 'KSI-IA-02']);
    const resources = body(buildSar(run))['back-matter'].resources as Record<string, any>[];
    const evidence = resources.find((r) => `#${r.uuid}` === result.observations[3]['relevant-evidence'][0].href);
    expect(evidence?.rlinks[0].hashes[0].value).toBe(run.results[3].hash);
    expect(
      result.observations[3].origins[0].actors.map((a: any) => result['local-definitions'].components.find((c: any) => c.uuid === a['actor-uuid']).title),
    ).toEqual(['ScubaGear', 'svc 0.5.0']);
    expect(result.observations[3].collected).toBe('2026-11-02T14:03:12Z');
  });

  it('SSP: one implemented requirement per control touched, with FedRAMP and OSCAL implementation statuses', () => {
    const requirements = body(buildSsp(aRun()))['control-implementation']['implemented-requirements'] as Record<string, any>[];
    const ia2 = requirements.find((r) => r['control-id'] === 'ia-2');
    const sc8 = requirements.find((r) => r['control-id'] === 'sc-8');
    expect(ia2!.props).toEqual([{ name: 'implementation-status', value: 'planned', remarks: 'KSI-IA-02 is FAIL: REMEDIATE within 7 days as POAM-KSI-IA-02.' }]);
    expect(ia2!['by-components'][0]['implementation-status']).toEqual({
      state: 'planned',
      remarks: 'KSI-IA-02 is FAIL: REMEDIATE within 7 days as POAM-KSI-IA-02.',
    });
    expect(sc8!.props).toEqual([{ name: 'implementation-status', value: 'implemented' }]);
    expect(requirements.every((r) => r['control-id'] !== 'ia-1')).toBe(true);
  });

  it('POA&M: an item per FAIL or WARN keyed by its POAM-ID; none to write is an input error', () => {
    const items = body(buildOscalPoam(aRun()))['poam-items'] as Record<string, any>[];
    expect(items.map((i) => i.props[0].value)).toEqual(['POAM-KSI-AC-02', 'POAM-KSI-AU-02', 'POAM-KSI-IA-02']);
    expect(() => buildOscalPoam(aRun([aResult('KSI-AC-02')]))).toThrow(
      'sample.json: every result is PASS, so there is no POA&M item to write; an OSCAL POA&M needs at least one',
    );
  });

  it('SAP: one recurring task per validation frequency', () => {
    const tasks = body(buildSap(aRun()))['tasks'] as Record<string, any>[];
    expect(tasks.map((t) => [t.title, t.description, t.timing])).toEqual([
      ['Re-validate 4 KSIs every 3 days', 'KSI-AC-02, KSI-AU-02, KSI-IA-02, KSI-SC-08', { 'at-frequency': { period: 3, unit: 'days' } }],
    ]);
  });

  it("gives each document a uuid of its own input, and what it is about a uuid per subject: the next day's run differs only where evidence changed", () => {
    const uuids = (document: Json): string[] => JSON.stringify(document).match(/[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g) ?? [];
    const today = aRun();
    // The next day: another report file, KSI-SC-08's evidence changed, everything else as it was.
    const results = sampleResults().map((r) => (r.ksi_id === 'KSI-SC-08' ? { ...r, evidence: { min_tls: '1.3', smtp_tls: 'required' } } : r));
    const input = { name: 'next-day.json', sha256: 'cd'.repeat(32) };
    const tomorrow = aRun(results, { context: { ...today.context, input }, files: [{ ...today.files[0], ...input }] });
    for (const build of Object.values(BUILDERS)) {
      const [before, after] = [build(today), build(tomorrow)];
      const gone = [...new Set(uuids(before).filter((u) => !uuids(after).includes(u)))];
      // What changed: the document, the SAR's result, KSI-SC-08's observation and its evidence entry's resource, the
      // report's resource, the companion documents of this run (the SAP a SAR imports).
      const doc = body(before);
      const changed = [
        doc.uuid,
        ...(doc.results ?? []).flatMap((r: any) => [r.uuid, ...r.observations.filter((o: any) => o.props[0].value === 'KSI-SC-08').map((o: any) => o.uuid)]),
        ...doc['back-matter'].resources
          .filter((r: any) => r.props === undefined || r.props.some((p: any) => p.value === 'KSI-SC-08') || r.title === 'sample.json')
          .map((r: any) => r.uuid),
      ];
      expect(gone.sort()).toEqual([...new Set(changed)].sort());
    }
    const sar = (run: OscalRun) => body(buildSar(run));
    const sc08 = (run: OscalRun) => sar(run).results[0].observations.find((o: any) => o.props[0].value === 'KSI-SC-08').uuid;
    const ia02 = (run: OscalRun) => sar(run).results[0].observations.find((o: any) => o.props[0].value === 'KSI-IA-02').uuid;
    expect(sc08(tomorrow)).not.toBe(sc08(today));
    expect(ia02(tomorrow)).toBe(ia02(today));
    expect(body(buildOscalPoam(tomorrow))['poam-items'].map((i: any) => i.uuid)).toEqual(body(buildOscalPoam(today))['poam-items'].map((i: any) => i.uuid));
    // The Merkle root is said once, in metadata: each evidence resource is the same in every run holding its entry.
    expect(sar(today).metadata.props).toContainEqual({ name: 'merkle-root', ns: 'urn:compliance-evidence-service:oscal', value: `sha256:${today.merkleRoot}` });
    expect(JSON.stringify(sar(today)['back-matter']).includes(today.merkleRoot)).toBe(false);
    // Another system's observations, findings, risks and resources share none of it (parties and tools are named alike).
    const elsewhere = aRun(undefined, {
      context: {
        ...today.context,
        input: { name: 'fabrikam.json', sha256: 'ef'.repeat(32) },
        source: { tool: 'ScubaGear', version: '1.5.0', tenant: 'fabrikam.onmicrosoft.com' },
      },
    });
    const about = (run: OscalRun) => {
      const { results, 'back-matter': back } = sar(run);
      return ['observations', 'findings', 'risks']
        .flatMap((list) => results[0][list])
        .concat(back.resources)
        .map((item: any) => item.uuid as string);
    };
    expect(about(elsewhere).filter((u) => about(today).includes(u))).toEqual([]);
    expect(about(elsewhere)).toHaveLength(about(today).length);
  });
  it("works out a run's owners, scanners and touched controls once for all its documents", () => {
    let reads = 0;
    const plain = aRun();
    const counted = plain.results.map((entry) => ({
      hash: entry.hash,
      get item() {
        reads += 1;
        return entry.item;
      },
    }));
    const run = { ...plain, results: counted };
    const acrossResults = () => [touchedControls(run), toolComponents(run), metadata(run, 'SAR')];
    const first = acrossResults();
    expect(reads).toBe(3 * counted.length);
    // Every other document of the run finds them worked out.
    expect(acrossResults()).toEqual(first);
    expect(touchedControls(run)).toBe(first[0]);
    expect(reads).toBe(3 * counted.length);
    expect(first).toEqual([touchedControls(plain), toolComponents(plain), metadata(plain, 'SAR')]);
  });

  it('keeps titles to one line and falls back when a result has none', () => {
    const document = buildSar(aRun([aResult('KSI-AC-02', 'FAIL', { title: 'Account\n  management\t' })]));
    expect(body(document).results[0].observations[0].title).toBe('KSI-AC-02 Account management');
    expect(schemaErrors(document, '1.2.1')).toEqual([]);
  });
});
