import { createHash } from 'node:crypto';
import { ProcessRun } from '../../../../src/application/conmon/process-run';
import { Cr26Assessment, PROFILE_DEFAULTS, type Cr26Scope } from '../../../../src/application/fedramp/cr26-assessment';
import { KSI_COUNTS_DOCUMENT } from '../../../../src/domain/conmon/ksi-counts';
import { KSI_HISTORY_DOCUMENT } from '../../../../src/domain/conmon/ksi-history';
import type { Cr26Rules } from '../../../../src/domain/fedramp/cr26-rules';
import type { FedrampProfile } from '../../../../src/domain/fedramp/profile';
import type { KsiResult } from '../../../../src/domain/ksi/ksi-result';
import { VENDOR_PARSERS } from '../../../../src/infrastructure/scans/registry';
import { FEDRAMP_RULES_SOURCE } from '../../../../src/ports/fedramp-rules-source';
import { RUN_STORE, type RunStore, type RunView } from '../../../../src/ports/run-store';
import { SCAN_READER } from '../../../../src/ports/scan-reader';
import { builtInCatalog } from '../../../fakes/fixed-catalog-source';
import { builtInRules, FixedRulesSource } from '../../../fakes/fixed-rules-source';
import { FixedScanReader } from '../../../fakes/fixed-scan-reader';
import { unitContainer, type UnitDoubles, type UnitOptions } from '../../../support/unit-container';
import rulesData from '../../../../src/domain/fedramp/data/cr26-rules.json';

// Cr26Assessment over the unit container's doubles: the CR26 rules are the checked-in release (2026.10.05.01), the
// catalog the checked-in 163 KSIs, runs recorded by `conmon process` (ProcessRun) into the in-memory store. Every
// expected value is worked out by hand from the rules data and the reports below: a day's status is the state at its
// end (the last run of every source by then), Implemented when every result reaching the KSI passes, Not Implemented
// when every one fails, else Partially Implemented; a day no result reaches has no status.

const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const NOW = '2026-11-20T12:00:00Z';
const CONFIG = '/work/svc.config.json';
const PROFILE: FedrampProfile = {
  type: '20x',
  class: 'B',
  package_uri: 'https://trust.example.com/fedramp/cpo.json',
  evidence_base_uri: 'https://trust.example.com/fedramp',
};

type Outcome = 'PASS' | 'FAIL' | 'WARN';
/** A report of `tool` generated on `day` at 08:00Z, each result observed then with one check named after its KSI. */
const report = (day: string, tool: string, results: [string, Outcome][]) => ({
  schema_version: '1',
  generated_at: `${day}T08:00:00Z`,
  source: { tool, version: '1' },
  results: results.map(([ksi_id, status]) => ({ ksi_id, status, observed_at: `${day}T08:00:00Z`, checks: [{ id: `${ksi_id.toLowerCase()}-check`, status }] })),
});

// Two sources: Prowler on the 1st (KSI-IAM-APM passing) and the 3rd (failing), Checkov on the 2nd (KSI-IAM-APM
// passing, KSI-CNA-RNT failing).
const PROWLER_1 = report('2026-11-01', 'Prowler', [['KSI-IAM-APM', 'PASS']]);
const CHECKOV_2 = report('2026-11-02', 'Checkov', [
  ['KSI-IAM-APM', 'PASS'],
  ['KSI-CNA-RNT', 'FAIL'],
]);
const PROWLER_3 = report('2026-11-03', 'Prowler', [['KSI-IAM-APM', 'FAIL']]);
// One source over more than a year: passing in May 2025, failing in June 2025, passing again in November 2026.
const MAY_2025 = report('2025-05-20', 'Prowler', [['KSI-IAM-APM', 'PASS']]);
const JUNE_2025 = report('2025-06-10', 'Prowler', [['KSI-IAM-APM', 'FAIL']]);
const NOV_2026 = report('2026-11-02', 'Prowler', [['KSI-IAM-APM', 'PASS']]);
const FILES = {
  '/r/prowler-1.json': PROWLER_1,
  '/r/checkov-2.json': CHECKOV_2,
  '/r/prowler-3.json': PROWLER_3,
  '/r/prowler-4.json': report('2026-11-04', 'Prowler', [['KSI-IAM-APM', 'PASS']]),
  '/r/may-2025.json': MAY_2025,
  '/r/june-2025.json': JUNE_2025,
  '/r/nov-2026.json': NOV_2026,
  '/r/rev5.json': report('2026-11-02', 'Prowler', [
    ['KSI-AC-02', 'PASS'],
    ['KSI-AU-02', 'FAIL'],
  ]),
  '/r/earlier-day.json': report('2026-11-02', 'Prowler', [['KSI-IAM-APM', 'FAIL']]),
  '/r/later-day.json': report('2026-11-10', 'Prowler', [['KSI-IAM-APM', 'PASS']]),
  '/work/statements.md': ['# Statements', '', '## KSI-IAM-02', 'Passkeys only.', '', '### Status', 'Planned', ''].join('\n'),
};
/** The three-day store of two sources, each run recorded an hour after its report was generated. */
const THREE_DAYS: [string, string][] = [
  ['/r/prowler-1.json', '2026-11-01T09:00:00Z'],
  ['/r/checkov-2.json', '2026-11-02T09:00:00Z'],
  ['/r/prowler-3.json', '2026-11-03T09:00:00Z'],
];
const OVER_A_YEAR: [string, string][] = [
  ['/r/may-2025.json', '2025-05-20T09:00:00Z'],
  ['/r/june-2025.json', '2025-06-10T09:00:00Z'],
  ['/r/nov-2026.json', '2026-11-02T09:00:00Z'],
];

