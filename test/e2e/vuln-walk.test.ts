import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE, svc, type SvcRun } from '../support/run-svc';
import type { ListedVulnerability } from '../../src/application/vulnerabilities/listed-vulnerability';

/*
 * Issue 24, DESIGN §12.4: "Time is an input: every command that judges or records time takes --now, so a test walks
 * groups through 200 days of recorded runs and sees each evaluated, overdue and accepted on the right day for each
 * class". One run store, one profile (Class D); `svc vuln list --class A|B|C|D --now` judges the same register for
 * each class. Runs are recorded on a handful of days from day 0 (2026-12-07) to day 200, evaluations at their own
 * times, and the register is listed at the exact instants where a timeframe ends (at it, and one second after), all
 * in the order of time: the store holds, at each listing, only what was recorded up to that instant.
 * Every timeframe is read here from FedRAMP's rules file as it is, not through svc's parser nor retyped.
 */

type Cls = 'A' | 'B' | 'C' | 'D';
type Category = 'irv_lev' | 'nirv_lev' | 'nlev';
const CLASSES: Cls[] = ['A', 'B', 'C', 'D'];

// ---- FedRAMP's rules data (the release svc bundles, 2026.10.05.01) -------------------------------------------------
interface Timeframe {
  timeframe_type: string;
  timeframe_num: number;
}
interface FrrRule extends Partial<Timeframe> {
  statement?: string;
  varies_by_class?: Record<string, Partial<Timeframe> & { statement: string; pain_timeframes?: Record<string, Partial<Record<Category, Timeframe>>> }>;
}
const RULES_FILE = join(REFERENCE, 'fedramp', 'fedramp-consolidated-rules.2026.10.05.01.json');
const RULES = JSON.parse(readFileSync(RULES_FILE, 'utf8')) as {
  info: { version: string };
  FRR: Record<string, { data: Record<string, Record<string, Record<string, FrrRule>>> }>;
};

/** A rule of the FRR section by id, wherever its family file files it (FRR → VER|VDR → data → applies-to → kind). */
function rule(id: string): FrrRule {
  for (const byKind of Object.values(RULES.FRR[id.split('-')[0]].data))
    for (const rules of Object.values(byKind)) if (rules[id] !== undefined) return rules[id];
  throw new Error(`${RULES_FILE}: no rule ${id}`);
}
const SECOND = 1000;
const HOUR = 3_600 * SECOND;
const DAY = 24 * HOUR;
const UNIT_MS: Record<string, number> = { hours: HOUR, days: DAY };
function span(t: Partial<Timeframe> | undefined, what: string): number {
  if (t?.timeframe_type === undefined || t.timeframe_num === undefined || UNIT_MS[t.timeframe_type] === undefined)
    throw new Error(`${what}: no timeframe in hours or days in the rules file`);
  return t.timeframe_num * UNIT_MS[t.timeframe_type];
}
/** VER-TFR-EVU: evaluate within … of detection, by class. */
const evuOf = (cls: Cls) => rule('VER-TFR-EVU').varies_by_class![cls.toLowerCase()];
const EVU = (cls: Cls) => span(evuOf(cls), `VER-TFR-EVU Class ${cls}`);
/** VDR-TFR-PVR's table: class × current N × IRV+LEV / not IRV + LEV / not LEV; undefined where it has no cell (N1). */
const pvrOf = (cls: Cls, n: number, cat: Category) => rule('VDR-TFR-PVR').varies_by_class![cls.toLowerCase()].pain_timeframes![String(n)][cat];
const PVR = (cls: Cls, n: number, cat: Category) => span(pvrOf(cls, n, cat), `VDR-TFR-PVR Class ${cls} N${n} ${cat}`);
/** VER-TFR-MAV: accepted when not fully mitigated or remediated within 192 days of evaluation. */
const MAV = span(rule('VER-TFR-MAV'), 'VER-TFR-MAV');

// ---- Time ------------------------------------------------------------------------------------------------------------
const T0 = Date.parse('2026-12-07T00:00:00Z');
const day = (d: number, hours = 0) => T0 + d * DAY + hours * HOUR;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
const inDays = (ms: number) => `${ms / DAY} days`;

