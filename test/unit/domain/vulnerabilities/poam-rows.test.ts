import type { StoredGroup } from '../../../../src/domain/vulnerabilities/groups';
import { judgeGroup, type Evaluation, type KevEntry } from '../../../../src/domain/vulnerabilities/lifecycle';
import { N_RISK, vulnerabilityPoamItem, vulnerabilityPoamItems, type JudgedVulnerability } from '../../../../src/domain/vulnerabilities/poam-rows';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();
const RUN = 'ab'.repeat(32);
const context = { run: RUN, rules };
const DAY = 86_400_000;
const T0 = Date.parse('2026-12-07T00:00:00Z');
const at = (days: number, hours = 0) => new Date(T0 + days * DAY + hours * 3_600_000).toISOString().replace(/\.000Z$/, 'Z');
const policy = (e: Partial<Evaluation>): Evaluation => ({ at: at(0), by: 'policy:0123456789ab', reason: 'policy', ...e });
const person = (days: number, e: Partial<Evaluation>): Evaluation => ({ at: at(days), by: 'ada@example.com', reason: 'reviewed', ...e });

const stored = (extra: Partial<StoredGroup> = {}, evaluations: Evaluation[] = []): JudgedVulnerability['group'] => ({
  finding_id: 'CVE-2026-1000',
  tracking_id: 'VG-0000000000000001',
  title: 'openssl: buffer overflow',
  sources: ['Grype', 'Trivy'],
  resources: ['api.example.com', 'db-1'],
  severities: ['HIGH'],
  kind: 'vulnerability',
  first_detected: at(0),
  last_seen: at(0),
  detections: 2,
  ...extra,
  evaluations,
});
/** A group judged for Class D at `now` (days after T0), as the register judges it. */
const judged = (group: JudgedVulnerability['group'], now: number, kev?: KevEntry): JudgedVulnerability => ({
  group,
  judgment: judgeGroup(group, rules, 'D', new Date(T0 + now * DAY), kev),
  ...(kev === undefined ? {} : { kev }),
});