/** The 46 KSIs of the release, in its order (every one applies to 20x Classes B to D). */
const ALL_KSIS = rulesData.ksis.map((k: { id: string }) => k.id);
/** The KSIs FRC-CLA-MFR names: what Class A must address, in the release's KSI order. */
const CLASS_A_KSIS = ['KSI-CED-RAT', 'KSI-CMT-LMC', 'KSI-CNA-RNT', 'KSI-IAM-AAM', 'KSI-IAM-APM', 'KSI-INR-RIR', 'KSI-SVC-SIN'];
/** Every scanner svc reads, declaring its evidence type, as the composition root binds SCAN_READER (VendorScanReader). */
const SCANNERS = new FixedScanReader(Object.fromEntries(VENDOR_PARSERS.map((p) => [p.info.vendor, p.info])));

/** A store view that hides the documents `hide` names (as for runs recorded before svc stored them) and counts each opened. */
function hiding(inner: RunStore, hide: readonly string[]): { view: RunStore; opened: Map<string, number> } {
  const opened = new Map<string, number>();
  const counting = <V extends RunView>(v: V): V =>
    Object.assign(Object.create(v) as V, {
      openDocument: (key: string | number, name: string) => {
        opened.set(name, (opened.get(name) ?? 0) + 1);
        return hide.includes(name) ? Promise.resolve(undefined) : v.openDocument(key, name);
      },
      openDocuments: (keys: readonly (string | number)[], name: string) => {
        opened.set(name, (opened.get(name) ?? 0) + keys.length);
        return hide.includes(name) ? Promise.resolve(keys.map(() => undefined)) : v.openDocuments(keys, name);
      },
    });
  const view: RunStore = Object.assign(counting(inner), { reader: async () => counting(await inner.reader()) });
  return { view, opened };
}

interface Setup extends UnitOptions {
  /** Runs `conmon process` records first: input and --now. */
  runs?: [string, string][];
  rules?: Cr26Rules;
  /** Bind SCAN_READER to the scanners svc reads (else the container's reader of none). */
  scanners?: boolean;
}

async function assessment(options: Setup = {}): Promise<UnitDoubles & { cr26: Cr26Assessment; conmon: (input: string, now: string) => Promise<unknown> }> {
  const { runs = [], rules, scanners = false, ...unit } = options;
  const d = unitContainer({ now: NOW, profile: PROFILE, files: FILES, ...unit });
  if (rules !== undefined) d.container.register(FEDRAMP_RULES_SOURCE, { useValue: new FixedRulesSource(rules) });
  if (scanners) d.container.register(SCAN_READER, { useValue: SCANNERS });
  const conmon = (input: string, now: string) => d.container.resolve(ProcessRun).execute({ input, now: new Date(now) });
  for (const [input, now] of runs) await conmon(input, now);
  return { ...d, cr26: d.container.resolve(Cr26Assessment), conmon };
}

/** The rules without `id` (a release that does not hold it). */
function rulesWithout(id: string): Cr26Rules {
  const rules = builtInRules();
  return { ...rules, rules: rules.rules.filter((r) => r.id !== id) };
}

const MACHINE_B = { kind: 'machine', rule: 'VDR-TFR-MVX', force: 'MUST', every: { unit: 'days', num: 7 } };
const NON_MACHINE = { kind: 'non-machine', rule: 'VDR-TFR-NMV', force: 'MUST', every: { unit: 'months', num: 3 } };
const result = (r: Partial<KsiResult>) => ({ result: { ksi_id: 'KSI-IAM-APM', status: 'PASS', ...r } as KsiResult, definition: undefined });