// ---- The scanned estate ----------------------------------------------------------------------------------------------
interface Scanned {
  finding: string;
  resource: string;
  severity: string;
  /** The first run (day) that detects it; every later run does, until `goneFrom`. */
  from: number;
  goneFrom?: number;
  /** What the evaluation policy makes of it at detection (default N-ratings by severity, `*.example.com` reachable, KEV → LEV). */
  policy: { irv: boolean; lev: boolean; n: number };
}
/** Re-rated by a person on day 3: N4, internet-reachable, likely exploitable. */
const RERATED_IRV_LEV: Scanned = {
  finding: 'CVE-2026-1001',
  resource: 'app.example.com',
  severity: 'MEDIUM',
  from: 0,
  policy: { irv: true, lev: false, n: 3 },
};
/** Re-rated by a person on day 3: N3, not internet-reachable, likely exploitable. */
const RERATED_NIRV_LEV: Scanned = { finding: 'CVE-2026-1002', resource: 'db-1', severity: 'HIGH', from: 0, policy: { irv: false, lev: false, n: 4 } };
/** Only the policy's evaluation: N4, not likely exploitable. */
const POLICY_NLEV: Scanned = { finding: 'CVE-2026-1003', resource: 'db-2', severity: 'HIGH', from: 0, policy: { irv: false, lev: false, n: 4 } };
/** Evaluated by a person on day 1 at 00:00: N5, internet-reachable, likely exploitable (Class D: 12 hours). */
const N5_IRV_LEV: Scanned = { finding: 'CVE-2026-1004', resource: 'edge.example.com', severity: 'MEDIUM', from: 0, policy: { irv: true, lev: false, n: 3 } };
/** In the KEV catalog (due 2026-12-17), fully mitigated on day 2. */
const KEV_FULLY_MITIGATED: Scanned = { finding: 'CVE-2026-1005', resource: 'internal-1', severity: 'LOW', from: 0, policy: { irv: false, lev: true, n: 2 } };
/** In the KEV catalog (due 2026-12-27), partially mitigated to N2 on day 0 at 12:00. */
const KEV_PARTIALLY_MITIGATED: Scanned = {
  finding: 'CVE-2026-1006',
  resource: 'internal-2',
  severity: 'CRITICAL',
  from: 0,
  policy: { irv: false, lev: true, n: 5 },
};
/** No longer detected by the day-12 run. */
const REMEDIATED_DAY_12: Scanned = {
  finding: 'CVE-2026-1007',
  resource: 'db-3',
  severity: 'CRITICAL',
  from: 0,
  goneFrom: 12,
  policy: { irv: false, lev: false, n: 5 },
};
/** First detected by the day-5 run. */
const DETECTED_DAY_5: Scanned = { finding: 'CVE-2026-1008', resource: 'db-4', severity: 'LOW', from: 5, policy: { irv: false, lev: false, n: 2 } };
const ESTATE = [RERATED_IRV_LEV, RERATED_NIRV_LEV, POLICY_NLEV, N5_IRV_LEV, KEV_FULLY_MITIGATED, KEV_PARTIALLY_MITIGATED, REMEDIATED_DAY_12, DETECTED_DAY_5];
const KEV = [
  { cveID: KEV_FULLY_MITIGATED.finding, dueDate: '2026-12-17', vendorProject: 'Example' },
  { cveID: KEV_PARTIALLY_MITIGATED.finding, dueDate: '2026-12-27', vendorProject: 'Example' },
];
const category = (p: { irv: boolean; lev: boolean }): Category => (p.irv && p.lev ? 'irv_lev' : p.lev ? 'nirv_lev' : 'nlev');

/** The days a run is recorded on: each detects what is open that day, its report generated at 00:00Z of that day. */
const RUN_DAYS = [0, 1, 3, 5, 12, 33, 65, 100, 150, 192, 200];

/** The persons' evaluations, each recorded with `svc vuln evaluate --now` at its time. */
const EVALUATIONS: { at: number; group: Scanned; args: string[] }[] = [
  { at: day(0, 12), group: KEV_PARTIALLY_MITIGATED, args: ['--mitigated', 'partial', '--n', 'N2', '--reason', 'segment isolated from the vector'] },
  { at: day(1), group: N5_IRV_LEV, args: ['--irv', 'yes', '--lev', 'yes', '--n', 'N5', '--reason', 'public exploit against the edge proxy'] },
  { at: day(2), group: KEV_FULLY_MITIGATED, args: ['--mitigated', 'full', '--reason', 'WAF rule blocks the vector'] },
  { at: day(3), group: RERATED_IRV_LEV, args: ['--irv', 'yes', '--lev', 'yes', '--n', 'N4', '--reason', 'reachable through the API gateway'] },
  { at: day(3), group: RERATED_NIRV_LEV, args: ['--irv', 'no', '--lev', 'yes', '--n', 'N3', '--reason', 'exploit published; internal only'] },
];
const BY = 'ada@example.com';