describe('POA&M items of judged vulnerability groups (ir poam-export --source vulnerabilities)', () => {
  it('maps an unevaluated group to an open item due at its evaluation deadline, rated by its scanner severity', () => {
    expect(vulnerabilityPoamItem(judged(stored(), 1), context)).toEqual({
      asset_identifier: 'api.example.com, db-1',
      controls: ['ra-5'],
      ksi_id: 'CVE-2026-1000',
      last_run: RUN,
      last_status: 'FAIL',
      milestones: [{ description: 'Evaluation: internet reachability, likely exploitability, N-rating (VER-TFR-EVU)', due: '2026-12-09' }],
      original_detection_date: '2026-12-07',
      overdue: false,
      poam_id: 'VG-0000000000000001',
      point_of_contact: '',
      remediation_plan:
        "Evaluate by 2026-12-09 (VER-TFR-EVU): internet reachability, likely exploitability and N-rating; then mitigate or remediate within VDR-TFR-PVR's timeframe.",
      risk_rating: 'High',
      scheduled_completion_date: '2026-12-09',
      status: 'Open',
      status_date: '2026-12-07',
      weakness_description: 'A vulnerability detected by Grype, Trivy on 2 resources; scanner severity HIGH. Not evaluated yet.',
      weakness_name: 'CVE-2026-1000 openssl: buffer overflow',
      weakness_source: 'Grype, Trivy',
    });
    // Class D evaluates within 2 days; after that the item is overdue and says why.
    const late = vulnerabilityPoamItem(judged(stored(), 3), context);
    expect(late).toMatchObject({ overdue: true, status: 'Open', scheduled_completion_date: '2026-12-09' });
    expect(late.weakness_description).toBe(
      'A vulnerability detected by Grype, Trivy on 2 resources; scanner severity HIGH. Not evaluated yet. Overdue: not evaluated within 2 days of detection (VER-TFR-EVU, due 2026-12-09T00:00:00Z).',
    );
  });

  it('dates an evaluated group by its VDR-TFR-PVR deadline, or by its KEV due date when that is earlier, and rates it by its N-rating', () => {
    const group = stored({}, [policy({ irv: false, lev: true, n: 5 }), person(1, { n: 4, reason: 'only on one agency tenant' })]);
    // Class D, N4, not internet-reachable but likely exploitable: 8 days from the evaluation that set N4.
    const item = vulnerabilityPoamItem(judged(group, 2), context);
    expect(item).toMatchObject({
      risk_rating: 'High',
      point_of_contact: 'ada@example.com',
      scheduled_completion_date: '2026-12-16',
      status_date: '2026-12-08',
      remediation_plan: 'Mitigate or remediate by 2026-12-16 (VDR-TFR-PVR, N4).',
    });
    expect(item.weakness_description).toBe(
      'A vulnerability detected by Grype, Trivy on 2 resources; scanner severity HIGH. Evaluated 2026-12-07T00:00:00Z: not internet-reachable, likely exploitable, N4. N-rating reductions: N5 → N4 at 2026-12-08T00:00:00Z.',
    );
    const kev = { cveID: 'CVE-2026-1000', dueDate: '2026-12-08' };
    const withKev = vulnerabilityPoamItem(judged(group, 2, kev), context);
    expect(withKev).toMatchObject({ scheduled_completion_date: '2026-12-08', overdue: true });
    expect(withKev.remediation_plan).toBe(
      'Mitigate or remediate by 2026-12-16 (VDR-TFR-PVR, N4). Remediate by the CISA KEV due date 2026-12-08 (VDR-TFR-KEV).',
    );
    expect(withKev.milestones.map((m) => m.description)).toEqual([
      'Remediated: CISA KEV due date (VDR-TFR-KEV)',
      'Evaluation: internet reachability, likely exploitability, N-rating (VER-TFR-EVU), done 2026-12-07',
      'N4 mitigated or remediated (VDR-TFR-PVR)',
    ]);
  });

  it('gives an N1 group, which has no VDR-TFR-PVR timeframe, the day VER-TFR-MAV would accept it', () => {
    const item = vulnerabilityPoamItem(judged(stored({}, [person(1, { irv: false, lev: false, n: 1 })]), 2), context);
    // 192 days after the evaluation on 2026-12-08.
    expect(item).toMatchObject({ risk_rating: 'Low', scheduled_completion_date: '2027-06-18', status: 'Open', overdue: false });
    expect(item.remediation_plan).toBe('N1 has no VDR-TFR-PVR timeframe: fully mitigate or remediate by 2027-06-18, else it is accepted (VER-TFR-MAV).');
  });

  it('keeps an accepted group open with the acceptance and its rationale in the remediation plan', () => {
    const group = stored(
      { kind: 'configuration', finding_id: 'iam_root_mfa_enabled', title: 'Root MFA', sources: ['Prowler'], resources: ['arn:aws:iam::1:root'] },
      [policy({ irv: false, lev: false, n: 5 }), person(3, { accept: true, reason: 'break-glass account in a vault', by: 'ciso' })],
    );
    expect(vulnerabilityPoamItem(judged(group, 4), context)).toMatchObject({
      controls: ['cm-6'],
      ksi_id: 'iam_root_mfa_enabled',
      status: 'Open',
      overdue: false,
      point_of_contact: 'ciso',
      risk_rating: 'Critical',
      status_date: '2026-12-10',
      remediation_plan: 'Risk accepted by decision on 2026-12-10: break-glass account in a vault.',
      weakness_description:
        'A failed configuration check detected by Prowler on 1 resource; scanner severity HIGH. Evaluated 2026-12-07T00:00:00Z: not internet-reachable, not likely exploitable, N5.',
    });
  });

  it('closes remediated, false-positive and fully mitigated groups on the day they closed', () => {
    const evaluated = [policy({ irv: false, lev: false, n: 4 })];
    const remediated = vulnerabilityPoamItem(judged(stored({ remediated_at: at(3) }, evaluated), 5), context);
    expect(remediated).toMatchObject({
      status: 'Closed',
      completion_date: '2026-12-10',
      status_date: '2026-12-10',
      last_status: 'PASS',
      overdue: false,
      remediation_plan: 'Remediated: no longer detected from 2026-12-10T00:00:00Z.',
    });
    const falsePositive = vulnerabilityPoamItem(
      judged(stored({}, [...evaluated, person(2, { false_positive: true, reason: 'package not installed' })]), 5),
      context,
    );
    expect(falsePositive).toMatchObject({
      status: 'Closed',
      completion_date: '2026-12-09',
      last_status: 'FAIL',
      remediation_plan: 'False positive (evaluated by ada@example.com on 2026-12-09: package not installed).',
    });
    const mitigated = vulnerabilityPoamItem(judged(stored({}, [...evaluated, person(4, { mitigated: 'full', reason: 'WAF rule' })]), 5), context);
    expect(mitigated).toMatchObject({ status: 'Closed', completion_date: '2026-12-11', remediation_plan: 'Fully mitigated on 2026-12-11: WAF rule.' });
  });

  it('keeps a fully mitigated KEV entry open until remediated, due and overdue by its KEV due date (VDR-TFR-KEV)', () => {
    const group = stored({}, [policy({ irv: false, lev: true, n: 3 }), person(1, { mitigated: 'full', reason: 'WAF rule' })]);
    const kev = { cveID: 'CVE-2026-1000', dueDate: '2026-12-20' };
    expect(vulnerabilityPoamItem(judged(group, 10, kev), context)).toMatchObject({
      status: 'Open',
      overdue: false,
      scheduled_completion_date: '2026-12-20',
      remediation_plan: 'Fully mitigated on 2026-12-08: WAF rule. Remediate by the CISA KEV due date 2026-12-20 (VDR-TFR-KEV).',
    });
    expect(vulnerabilityPoamItem(judged(group, 14, kev), context)).toMatchObject({ status: 'Open', overdue: true });
  });

  it('rates N5 Critical, N4 High, N3 Moderate, N2 and N1 Low; an unevaluated group by its most severe scanner severity', () => {
    expect(N_RISK).toEqual({ 5: 'Critical', 4: 'High', 3: 'Moderate', 2: 'Low', 1: 'Low', 0: 'Low' });
    const risk = (severities: string[]) => vulnerabilityPoamItem(judged(stored({ severities }), 1), context).risk_rating;
    expect([risk(['LOW', 'CRITICAL']), risk(['medium']), risk(['low']), risk(['unheard-of']), risk([])]).toEqual([
      'Critical',
      'Moderate',
      'Low',
      'Moderate',
      'Moderate',
    ]);
  });

  it('lists the items in tracking id order', () => {
    const items = vulnerabilityPoamItems([judged(stored({ tracking_id: 'VG-b' }), 1), judged(stored({ tracking_id: 'VG-a' }), 1)], context);
    expect(items.map((i) => i.poam_id)).toEqual(['VG-a', 'VG-b']);
  });
});