describe('Cr26Assessment, unit', () => {
  describe('scope(): the profile with the keys a command needs, the rules in use and what applies', () => {
    it('reads a 20x Class B profile: every KSI, the program path and applying status by default, the cadences of VDR-TFR-MVX and VDR-TFR-NMV, the clock', async () => {
      const { cr26 } = await assessment();
      const scope = cr26.scope({}, ['package_uri', 'evidence_base_uri'], 'svc fedramp sdr');
      expect(scope.profile).toEqual(PROFILE);
      expect(scope.rules.info.version).toBe('2026.10.05.01');
      expect(scope.now).toEqual(new Date(NOW));
      expect(scope.found.profile).toEqual({ type: '20x', class: 'B', path: 'program', status: 'applying' });
      expect(PROFILE_DEFAULTS).toEqual({ path: 'program', status: 'applying' });
      expect(scope.found.ksis.map((k) => [k.ksi.id, k.via])).toEqual(ALL_KSIS.map((id: string) => [id, 'type']));
      // As `svc fedramp rules --type 20x --class B` lists them (test/e2e/fedramp-sdr.test.ts): 155.
      expect(scope.found.rules).toHaveLength(155);
      expect(scope.cadences).toEqual({ machine: MACHINE_B, nonMachine: NON_MACHINE });
    });

    it('takes --type and --class over the profile, and --now over the clock: Rev5 Class C has no KSIs and VDR-TFR-MVF’s monthly cadence', async () => {
      const { cr26 } = await assessment();
      const scope = cr26.scope({ type: 'rev5', class: 'C', now: new Date('2026-12-01T00:00:00Z') }, [], 'svc fedramp readiness');
      expect(scope.profile).toEqual({ ...PROFILE, type: 'rev5', class: 'C' });
      expect(scope.now).toEqual(new Date('2026-12-01T00:00:00Z'));
      expect(scope.found.ksis).toEqual([]);
      expect(scope.cadences).toEqual({
        machine: { kind: 'machine', rule: 'VDR-TFR-MVF', force: 'MUST', every: { unit: 'months', num: 1 } },
        nonMachine: NON_MACHINE,
      });
    });

    it('gives Class A the 7 KSIs FRC-CLA-MFR names and VDR-TFR-MVX’s monthly SHOULD', async () => {
      const { cr26 } = await assessment();
      const scope = cr26.scope({ class: 'A' }, [], 'svc fedramp readiness');
      expect(scope.found.ksis.map((k) => [k.ksi.id, k.via])).toEqual(CLASS_A_KSIS.map((id) => [id, 'FRC-CLA-MFR']));
      expect(scope.cadences.machine).toEqual({ kind: 'machine', rule: 'VDR-TFR-MVX', force: 'SHOULD', every: { unit: 'months', num: 1 } });
    });

    it('gives 20x Class D, for which VDR-TFR-MVX says nothing, Class C’s 3 days, saying so', async () => {
      const { cr26 } = await assessment();
      expect(cr26.scope({ class: 'D' }, [], 'svc fedramp readiness').cadences.machine).toEqual({
        kind: 'machine',
        rule: 'VDR-TFR-MVX',
        force: 'MUST',
        every: { unit: 'days', num: 3 },
        from_class: 'C',
      });
    });

    it('takes the path, status and next assessment the profile gives', async () => {
      const { cr26 } = await assessment({ profile: { ...PROFILE, path: 'agency', status: 'certified', next_assessment: '2027-03-01' } });
      expect(cr26.scope({}, [], 'svc fedramp readiness').found.profile).toEqual({
        type: '20x',
        class: 'B',
        path: 'agency',
        status: 'certified',
        next_assessment: '2027-03-01',
      });
    });

    it('judges no kind of evidence for freshness whose cadence rule the release does not hold', async () => {
      const { cr26 } = await assessment({ rules: rulesWithout('VDR-TFR-MVX') });
      expect(cr26.scope({}, [], 'svc fedramp readiness').cadences).toEqual({ nonMachine: NON_MACHINE });
      const { cr26: none } = await assessment({ rules: rulesWithout('VDR-TFR-NMV') });
      expect(none.scope({}, [], 'svc fedramp readiness').cadences).toEqual({ machine: MACHINE_B });
    });

    it('takes the nearest lower class’s timeframe where the class’s variant gives none (Class B from Class A)', async () => {
      const rules = builtInRules();
      delete rules.rules.find((r) => r.id === 'VDR-TFR-MVX')!.varies_by_class!.B!.timeframe;
      const { cr26 } = await assessment({ rules });
      expect(cr26.scope({}, [], 'svc fedramp readiness').cadences.machine).toEqual({
        kind: 'machine',
        rule: 'VDR-TFR-MVX',
        force: 'SHOULD',
        every: { unit: 'months', num: 1 },
        from_class: 'A',
      });
    });

    describe('refuses, naming the key, the file and the flag that may give it, before anything is read or written', () => {
      it.each<[string, FedrampProfile, readonly ('package_uri' | 'evidence_base_uri')[], string]>([
        [
          'no type',
          { ...PROFILE, type: undefined },
          [],
          `${CONFIG}: fedramp.type: missing; svc fedramp sdr needs it: write "20x" or "rev5", or pass --type; see docs/configuration.md`,
        ],
        [
          'no class',
          { ...PROFILE, class: undefined },
          [],
          `${CONFIG}: fedramp.class: missing; svc fedramp sdr needs it: write A, B, C or D, or pass --class; see docs/configuration.md`,
        ],
        // The type is asked first, then the class, then the command's keys in its order.
        [
          'neither type nor package_uri',
          { class: 'B' },
          ['package_uri'],
          `${CONFIG}: fedramp.type: missing; svc fedramp sdr needs it: write "20x" or "rev5", or pass --type; see docs/configuration.md`,
        ],
        [
          'no package_uri (no flag gives it)',
          { type: '20x', class: 'B' },
          ['package_uri', 'evidence_base_uri'],
          `${CONFIG}: fedramp.package_uri: missing; svc fedramp sdr needs it: write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"; see docs/configuration.md`,
        ],
        [
          'no evidence_base_uri',
          { ...PROFILE, evidence_base_uri: undefined },
          ['package_uri', 'evidence_base_uri'],
          `${CONFIG}: fedramp.evidence_base_uri: missing; svc fedramp sdr needs it: write the URI evidence links start with, such as "https://trust.example.com/fedramp" (links are <uri>/evidence/<sha256>); see docs/configuration.md`,
        ],
      ])('a profile with %s', async (_what, profile, keys, message) => {
        const d = await assessment({ profile, runs: [THREE_DAYS[0]] });
        expect(() => d.cr26.scope({}, keys, 'svc fedramp sdr')).toThrow(expect.objectContaining({ code: 'invalid-config', message }));
        expect(d.writer.files.size).toBe(0);
        expect(d.store.shared.runs).toHaveLength(1);
        expect(d.store.shared.journal).toHaveLength(0);
      });

      it('takes the flags for a profile that gives neither type nor class', async () => {
        const { cr26 } = await assessment({ profile: { package_uri: PROFILE.package_uri } });
        expect(cr26.scope({ type: '20x', class: 'C' }, ['package_uri'], 'svc fedramp sdr').profile).toEqual({
          package_uri: PROFILE.package_uri,
          type: '20x',
          class: 'C',
        });
      });

      it('a release whose cadence rule gives no timeframe for the class or any lower one', async () => {
        const rules = builtInRules();
        const mvx = rules.rules.find((r) => r.id === 'VDR-TFR-MVX')!.varies_by_class!;
        delete mvx.A!.timeframe;
        delete mvx.B!.timeframe;
        const { cr26 } = await assessment({ rules });
        expect(() => cr26.scope({}, [], 'svc fedramp readiness')).toThrow(
          expect.objectContaining({
            code: 'no-cadence',
            message:
              'CR26 2026.10.05.01: VDR-TFR-MVX gives no timeframe for Class B, so svc cannot judge machine-based evidence for 20x Class B; use another --class or --type, or a release that gives it (SVC_FEDRAMP_RULES)',
          }),
        );
      });
    });
  });

  describe('statements()', () => {
    it('is none when the profile names no file, and the file’s statements by CR26 id when it names one', async () => {
      const { cr26 } = await assessment();
      const none = await cr26.statements(cr26.scope({}, [], 'svc fedramp sdr'));
      expect([none.file, none.byId.size, none.byControl.size]).toEqual(['', 0, 0]);
      const { cr26: named } = await assessment({ profile: { ...PROFILE, statements: '/work/statements.md' } });
      const read = await named.statements(named.scope({}, [], 'svc fedramp sdr'));
      expect(read.file).toBe('/work/statements.md');
      // KSI-IAM-02 is an earlier id of KSI-IAM-APM; "Planned" is written as Not Implemented, the word kept.
      expect(read.byId.get('KSI-IAM-APM')).toEqual({
        id: 'KSI-IAM-APM',
        written: 'KSI-IAM-02',
        line: 3,
        implementation: ['Passkeys only.'],
        validation: [],
        status: { value: 'Not Implemented', written: 'Planned' },
      });
    });

    it('refuses a statements file that is not there, naming it', async () => {
      const { cr26 } = await assessment({ profile: { ...PROFILE, statements: '/work/missing.md' } });
      await expect(cr26.statements(cr26.scope({}, [], 'svc fedramp sdr'))).rejects.toMatchObject({
        code: 'file-not-found',
        message: '/work/missing.md: no such input file; check the path',
      });
    });
  });

  describe('state(): the latest run of every source', () => {
    it('is undefined for an empty store', async () => {
      const { cr26 } = await assessment();
      expect(await cr26.state()).toBeUndefined();
      expect(cr26.storeLocation).toBe('memory');
    });

    it('names one run’s own input', async () => {
      const { cr26 } = await assessment({ runs: [THREE_DAYS[0]] });
      const state = (await cr26.state())!;
      expect(state.runs.map((r) => r.seq)).toEqual([1]);
      expect(state.newest.seq).toBe(1);
      expect(state.input).toEqual({ name: 'prowler-1.json', sha256: hex(JSON.stringify(PROWLER_1)) });
    });

    it('keeps each source’s latest run in seq order, the newest last, and names their inputs together, digested as one', async () => {
      const { cr26 } = await assessment({ runs: THREE_DAYS });
      const state = (await cr26.state())!;
      // Prowler's run 3 replaced its run 1; Checkov's run 2 stays.
      expect(state.runs.map((r) => [r.seq, r.source?.tool, r.as_of])).toEqual([
        [2, 'Checkov', '2026-11-02T08:00:00Z'],
        [3, 'Prowler', '2026-11-03T08:00:00Z'],
      ]);
      expect([state.newest.seq, state.newest.as_of]).toEqual([3, '2026-11-03T08:00:00Z']);
      // sha256sum's lines, in seq order.
      const lines = `${hex(JSON.stringify(CHECKOV_2))}  checkov-2.json\n${hex(JSON.stringify(PROWLER_3))}  prowler-3.json\n`;
      expect(state.input).toEqual({ name: 'checkov-2.json + prowler-3.json', sha256: hex(lines) });
    });
  });

  describe('storedPicture(): the picture of the store’s state, its KSIs’ daily statuses from every run', () => {
    it('judges each day by the last run of every source by its end, and the state on the newest run’s day', async () => {
      const { cr26 } = await assessment({ runs: THREE_DAYS });
      const scope = cr26.scope({}, [], 'svc fedramp readiness');
      const { picture, results } = await cr26.storedPicture(scope, (await cr26.state())!.runs);
      // Checkov's 2 results and Prowler's 1.
      expect(results).toBe(2 + 1);
      expect(picture.facts.results).toBe(3);
      // 1st: Prowler passes. 2nd: Prowler's 1st passes, Checkov passes. 3rd: Prowler fails, Checkov passes.
      expect(picture.daily.get('KSI-IAM-APM')).toEqual([
        { date: '2026-11-01', status: 'Implemented' },
        { date: '2026-11-02', status: 'Implemented' },
        { date: '2026-11-03', status: 'Partially Implemented' },
      ]);
      // Only Checkov reaches it, from the 2nd.
      expect(picture.daily.get('KSI-CNA-RNT')).toEqual([
        { date: '2026-11-01' },
        { date: '2026-11-02', status: 'Not Implemented' },
        { date: '2026-11-03', status: 'Not Implemented' },
      ]);
      expect(picture.daily.get('KSI-RPL-ABO')).toEqual([{ date: '2026-11-01' }, { date: '2026-11-02' }, { date: '2026-11-03' }]);
      expect([...picture.daily.keys()]).toEqual(ALL_KSIS);
      expect(picture.metricDays).toBe(3);
      expect(picture).not.toHaveProperty('controls');

      // The state's results: Checkov's pass and Prowler's fail reach KSI-IAM-APM, each with its own check.
      const apm = picture.facts.tally.evaluation().ksis.find((k) => k.id === 'KSI-IAM-APM')!;
      expect(apm).toMatchObject({ status: 'Partially Implemented', methods: 2, methodsRequired: { min: 1, force: 'SHOULD' }, methodsMet: true });
      expect([apm.tally.pass, apm.tally.fail, apm.tally.other, [...apm.tally.tools].sort()]).toEqual([1, 1, 0, ['Checkov', 'Prowler']]);
      // Each result dated by its observed_at, its tool its run's; none is fresh: 7 days before NOW is 2026-11-13T12:00Z.
      expect(apm.tally.indices.map((i) => ({ ...picture.facts.evidence(i), hash: 'h' }))).toEqual([
        { type: 'Report', tool: 'Checkov', ksi_id: 'KSI-IAM-APM', status: 'PASS', kind: 'machine', date: '2026-11-02', hash: 'h' },
        { type: 'Report', tool: 'Prowler', ksi_id: 'KSI-IAM-APM', status: 'FAIL', kind: 'machine', date: '2026-11-03', hash: 'h' },
      ]);
      expect(picture.facts.freshness).toEqual({
        machine: { total: 3, fresh: 0, stale: 3, undated: 0, oldest: '2026-11-02T08:00:00Z' },
        nonMachine: { total: 0, fresh: 0, stale: 0, undated: 0 },
      });
    });

    it('gives 20x Class B the KSI metrics of SDR-CSX-KMT over 30 days and the year from the first recorded day, with no daily list and no history required', async () => {
      const { cr26 } = await assessment({ runs: THREE_DAYS });
      const { picture } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp sdr'), (await cr26.state())!.runs);
      // 30 days: 2026-10-22 to 2026-11-20. The year: from the 1st (the first day recorded) to the 20th, 20 days.
      expect(picture.metrics!.get('KSI-IAM-APM')).toEqual({
        last30Days: { days: 30, implemented: 2, partially: 1, notImplemented: 0, noEvidence: 27 },
        lastYear: { days: 20, implemented: 2, partially: 1, notImplemented: 0, noEvidence: 17 },
      });
      expect(picture.metrics!.get('KSI-CNA-RNT')).toEqual({
        last30Days: { days: 30, implemented: 0, partially: 0, notImplemented: 2, noEvidence: 28 },
        lastYear: { days: 20, implemented: 0, partially: 0, notImplemented: 2, noEvidence: 18 },
      });
      expect(picture.metrics!.size).toBe(46);
      // FRC-CSX-MOT names no period for Class B.
      expect(picture.history.get('KSI-IAM-APM')).toEqual({ since: '2026-11-01' });
      expect(picture.history.get('KSI-CNA-RNT')).toEqual({ since: '2026-11-02' });
      expect(picture.history.get('KSI-RPL-ABO')).toEqual({});
    });

    it('gives Class C its daily statuses in the metrics and FRC-CSX-MOT’s 6 months of history (MUST), not met by 19 days', async () => {
      const { cr26 } = await assessment({ runs: THREE_DAYS, profile: { ...PROFILE, class: 'C' } });
      const { picture } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp sdr'), (await cr26.state())!.runs);
      const daily = [
        { date: '2026-11-01', status: 'Implemented' },
        { date: '2026-11-02', status: 'Implemented' },
        { date: '2026-11-03', status: 'Partially Implemented' },
      ];
      expect(picture.metrics!.get('KSI-IAM-APM')!.daily).toEqual(daily);
      // 6 calendar months before 2026-11-20.
      expect(picture.history.get('KSI-IAM-APM')).toEqual({ since: '2026-11-01', required: { months: 6, force: 'MUST', from: '2026-05-20' }, met: false });
      expect(picture.history.get('KSI-RPL-ABO')).toEqual({ required: { months: 6, force: 'MUST', from: '2026-05-20' }, met: false });
      // FRC-CSX-VVK asks Class C at least 2 methods (MUST): Checkov's and Prowler's checks are 2.
      expect(picture.facts.tally.evaluation().ksis.find((k) => k.id === 'KSI-IAM-APM')).toMatchObject({
        methodsRequired: { min: 2, force: 'MUST' },
        methodsMet: true,
      });
    });

    it('carries no KSI metrics when the release does not hold SDR-CSX-KMT, the daily statuses still', async () => {
      const { cr26 } = await assessment({ runs: THREE_DAYS, rules: rulesWithout('SDR-CSX-KMT') });
      const { picture } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp sdr'), (await cr26.state())!.runs);
      expect(picture).not.toHaveProperty('metrics');
      expect(picture.daily.get('KSI-IAM-APM')).toHaveLength(3);
      expect(picture.metricDays).toBe(3);
    });

    it('gives Rev5 no KSIs, no metrics, and its class’s controls from FRC-CSF-BSL, normalized, with the statuses of the results that name them', async () => {
      const { cr26 } = await assessment({ runs: [['/r/rev5.json', '2026-11-02T09:00:00Z']], profile: { ...PROFILE, type: 'rev5' } });
      const { picture, results } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp sdr'), (await cr26.state())!.runs);
      expect(results).toBe(2);
      expect(picture.daily.size).toBe(0);
      expect(picture.history.size).toBe(0);
      expect(picture.metricDays).toBe(0);
      expect(picture).not.toHaveProperty('metrics');
      // Class B's 155 controls in the file's order: AC-01, AC-02, AC-03 …; IA-02 (01) as ia-2.1.
      expect(picture.controls).toHaveLength(155);
      expect(picture.controls!.slice(0, 4)).toEqual(['ac-1', 'ac-2', 'ac-3', 'ac-7']);
      expect(picture.controls).toContain('ia-2.1');
      expect(picture.controls).not.toContain('ac-2.1');
      // The catalog's KSI-AC-02 names ac-2 and its enhancements; KSI-AU-02 names au-2.
      expect(picture.facts.controls.get('ac-2')).toEqual({ pass: 1, fail: 0, other: 0 });
      expect(picture.facts.controls.get('ac-2.13')).toEqual({ pass: 1, fail: 0, other: 0 });
      expect(picture.facts.controls.get('au-2')).toEqual({ pass: 0, fail: 1, other: 0 });
    });

    it('is the picture of no results for no run', async () => {
      const { cr26 } = await assessment();
      const { picture, results } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp sdr'), []);
      expect(results).toBe(0);
      expect(picture.facts.results).toBe(0);
      expect(picture.facts.tally.evaluation().noEvidence).toEqual(ALL_KSIS);
      // The state's day is now's, without a status.
      expect(picture.daily.get('KSI-IAM-APM')).toEqual([{ date: '2026-11-20' }]);
    });

    it('reaches back to `since` when it is more than a year before now, and to the last day with a run before it', async () => {
      const { cr26 } = await assessment({ runs: OVER_A_YEAR });
      const scope = cr26.scope({}, [], 'svc fedramp ocr');
      const runs = (await cr26.state())!.runs;
      // The year alone: 2025-11-20T12:00Z on; the 2025 runs are before it.
      expect((await cr26.storedPicture(scope, runs)).picture.daily.get('KSI-IAM-APM')).toEqual([{ date: '2026-11-02', status: 'Implemented' }]);
      const { picture } = await cr26.storedPicture(scope, runs, '2025-06-01');
      expect(picture.daily.get('KSI-IAM-APM')).toEqual([
        // The last day with a run before 2025-06-01: the status the period's first change is a change from.
        { date: '2025-05-20', status: 'Implemented' },
        { date: '2025-06-10', status: 'Not Implemented' },
        { date: '2026-11-02', status: 'Implemented' },
      ]);
      // The metrics stay the year's: one recorded day in it (2026-11-02, 19 days to the 20th).
      expect(picture.metricDays).toBe(1);
      expect(picture.metrics!.get('KSI-IAM-APM')).toEqual({
        last30Days: { days: 30, implemented: 1, partially: 0, notImplemented: 0, noEvidence: 29 },
        lastYear: { days: 19, implemented: 1, partially: 0, notImplemented: 0, noEvidence: 18 },
      });
    });

    it('with a `since` inside the year, reaches back to the last day with a run before the year (what the first change in it is measured from)', async () => {
      const { cr26 } = await assessment({ runs: OVER_A_YEAR });
      const { picture } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp ocr'), (await cr26.state())!.runs, '2026-09-01');
      expect(picture.daily.get('KSI-IAM-APM')).toEqual([
        { date: '2025-06-10', status: 'Not Implemented' },
        { date: '2026-11-02', status: 'Implemented' },
      ]);
    });

    it.each([
      ['the KSI history of the newest run (as recorded now)', [] as string[], 0],
      ['each run’s KSI counts (a store recorded before svc kept a history)', [KSI_HISTORY_DOCUMENT], 3],
      ['each run’s results (a store recorded before svc stored counts)', [KSI_HISTORY_DOCUMENT, KSI_COUNTS_DOCUMENT], 3],
    ])('gives the same days read from %s', async (_how, hide, countsOpened) => {
      const d = await assessment({ runs: THREE_DAYS });
      const { view, opened } = hiding(d.store, hide);
      d.container.register(RUN_STORE, { useValue: view });
      const cr26 = d.container.resolve(Cr26Assessment);
      const { picture } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp sdr'), (await cr26.state())!.runs);
      expect(picture.daily.get('KSI-IAM-APM')!.map((s) => s.status)).toEqual(['Implemented', 'Implemented', 'Partially Implemented']);
      expect(picture.daily.get('KSI-CNA-RNT')!.map((s) => s.status)).toEqual([undefined, 'Not Implemented', 'Not Implemented']);
      expect(opened.get(KSI_HISTORY_DOCUMENT)).toBe(1);
      expect(opened.get(KSI_COUNTS_DOCUMENT) ?? 0).toBe(countsOpened);
    });

    it('reads a run’s stored counts once for the life of the instance: after a new run, only that one’s', async () => {
      const d = await assessment({ runs: THREE_DAYS });
      const { view, opened } = hiding(d.store, [KSI_HISTORY_DOCUMENT]);
      d.container.register(RUN_STORE, { useValue: view });
      const cr26 = d.container.resolve(Cr26Assessment);
      const scope = cr26.scope({}, [], 'svc fedramp sdr');
      await cr26.storedPicture(scope, (await cr26.state())!.runs);
      expect(opened.get(KSI_COUNTS_DOCUMENT)).toBe(3);
      await d.conmon('/r/prowler-4.json', '2026-11-04T09:00:00Z');
      const { picture } = await cr26.storedPicture(scope, (await cr26.state())!.runs);
      expect(opened.get(KSI_COUNTS_DOCUMENT)).toBe(3 + 1);
      // The 4th: Prowler passes again, Checkov still passes.
      expect(picture.daily.get('KSI-IAM-APM')!.map((s) => [s.date, s.status])).toEqual([
        ['2026-11-01', 'Implemented'],
        ['2026-11-02', 'Implemented'],
        ['2026-11-03', 'Partially Implemented'],
        ['2026-11-04', 'Implemented'],
      ]);
    });

    it('refuses a store whose runs no longer verify, naming the run', async () => {
      const d = await assessment({ runs: THREE_DAYS });
      const runs = (await d.cr26.state())!.runs;
      d.store.shared.runs[1].run.summary.as_of = '2026-11-01T08:00:00Z';
      await expect(d.cr26.storedPicture(d.cr26.scope({}, [], 'svc fedramp sdr'), runs)).rejects.toMatchObject({
        code: 'run-store-tampered',
        message: expect.stringMatching(
          /^memory: the hash chain does not match the summary of run 2 \([0-9a-f]{64}\); the store was modified outside svc\. Restore it from backup$/,
        ),
      });
    });

    // Found by this suite (issue 36): the state's newest run was the last recorded (by seq), so a source's older report
    // recorded after another's newer one stamped the state's status on the older day.
    it('keeps a day’s status from the store when the newest run by seq is of an earlier day than another source’s', async () => {
      const { cr26 } = await assessment({
        runs: [
          ['/r/prowler-1.json', '2026-11-01T09:00:00Z'],
          ['/r/prowler-3.json', '2026-11-03T09:00:00Z'],
          ['/r/checkov-2.json', '2026-11-04T09:00:00Z'],
        ],
      });
      const { picture } = await cr26.storedPicture(cr26.scope({}, [], 'svc fedramp sdr'), (await cr26.state())!.runs);
      expect(picture.daily.get('KSI-IAM-APM')).toEqual([
        { date: '2026-11-01', status: 'Implemented' },
        { date: '2026-11-02', status: 'Implemented' },
        { date: '2026-11-03', status: 'Partially Implemented' },
      ]);
    });
  });

  describe('load() and picture(): a report read as `fedramp sdr <report>` reads it, with the store’s history', () => {
    it.each([
      [
        'of an earlier day takes that day’s place among the stored ones',
        '/r/earlier-day.json',
        ['Implemented', 'Not Implemented', 'Partially Implemented'],
        ['2026-11-01', '2026-11-02', '2026-11-03'],
      ],
      [
        'of a later day is added after them',
        '/r/later-day.json',
        ['Implemented', 'Implemented', 'Partially Implemented', 'Implemented'],
        ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-10'],
      ],
    ])('a report %s', async (_what, input, statuses, dates) => {
      const { cr26 } = await assessment({ runs: THREE_DAYS });
      const scope = cr26.scope({}, [], 'svc fedramp sdr');
      const { run, facts } = await cr26.load(scope, { input });
      expect([run.results, facts.results]).toEqual([1, 1]);
      const picture = await cr26.picture(scope, run, facts);
      expect(picture.daily.get('KSI-IAM-APM')!.map((s) => s.date)).toEqual(dates);
      expect(picture.daily.get('KSI-IAM-APM')!.map((s) => s.status)).toEqual(statuses);
      expect(picture.metricDays).toBe(dates.length);
    });
  });

  describe('factsOf(): the facts of results as the scope judges them', () => {
    const AT = '2026-11-18T00:00:00Z';
    const hash = 'ab'.repeat(32);

    it('types a scanner svc reads by what its parser declares (Prowler: Configuration), a version or more words after its name too', async () => {
      const { cr26 } = await assessment({ scanners: true });
      const facts = cr26.factsOf(cr26.scope({}, [], 'svc fedramp sdr') as Cr26Scope<never>, builtInCatalog(), AT, 'Prowler');
      facts.add(result({ observed_at: '2026-11-17T00:00:00Z' }), () => hash);
      facts.add(result({ status: 'FAIL' }), () => hash, { generatedAt: '2026-11-01T00:00:00Z', tool: 'Trivy Operator' });
      facts.add(result({ status: 'WARN', evidence_kind: 'non-machine' }), () => hash);
      facts.add(result({}), () => hash, { generatedAt: 'not a time', tool: 'AWS CloudTrail' });
      facts.add(result({}), () => hash, { generatedAt: AT, tool: 'In-house checker' });
      expect([0, 1, 2, 3, 4].map((i) => facts.evidence(i))).toEqual([
        { type: 'Configuration', tool: 'Prowler', ksi_id: 'KSI-IAM-APM', status: 'PASS', kind: 'machine', date: '2026-11-17', hash },
        // Trivy declares Report; the run's generated_at dates a result without observed_at.
        { type: 'Report', tool: 'Trivy Operator', ksi_id: 'KSI-IAM-APM', status: 'FAIL', kind: 'machine', date: '2026-11-01', hash },
        // Non-machine evidence is a Policy whatever its tool; dated by the report's generated_at.
        { type: 'Policy', tool: 'Prowler', ksi_id: 'KSI-IAM-APM', status: 'WARN', kind: 'non-machine', date: '2026-11-18', hash },
        // A tool svc has no parser for, by its name: a log source; no time, no date.
        { type: 'Log', tool: 'AWS CloudTrail', ksi_id: 'KSI-IAM-APM', status: 'PASS', kind: 'machine', hash },
        { type: 'Report', tool: 'In-house checker', ksi_id: 'KSI-IAM-APM', status: 'PASS', kind: 'machine', date: '2026-11-18', hash },
      ]);
      // Class B's 7 days of VDR-TFR-MVX before NOW: 2026-11-13T12:00Z; non-machine evidence 3 months.
      expect(facts.freshness).toEqual({
        machine: { total: 4, fresh: 2, stale: 1, undated: 1, oldest: '2026-11-01T00:00:00Z' },
        nonMachine: { total: 1, fresh: 1, stale: 0, undated: 0, oldest: '2026-11-18T00:00:00Z' },
      });
      expect([0, 1, 2, 3, 4].map((i) => facts.age(i))).toEqual(['fresh', 'stale', 'fresh', 'undated', 'fresh']);
    });

    it('types a scanner by its name alone when SCAN_READER declares none (Prowler: a Report)', async () => {
      const { cr26 } = await assessment();
      const facts = cr26.factsOf(cr26.scope({}, [], 'svc fedramp sdr') as Cr26Scope<never>, builtInCatalog(), AT, 'Prowler');
      facts.add(result({}), () => hash);
      expect(facts.evidence(0).type).toBe('Report');
    });

    it('reaches the scope’s KSIs only: Class A’s 7, a result of another KSI unmapped as not applicable', async () => {
      const { cr26 } = await assessment();
      const facts = cr26.factsOf(cr26.scope({ class: 'A' }, [], 'svc fedramp sdr') as Cr26Scope<never>, builtInCatalog(), AT, 'Prowler');
      facts.add(result({ ksi_id: 'KSI-RPL-ABO' }), () => hash);
      facts.add(result({}), () => hash);
      const evaluation = facts.tally.evaluation();
      expect(evaluation.ksis.map((k) => k.id)).toEqual(CLASS_A_KSIS);
      // Class A: FRC-CSX-VVK names no number.
      expect(evaluation.ksis.find((k) => k.id === 'KSI-IAM-APM')).toEqual(expect.not.objectContaining({ methodsRequired: expect.anything() }));
      expect(evaluation.unmapped).toEqual([{ id: 'KSI-RPL-ABO', kind: 'not-applicable', reason: "KSI-RPL-ABO does not apply to the profile's class A" }]);
      expect(facts.results).toBe(2);
    });

    it('judges no freshness against a cadence the release does not hold: dated machine evidence is fresh however old', async () => {
      const { cr26 } = await assessment({ rules: rulesWithout('VDR-TFR-MVX') });
      const facts = cr26.factsOf(cr26.scope({}, [], 'svc fedramp sdr') as Cr26Scope<never>, builtInCatalog(), '2020-01-01T00:00:00Z', 'Prowler');
      facts.add(result({}), () => hash);
      expect(facts.freshness.machine).toEqual({ total: 1, fresh: 1, stale: 0, undated: 0, oldest: '2020-01-01T00:00:00Z' });
    });
  });
});