// ---- The walk: runs, evaluations and listings in the order of time --------------------------------------------------
type Listed = ListedVulnerability;
type ProbeKind = 'json' | 'human' | 'avi';
interface Probe {
  kind: ProbeKind;
  cls: Cls;
  at: number;
  result?: SvcRun;
  parsed?: Map<string, Listed>;
}
/** Listings asked for while the tests are collected; the walk (beforeAll) runs them at their instants. */
const probes = new Map<string, Probe>();
function probe(cls: Cls, at: number, kind: ProbeKind = 'json'): () => SvcRun {
  const key = `${kind} ${cls} ${iso(at)}`;
  if (!probes.has(key)) probes.set(key, { kind, cls, at });
  return () => {
    const p = probes.get(key)!;
    if (p.result === undefined) throw new Error(`${key}: not listed by the walk`);
    if (p.result.status !== 0) throw new Error(`${key}: exit ${p.result.status}: ${p.result.stderr}`);
    return p.result;
  };
}
/** The register listed for a class at an instant, by finding id. */
function register(cls: Cls, at: number): () => Map<string, Listed> {
  const get = probe(cls, at);
  return () => {
    const p = probes.get(`json ${cls} ${iso(at)}`)!;
    p.parsed ??= new Map((JSON.parse(get().stdout) as Listed[]).map((v) => [v.finding_id, v]));
    return p.parsed;
  };
}
function group(listing: () => Map<string, Listed>, g: Scanned): Listed {
  const v = listing().get(g.finding);
  if (v === undefined) throw new Error(`${g.finding} not in the register`);
  return v;
}
const evaluationOutputs = new Map<string, SvcRun>();

let work: string;
const run = (args: string[]): SvcRun => svc(args, { cwd: work, env: { SVC_HOME: join(work, '.svc') } });
const must = (r: SvcRun, what: string): SvcRun => {
  if (r.status !== 0) throw new Error(`${what}: exit ${r.status}: ${r.stderr}`);
  return r;
};

const detection = (g: Scanned, d: number) => ({
  id: `VULN-${createHash('sha256').update(`Trivy\n${g.finding}\n${g.resource}`).digest('hex').slice(0, 20)}`,
  source: 'Trivy',
  finding_id: g.finding,
  resource: g.resource,
  title: `${g.finding} found`,
  scanner_severity: g.severity,
  detected_at: iso(day(d)),
});
function recordRun(d: number): void {
  const open = ESTATE.filter((g) => g.from <= d && (g.goneFrom === undefined || d < g.goneFrom));
  const report = {
    schema_version: '1',
    generated_at: iso(day(d)),
    source: { tool: 'Trivy' },
    results: [{ ksi_id: 'KSI-SI-02', status: 'FAIL' }],
    vulnerabilities: open.map((g) => detection(g, d)),
  };
  writeFileSync(join(work, 'r', `day-${d}.json`), JSON.stringify(report));
  must(run(['conmon', 'process', `r/day-${d}.json`]), `conmon process day ${d}`);
}
function list(p: Probe): SvcRun {
  const now = iso(p.at);
  if (p.kind === 'avi') return run(['vuln', 'report', '--format', 'avi', '--class', p.cls, '--from', iso(T0), '--to', now, '--now', now, '--json']);
  return run(['vuln', 'list', '--class', p.cls, '--now', now, ...(p.kind === 'json' ? ['--json'] : [])]);
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-vuln-walk-'));
  mkdirSync(join(work, 'r'));
  writeFileSync(
    join(work, 'svc.config.json'),
    JSON.stringify({
      fedramp: { type: '20x', class: 'D', package_uri: 'https://trust.example.com/fedramp/cpo.json' },
      vulnerabilities: { kev_catalog: 'kev.json', policy: { internet_reachable: ['*.example.com'] } },
    }),
  );
  writeFileSync(join(work, 'kev.json'), JSON.stringify({ catalogVersion: '2026.12.06', vulnerabilities: KEV }));
  // At one instant a run is recorded first, then evaluations, then the register is listed.
  const steps = [
    ...RUN_DAYS.map((d) => ({ at: day(d), order: 0, step: () => recordRun(d) })),
    ...EVALUATIONS.map((e) => ({
      at: e.at,
      order: 1,
      step: () =>
        evaluationOutputs.set(
          e.group.finding,
          must(run(['vuln', 'evaluate', e.group.finding, ...e.args, '--by', BY, '--now', iso(e.at)]), `vuln evaluate ${e.group.finding}`),
        ),
    })),
    ...[...probes.values()].map((p) => ({ at: p.at, order: 2, step: () => (p.result = list(p)) })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  for (const { step } of steps) step();
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

// ---- What the rules say, and what svc must print ---------------------------------------------------------------------
const pvrReason = (n: number, due: number) => `N${n} not mitigated or remediated by ${iso(due)} (VDR-TFR-PVR)`;
const kevReason = (dueDate: string) => `KEV due ${dueDate} and still detected (VDR-TFR-KEV)`;
const NOT_OVERDUE = { is: false, reasons: [] };
const POLICY_BY = expect.stringMatching(/^policy:[0-9a-f]{12}$/);
/** The instant VDR-TFR-KEV makes an entry late: the day after its catalog dueDate, at 00:00Z (due_at is the end of dueDate). */
const kevLateFrom = (dueDate: string) => Date.parse(`${dueDate}T00:00:00Z`) + DAY;
const KEV_FULL_DUE = KEV[0].dueDate;
const KEV_PARTIAL_DUE = KEV[1].dueDate;

describe('svc vuln: a 200-day walk through recorded runs, judged at --now for Classes A–D (DESIGN §12.4, issue 24)', () => {
  it("reads its timeframes from FedRAMP's rules file, which says what DESIGN §12.4 says", () => {
    expect(RULES.info.version).toBe('2026.10.05.01');
    expect(CLASSES.map((c) => [evuOf(c).timeframe_type, evuOf(c).timeframe_num])).toEqual([
      ['days', 14],
      ['days', 7],
      ['days', 5],
      ['days', 2],
    ]);
    expect(pvrOf('D', 5, 'irv_lev')).toMatchObject({ timeframe_type: 'hours', timeframe_num: 12 });
    expect(rule('VER-TFR-MAV')).toMatchObject({ timeframe_type: 'days', timeframe_num: 192 });
    expect(rule('VER-TFR-MAV').statement).toBe(
      'Providers MUST categorize any vulnerability that is not or will not be fully mitigated or remediated within 192 days of evaluation as an accepted vulnerability.',
    );
    expect(CLASSES.map((c) => pvrOf(c, 1, 'irv_lev'))).toEqual([undefined, undefined, undefined, undefined]);
  });

  describe("day 0: the first run records each group with the evaluation policy's evaluation, which counts for VER-TFR-EVU", () => {
    for (const cls of CLASSES) {
      const atDetection = register(cls, T0);
      const afterWindow = register(cls, T0 + EVU(cls) + SECOND);
      it(`Class ${cls}: each group is evaluated by policy at detection, due for evaluation ${inDays(EVU(cls))} after it and for mitigation by VDR-TFR-PVR from it`, () => {
        for (const g of ESTATE.filter((x) => x.from === 0)) {
          const { irv, lev, n } = g.policy;
          expect(group(atDetection, g)).toMatchObject({
            state: 'evaluated',
            current_n: n,
            irv,
            lev,
            first_detected: iso(T0),
            overdue: NOT_OVERDUE,
            due: { evaluation: iso(T0 + EVU(cls)), mitigation: iso(T0 + PVR(cls, n, category(g.policy))) },
            evaluations: [{ at: iso(T0), by: POLICY_BY, irv, lev, n }],
            reductions: [{ at: iso(T0), to: n, by: POLICY_BY }],
          });
        }
        expect(group(atDetection, KEV_FULLY_MITIGATED)).toMatchObject({ kev_due: KEV_FULL_DUE, incident: false });
        // VER-TFR-NRI: likely exploitable, not internet-reachable, N5.
        expect(group(atDetection, KEV_PARTIALLY_MITIGATED)).toMatchObject({ kev_due: KEV_PARTIAL_DUE, incident: true });
        expect(atDetection().has(DETECTED_DAY_5.finding)).toBe(false);
        expect(group(atDetection, KEV_FULLY_MITIGATED).evaluations[0].reason).toBe(
          'no resource matches an internet-reachable pattern; in the CISA KEV catalog (due 2026-12-17); N2 from scanner severity LOW',
        );
      });

      it(`Class ${cls}: one second after the ${inDays(EVU(cls))} VER-TFR-EVU window no group is overdue for evaluation, the policy having evaluated it`, () => {
        for (const v of afterWindow().values()) {
          expect(v.state).not.toBe('detected');
          expect(v.due.evaluation).toBe(iso(Date.parse(v.first_detected) + EVU(cls)));
          expect(v.overdue.reasons.filter((r) => r.includes('VER-TFR-EVU'))).toEqual([]);
        }
      });
    }
  });

  describe('VER-TFR-EVU: a group no evaluation covers yet is overdue for evaluation exactly when its window from detection ends', () => {
    // Its own store: Trivy's run of day 20 is the first to record CVE-2026-2001, and the policy evaluates it then;
    // Grype's run of day 21 reports it detected on day 0. Judged as known at --now, nothing evaluated it before day 20.
    const LATE: Scanned = { finding: 'CVE-2026-2001', resource: 'db-7', severity: 'HIGH', from: 20, policy: { irv: false, lev: false, n: 4 } };
    let home: string;
    const listLate = (cls: Cls, at: number) => {
      const r = must(svc(['vuln', 'list', '--class', cls, '--now', iso(at), '--json'], { cwd: work, env: { SVC_HOME: home } }), `vuln list ${cls} ${iso(at)}`);
      return (JSON.parse(r.stdout) as Listed[]).find((v) => v.finding_id === LATE.finding)!;
    };
    beforeAll(() => {
      home = join(work, '.svc-late');
      const report = (d: number, detections: unknown[]) => ({
        schema_version: '1',
        generated_at: iso(day(d)),
        source: { tool: 'Trivy' },
        results: [{ ksi_id: 'KSI-SI-02', status: 'FAIL' }],
        vulnerabilities: detections,
      });
      const grype = {
        ...detection(LATE, 0),
        id: `VULN-${createHash('sha256').update(`Grype\n${LATE.finding}\n${LATE.resource}`).digest('hex').slice(0, 20)}`,
        source: 'Grype',
      };
      writeFileSync(join(work, 'r', 'late-20.json'), JSON.stringify(report(20, [detection(LATE, 20)])));
      writeFileSync(join(work, 'r', 'late-21.json'), JSON.stringify(report(21, [detection(LATE, 21), grype])));
      for (const file of ['late-20.json', 'late-21.json'])
        must(svc(['conmon', 'process', `r/${file}`], { cwd: work, env: { SVC_HOME: home } }), `conmon process ${file}`);
    });
    for (const cls of CLASSES) {
      const due = T0 + EVU(cls);
      it(`Class ${cls}: detected ${iso(T0)}, not evaluated: due ${iso(due)}, not overdue at it, overdue one second after, evaluated (no longer overdue) from the policy's evaluation on day 20`, () => {
        const reason = `not evaluated within ${evuOf(cls).timeframe_num} ${evuOf(cls).timeframe_type} of detection (VER-TFR-EVU, due ${iso(due)})`;
        expect(listLate(cls, due)).toMatchObject({
          state: 'detected',
          first_detected: iso(T0),
          sources: ['Grype', 'Trivy'],
          due: { evaluation: iso(due) },
          overdue: NOT_OVERDUE,
        });
        expect(listLate(cls, due + SECOND)).toMatchObject({ state: 'detected', overdue: { is: true, reasons: [reason], due_at: iso(due) } });
        expect(listLate(cls, day(20) - SECOND)).toMatchObject({ state: 'detected', overdue: { is: true, reasons: [reason], due_at: iso(due) } });
        expect(listLate(cls, day(20))).toMatchObject({
          state: 'evaluated',
          current_n: 4,
          overdue: NOT_OVERDUE,
          due: { evaluation: iso(due) },
          evaluations: [{ at: iso(day(20)), by: POLICY_BY, n: 4 }],
        });
      });
    }
  });

  describe('VDR-TFR-PVR: overdue exactly when the cell of class × N × IRV/LEV has run from the evaluation that set the N-rating', () => {
    const cases: { name: string; g: Scanned; from: number; n: number; cat: Category; by: 'person' | 'policy' }[] = [
      { name: 're-rated N4, internet-reachable and likely exploitable on day 3', g: RERATED_IRV_LEV, from: day(3), n: 4, cat: 'irv_lev', by: 'person' },
      { name: 're-rated N3, likely exploitable but not internet-reachable on day 3', g: RERATED_NIRV_LEV, from: day(3), n: 3, cat: 'nirv_lev', by: 'person' },
      { name: 'N4, not likely exploitable, by the policy at detection', g: POLICY_NLEV, from: T0, n: 4, cat: 'nlev', by: 'policy' },
      { name: 'N5, internet-reachable and likely exploitable on day 1', g: N5_IRV_LEV, from: day(1), n: 5, cat: 'irv_lev', by: 'person' },
    ];
    for (const c of cases) {
      for (const cls of CLASSES) {
        const due = c.from + PVR(cls, c.n, c.cat);
        const atDue = register(cls, due);
        const late = register(cls, due + SECOND);
        it(`Class ${cls}: ${c.g.finding} ${c.name}: due ${iso(due)} (+${(due - c.from) / HOUR} h), not overdue at it, overdue one second after`, () => {
          const irv = c.cat === 'irv_lev';
          const lev = c.cat !== 'nlev';
          const common = { state: 'evaluated', current_n: c.n, irv, lev, due: { evaluation: iso(T0 + EVU(cls)), mitigation: iso(due) } };
          expect(group(atDue, c.g)).toMatchObject({ ...common, overdue: NOT_OVERDUE });
          expect(group(late, c.g)).toMatchObject({ ...common, overdue: { is: true, reasons: [pvrReason(c.n, due)], due_at: iso(due) } });
          const reductions = group(late, c.g).reductions;
          if (c.by === 'policy') expect(reductions).toEqual([{ at: iso(T0), to: c.n, by: POLICY_BY }]);
          else
            expect(reductions).toEqual([
              { at: iso(T0), to: c.g.policy.n, by: POLICY_BY },
              { at: iso(c.from), from: c.g.policy.n, to: c.n, by: BY },
            ]);
        });
      }
    }

    const d = (at: number) => register('D', at);
    const [before, atTwelve, after, at13] = [d(day(1, 12) - SECOND), d(day(1, 12)), d(day(1, 12) + SECOND), d(day(1, 13))];
    it('Class D: the N5 internet-reachable likely exploitable group evaluated 2026-12-08T00:00:00Z is overdue after 12 hours: not at 11:59:59 nor 12:00:00, at 12:00:01 and 13:00', () => {
      const due = day(1) + PVR('D', 5, 'irv_lev');
      expect(iso(due)).toBe('2026-12-08T12:00:00Z');
      for (const listing of [before, atTwelve])
        expect(group(listing, N5_IRV_LEV)).toMatchObject({
          state: 'evaluated',
          overdue: NOT_OVERDUE,
          incident: true,
          due: { mitigation: '2026-12-08T12:00:00Z' },
        });
      for (const listing of [after, at13]) {
        expect(group(listing, N5_IRV_LEV)).toMatchObject({
          state: 'evaluated',
          incident: true,
          overdue: { is: true, reasons: ['N5 not mitigated or remediated by 2026-12-08T12:00:00Z (VDR-TFR-PVR)'], due_at: '2026-12-08T12:00:00Z' },
        });
      }
    });

    for (const cls of CLASSES) {
      const from = day(0, 12);
      const due = from + PVR(cls, 2, 'nirv_lev');
      const atDue = register(cls, due);
      const late = register(cls, due + SECOND);
      it(`Class ${cls}: a partial mitigation from N5 to N2 is a reduction event and restarts the clock: due ${iso(due)}, N2 not IRV + LEV from the reduction`, () => {
        const kev = kevReason(KEV_PARTIAL_DUE);
        const common = { state: 'mitigated', current_n: 2, irv: false, lev: true, incident: false, due: { mitigation: iso(due) } };
        expect(group(atDue, KEV_PARTIALLY_MITIGATED)).toMatchObject({
          ...common,
          overdue: { is: true, reasons: [kev], due_at: `${KEV_PARTIAL_DUE}T23:59:59Z` },
        });
        expect(group(late, KEV_PARTIALLY_MITIGATED)).toMatchObject({
          ...common,
          overdue: { is: true, reasons: [pvrReason(2, due), kev], due_at: `${KEV_PARTIAL_DUE}T23:59:59Z` },
        });
        expect(group(late, KEV_PARTIALLY_MITIGATED).reductions).toEqual([
          { at: iso(T0), to: 5, by: POLICY_BY },
          { at: iso(from), from: 5, to: 2, by: BY },
        ]);
      });
    }
  });

  describe('VDR-TFR-KEV: a KEV entry is overdue from the day after its catalog dueDate, even when mitigated', () => {
    for (const cls of CLASSES) {
      const full = kevLateFrom(KEV_FULL_DUE);
      const partial = kevLateFrom(KEV_PARTIAL_DUE);
      const [fullBefore, fullLate, partialBefore, partialLate] = [
        register(cls, full - SECOND),
        register(cls, full),
        register(cls, partial - SECOND),
        register(cls, partial),
      ];
      it(`Class ${cls}: fully mitigated on day 2, due ${KEV_FULL_DUE}: not overdue at ${iso(full - SECOND)}, overdue at ${iso(full)}`, () => {
        expect(iso(full)).toBe('2026-12-18T00:00:00Z');
        expect(group(fullBefore, KEV_FULLY_MITIGATED)).toMatchObject({ state: 'mitigated', kev_due: KEV_FULL_DUE, overdue: NOT_OVERDUE });
        expect(group(fullLate, KEV_FULLY_MITIGATED)).toMatchObject({
          state: 'mitigated',
          kev_due: KEV_FULL_DUE,
          overdue: { is: true, reasons: ['KEV due 2026-12-17 and still detected (VDR-TFR-KEV)'], due_at: '2026-12-17T23:59:59Z' },
        });
      });
      it(`Class ${cls}: partially mitigated to N2, due ${KEV_PARTIAL_DUE}: not overdue at ${iso(partial - SECOND)}, overdue at ${iso(partial)}`, () => {
        expect(group(partialBefore, KEV_PARTIALLY_MITIGATED)).toMatchObject({ state: 'mitigated', kev_due: KEV_PARTIAL_DUE, overdue: NOT_OVERDUE });
        expect(group(partialLate, KEV_PARTIALLY_MITIGATED)).toMatchObject({
          state: 'mitigated',
          kev_due: KEV_PARTIAL_DUE,
          overdue: { is: true, reasons: ['KEV due 2026-12-27 and still detected (VDR-TFR-KEV)'], due_at: '2026-12-27T23:59:59Z' },
        });
      });
    }
  });

  describe('a group a later run no longer detects is remediated, and not overdue', () => {
    const nlev5 = (cls: Cls) => T0 + PVR(cls, 5, 'nlev');
    const dBefore = register('D', nlev5('D'));
    const dLate = register('D', nlev5('D') + SECOND);
    it(`Class D: before the day-12 run, ${REMEDIATED_DAY_12.finding} (N5, not LEV) is overdue one second after ${iso(nlev5('D'))}`, () => {
      expect(nlev5('D')).toBeLessThan(day(12));
      expect(group(dBefore, REMEDIATED_DAY_12)).toMatchObject({ state: 'evaluated', overdue: NOT_OVERDUE });
      expect(group(dLate, REMEDIATED_DAY_12)).toMatchObject({
        state: 'evaluated',
        overdue: { is: true, reasons: [pvrReason(5, nlev5('D'))], due_at: iso(nlev5('D')) },
      });
    });
    for (const cls of CLASSES) {
      const atRun = register(cls, day(12));
      const pastDue = register(cls, Math.max(day(12), nlev5(cls)) + SECOND);
      it(`Class ${cls}: from the day-12 run on, it is remediated and not overdue, also past its VDR-TFR-PVR due ${iso(nlev5(cls))}`, () => {
        for (const listing of [atRun, pastDue])
          expect(group(listing, REMEDIATED_DAY_12)).toMatchObject({
            state: 'remediated',
            overdue: NOT_OVERDUE,
            incident: false,
            due: { mitigation: iso(nlev5(cls)) },
          });
      });
    }
  });

  describe('VER-TFR-MAV: what is not fully mitigated or remediated within 192 days of its evaluation is accepted', () => {
    const openFromDay0 = [RERATED_IRV_LEV, RERATED_NIRV_LEV, POLICY_NLEV, N5_IRV_LEV];
    for (const cls of CLASSES) {
      const at192 = register(cls, T0 + MAV);
      const after192 = register(cls, T0 + MAV + SECOND);
      const late = day(5) + MAV;
      const [at197, after197] = [register(cls, late), register(cls, late + SECOND)];
      it(`Class ${cls}: the groups evaluated on day 0 are accepted one second after ${iso(T0 + MAV)}, and no longer overdue for mitigation`, () => {
        for (const g of openFromDay0) {
          expect(group(at192, g)).toMatchObject({ state: 'evaluated', overdue: { is: true } });
          expect(group(after192, g)).toMatchObject({ state: 'accepted', overdue: NOT_OVERDUE });
        }
        expect(group(at192, KEV_PARTIALLY_MITIGATED)).toMatchObject({
          state: 'mitigated',
          overdue: { is: true, reasons: [expect.stringContaining('VDR-TFR-PVR'), kevReason(KEV_PARTIAL_DUE)] },
        });
        // Accepted, but a KEV entry stays late until no run detects it.
        expect(group(after192, KEV_PARTIALLY_MITIGATED)).toMatchObject({
          state: 'accepted',
          overdue: { is: true, reasons: [kevReason(KEV_PARTIAL_DUE)], due_at: `${KEV_PARTIAL_DUE}T23:59:59Z` },
        });
        // Fully mitigated on day 2: never accepted, still late on its KEV due date.
        expect(group(after192, KEV_FULLY_MITIGATED)).toMatchObject({ state: 'mitigated', overdue: { is: true, reasons: [kevReason(KEV_FULL_DUE)] } });
        expect(group(after192, REMEDIATED_DAY_12)).toMatchObject({ state: 'remediated', overdue: NOT_OVERDUE });
        expect(group(after192, DETECTED_DAY_5)).toMatchObject({ state: 'evaluated', overdue: NOT_OVERDUE });
      });
      it(`Class ${cls}: the group first detected on day 5 (N2, not LEV: VDR-TFR-PVR ${inDays(PVR(cls, 2, 'nlev'))}) is evaluated at ${iso(late)} and accepted, not overdue, one second after`, () => {
        expect(group(at197, DETECTED_DAY_5)).toMatchObject({
          state: 'evaluated',
          first_detected: iso(day(5)),
          overdue: NOT_OVERDUE,
          due: { evaluation: iso(day(5) + EVU(cls)), mitigation: iso(day(5) + PVR(cls, 2, 'nlev')) },
          evaluations: [{ at: iso(day(5)), by: POLICY_BY, irv: false, lev: false, n: 2 }],
        });
        expect(group(after197, DETECTED_DAY_5)).toMatchObject({ state: 'accepted', overdue: NOT_OVERDUE });
      });
    }

    const avi = probe('D', day(200), 'avi');
    it('Class D, day 200: the AVI carries each VER-TFR-MAV acceptance with its rationale', () => {
      const doc = JSON.parse(avi().stdout) as {
        acceptedVulnerabilities: { acceptanceRationale: string; vulnerabilityDetail: { vulnerabilityDescription: string } }[];
      };
      const rationale = new Map(doc.acceptedVulnerabilities.map((a) => [a.vulnerabilityDetail.vulnerabilityDescription.split(':')[0], a.acceptanceRationale]));
      const onDay0 = `Accepted under VER-TFR-MAV on ${iso(T0 + MAV)}: not fully mitigated or remediated within 192 days of its evaluation on 2026-12-07`;
      expect(Object.fromEntries(rationale)).toEqual({
        [RERATED_IRV_LEV.finding]: onDay0,
        [RERATED_NIRV_LEV.finding]: onDay0,
        [POLICY_NLEV.finding]: onDay0,
        [N5_IRV_LEV.finding]: onDay0,
        [KEV_PARTIALLY_MITIGATED.finding]: onDay0,
        [DETECTED_DAY_5.finding]: `Accepted under VER-TFR-MAV on ${iso(day(5) + MAV)}: not fully mitigated or remediated within 192 days of its evaluation on 2026-12-12`,
      });
    });
  });

  describe('day 200', () => {
    for (const cls of CLASSES) {
      const last = register(cls, day(200));
      it(`Class ${cls}: every group ends accepted, mitigated (KEV still late) or remediated`, () => {
        const states = Object.fromEntries([...last().values()].map((v) => [v.finding_id, [v.state, v.overdue.reasons]]));
        expect(states).toEqual({
          [RERATED_IRV_LEV.finding]: ['accepted', []],
          [RERATED_NIRV_LEV.finding]: ['accepted', []],
          [POLICY_NLEV.finding]: ['accepted', []],
          [N5_IRV_LEV.finding]: ['accepted', []],
          [KEV_FULLY_MITIGATED.finding]: ['mitigated', [kevReason(KEV_FULL_DUE)]],
          [KEV_PARTIALLY_MITIGATED.finding]: ['accepted', [kevReason(KEV_PARTIAL_DUE)]],
          [REMEDIATED_DAY_12.finding]: ['remediated', []],
          [DETECTED_DAY_5.finding]: ['accepted', []],
        });
      });
    }
  });

  describe('what a person reads', () => {
    const listing = register('D', day(3));
    it("svc vuln evaluate says what it recorded and when the group is due, for the profile's Class D", () => {
      const out = (g: Scanned) => evaluationOutputs.get(g.finding)!.stdout.split('\n');
      const id = (g: Scanned) => group(listing, g).id;
      expect(out(N5_IRV_LEV)).toEqual([
        `Recorded evaluation 2 of ${id(N5_IRV_LEV)} (CVE-2026-1004) by ada@example.com at 2026-12-08T00:00:00Z`,
        'State: evaluated, N5, internet-reachable, likely exploitable',
        'Due: 2026-12-08T12:00:00Z',
        '',
      ]);
      expect(out(RERATED_IRV_LEV)).toEqual([
        `Recorded evaluation 4 of ${id(RERATED_IRV_LEV)} (CVE-2026-1001) by ada@example.com at 2026-12-10T00:00:00Z`,
        'State: evaluated, N4, internet-reachable, likely exploitable',
        `Due: ${iso(day(3) + PVR('D', 4, 'irv_lev'))}`,
        '',
      ]);
    });

    const human = probe('D', day(8) + SECOND, 'human');
    it('svc vuln list without --json, Class D on 2026-12-15T00:00:01Z: the exact lines', () => {
      expect(human().stdout.split('\n')).toEqual([
        'Vulnerabilities of run 4 (as of 2026-12-12T00:00:00Z), Class D at 2026-12-15T00:00:01Z, CR26 2026.10.05.01',
        '',
        'ID                   Finding        State      N   IRV  LEV  Due                   Notes',
        '-------------------  -------------  ---------  --  ---  ---  --------------------  --------------------------------------------------------------------------------------------------',
        'VG-e19c73b528344585  CVE-2026-1001  evaluated  N4  yes  yes  2026-12-12T00:00:00Z  overdue: N4 not mitigated or remediated by 2026-12-12T00:00:00Z (VDR-TFR-PVR); reportable incident',
        'VG-381df8c09386fd1b  CVE-2026-1002  evaluated  N3  no   yes  2026-12-26T00:00:00Z',
        'VG-8a34770770d77bcb  CVE-2026-1003  evaluated  N4  no   no   2027-01-08T00:00:00Z',
        'VG-49effd9514eda4ca  CVE-2026-1004  evaluated  N5  yes  yes  2026-12-08T12:00:00Z  overdue: N5 not mitigated or remediated by 2026-12-08T12:00:00Z (VDR-TFR-PVR); reportable incident',
        'VG-57cc37289fd14ddc  CVE-2026-1005  mitigated  N2  no   yes  2026-12-17T23:59:59Z  KEV due 2026-12-17',
        'VG-cf4314eeb2891641  CVE-2026-1006  mitigated  N2  no   yes  2026-12-27T23:59:59Z  KEV due 2026-12-27',
        'VG-2f96d5c166e34254  CVE-2026-1007  evaluated  N5  no   no   2026-12-15T00:00:00Z  overdue: N5 not mitigated or remediated by 2026-12-15T00:00:00Z (VDR-TFR-PVR)',
        'VG-114836209cb7b83e  CVE-2026-1008  evaluated  N2  no   no   2027-06-22T00:00:00Z',
        '',
        'Groups: 8 (detected 0, evaluated 6, mitigated 2, remediated 0, accepted 0, false positive 0); overdue 3; reportable incidents 2',
        '',
      ]);
    });
  });
});
