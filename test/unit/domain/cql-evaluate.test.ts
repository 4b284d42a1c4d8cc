import type { CqlRow } from '../../../src/domain/cql/cql-fields';
import { areaOf, cqlRows, runRows } from '../../../src/domain/cql/cql-fields';
import { evaluateQuery } from '../../../src/domain/cql/evaluate-query';
import { ChevrotainQueryParser } from '../../../src/infrastructure/cql/chevrotain-query-parser';
import { storedRunFor } from '../../support/stored-runs';

const NOW = new Date('2026-11-20T00:00:00Z');
const parser = new ChevrotainQueryParser();
const row = (ksi: string, status: string, severity: string, observed: string, controls: string[], extra: Partial<Record<string, string>> = {}): CqlRow => ({
  ksi_id: ksi,
  status,
  area: areaOf(ksi),
  family: ksi.split('-')[1],
  severity,
  owner: 'identity-team@agency.example',
  sla: { Critical: 7, High: 14, Medium: 30, Low: 60 }[severity],
  controls,
  observed_at: observed,
  age: Math.floor((NOW.getTime() - Date.parse(observed)) / 86_400_000),
  title: `${ksi} title`,
  input: 'a.json',
  ...extra,
});
const ROWS: CqlRow[] = [
  row('KSI-IA-02', 'FAIL', 'High', '2026-11-02T14:00:00Z', ['ia-2', 'ia-2.1']),
  row('KSI-IAM-01', 'WARN', 'Medium', '2026-11-18T00:00:00Z', ['ia-2']),
  row('KSI-AC-02', 'FAIL', 'Critical', '2026-11-15T00:00:00Z', ['ac-2']),
  row('KSI-SC-08', 'PASS', 'Low', '2026-11-19T00:00:00Z', ['sc-8'], { title: 'TLS 1.2 or newer' }),
  row('KSI-AU-02', 'PASS', 'Low', '2026-10-01T00:00:00Z', []),
];
const ids = (text: string, rows = ROWS) => evaluateQuery(parser.parse(text), rows, NOW).rows.map((r) => r[0]);
const messageOf = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    return `${(e as { code: string }).code}: ${(e as Error).message}`;
  }
  return 'no error';
};

describe('evaluateQuery', () => {
  it('filters with each comparison operator, keywords and values case-insensitive', () => {
    expect(ids('FROM results WHERE status = FAIL SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AC-02']);
    expect(ids('from results where status != pass select ksi_id')).toEqual(['KSI-IA-02', 'KSI-IAM-01', 'KSI-AC-02']);
    expect(ids('FROM results WHERE sla < 14 SELECT ksi_id')).toEqual(['KSI-AC-02']);
    expect(ids('FROM results WHERE sla <= 14 SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AC-02']);
    expect(ids('FROM results WHERE sla > 30 SELECT ksi_id')).toEqual(['KSI-SC-08', 'KSI-AU-02']);
    expect(ids('FROM results WHERE sla >= 30 SELECT ksi_id')).toEqual(['KSI-IAM-01', 'KSI-SC-08', 'KSI-AU-02']);
  });

  it('compares severity and status by meaning, not alphabet', () => {
    expect(ids('FROM results WHERE severity >= High SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AC-02']);
    expect(ids('FROM results WHERE status > PASS SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-IAM-01', 'KSI-AC-02']);
    expect(ids('FROM results ORDER BY severity DESC SELECT ksi_id')).toEqual(['KSI-AC-02', 'KSI-IA-02', 'KSI-IAM-01', 'KSI-SC-08', 'KSI-AU-02']);
    expect(ids('FROM results ORDER BY status DESC, ksi_id ASC SELECT ksi_id')).toEqual(['KSI-AC-02', 'KSI-IA-02', 'KSI-IAM-01', 'KSI-AU-02', 'KSI-SC-08']);
    expect(ids('FROM results ORDER BY severity SELECT ksi_id LIMIT 1')).toEqual(['KSI-SC-08']);
  });

  it('matches IN and LIKE (% and _, case-insensitive), and quoted strings', () => {
    expect(ids('FROM results WHERE sev IN (Critical, high) SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AC-02']);
    expect(ids("FROM results WHERE title LIKE 'tls%' SELECT ksi_id")).toEqual(['KSI-SC-08']);
    expect(ids('FROM results WHERE ksi_id LIKE KSI-__-02 SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AC-02', 'KSI-AU-02']);
    expect(ids('FROM results WHERE ksi_id NOT LIKE "KSI-%-02" SELECT ksi_id')).toEqual(['KSI-IAM-01', 'KSI-SC-08']);
    expect(ids('FROM results WHERE status NOT IN (PASS, WARN) SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AC-02']);
  });

  it('binds AND tighter than OR, and parentheses and NOT override it', () => {
    expect(ids('FROM results WHERE status = PASS OR status = FAIL AND area = AC SELECT ksi_id')).toEqual(['KSI-AC-02', 'KSI-SC-08', 'KSI-AU-02']);
    expect(ids('FROM results WHERE (status = PASS OR status = FAIL) AND area = AC SELECT ksi_id')).toEqual(['KSI-AC-02']);
    expect(ids('FROM results WHERE NOT (status = PASS OR area = IA) SELECT ksi_id')).toEqual(['KSI-IAM-01', 'KSI-AC-02']);
    expect(ids('FROM results WHERE NOT status = PASS AND NOT area = IA SELECT ksi_id')).toEqual(['KSI-IAM-01', 'KSI-AC-02']);
  });

  it('matches a list field when any element matches; != when none does', () => {
    expect(ids('FROM results WHERE controls = ia-2 SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-IAM-01']);
    expect(ids("FROM results WHERE controls LIKE 'ia-2.%' SELECT ksi_id")).toEqual(['KSI-IA-02']);
    expect(ids('FROM results WHERE controls != ia-2 SELECT ksi_id')).toEqual(['KSI-AC-02', 'KSI-SC-08', 'KSI-AU-02']);
  });

  it('compares ages and dates with durations as "older than", and dates with dates', () => {
    expect(ids('FROM results WHERE age > 7d SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AU-02']);
    expect(ids('FROM results WHERE observed_at > 1w SELECT ksi_id')).toEqual(['KSI-IA-02', 'KSI-AU-02']);
    expect(ids('FROM results WHERE observed_at < 36h SELECT ksi_id')).toEqual(['KSI-SC-08']);
    expect(ids('FROM results WHERE observed_at >= 2026-11-15 SELECT ksi_id')).toEqual(['KSI-IAM-01', 'KSI-AC-02', 'KSI-SC-08']);
    expect(ids('FROM results WHERE status = FAIL AND area LIKE IA% AND age > 7d SELECT ksi_id')).toEqual(['KSI-IA-02']);
  });

  it('selects the named columns (aliases resolved), else the default ones, and limits', () => {
    expect(evaluateQuery(parser.parse('FROM results WHERE status = FAIL SELECT ksi_id, sev, controls'), ROWS, NOW)).toEqual({
      columns: ['ksi_id', 'severity', 'controls'],
      rows: [
        ['KSI-IA-02', 'High', ['ia-2', 'ia-2.1']],
        ['KSI-AC-02', 'Critical', ['ac-2']],
      ],
    });
    expect(evaluateQuery(parser.parse('FROM results LIMIT 1'), ROWS, NOW)).toEqual({
      columns: ['ksi_id', 'status', 'area', 'family', 'severity', 'owner'],
      rows: [['KSI-IA-02', 'FAIL', 'IA', 'IA', 'High', 'identity-team@agency.example']],
    });
    const two = [...ROWS.slice(0, 1), { ...ROWS[1], input: 'b.json' }];
    expect(evaluateQuery(parser.parse('FROM actions'), two, NOW).columns).toEqual(['input', 'ksi_id', 'action', 'severity', 'owner', 'sla']);
  });

  it('counts per value with GROUP BY … COUNT, count descending then value, a list field per element', () => {
    expect(evaluateQuery(parser.parse('FROM results GROUP BY status COUNT'), ROWS, NOW)).toEqual({
      columns: ['status', 'count'],
      rows: [
        ['PASS', 2],
        ['FAIL', 2],
        ['WARN', 1],
      ],
    });
    expect(evaluateQuery(parser.parse('FROM results WHERE status != PASS GROUP BY controls COUNT LIMIT 2'), ROWS, NOW).rows).toEqual([
      ['ia-2', 2],
      ['ac-2', 1],
    ]);
    expect(evaluateQuery(parser.parse('FROM results GROUP BY severity COUNT ORDER BY severity DESC'), ROWS, NOW).rows).toEqual([
      ['Critical', 1],
      ['High', 1],
      ['Medium', 1],
      ['Low', 2],
    ]);
  });

  it('names an unknown field, its position and the valid fields; refuses values of the wrong type', () => {
    expect(messageOf(() => ids('FROM actions WHERE team = x'))).toBe(
      "cql-invalid: line 1, column 20: unknown field 'team' of actions; expected one of ksi_id, action, severity, owner, sla, status, area, family, controls, input\n  FROM actions WHERE team = x\n                     ^",
    );
    expect(messageOf(() => ids('FROM results WHERE sla > High'))).toBe(
      "cql-invalid: line 1, column 26: sla is a duration field: expected a number of days or a duration such as 7d, found 'High'\n  FROM results WHERE sla > High\n                           ^",
    );
    expect(messageOf(() => ids('FROM results WHERE observed_at > soon'))).toBe(
      "cql-invalid: line 1, column 34: observed_at is a date field: expected a date such as 2026-11-01 or a duration such as 7d, found 'soon'\n  FROM results WHERE observed_at > soon\n                                   ^",
    );
    expect(messageOf(() => ids('FROM results SELECT nope', []))).toMatch(/^cql-invalid: line 1, column 21: unknown field 'nope' of results/);
  });
});

describe('CQL rows', () => {
  it('takes area from the ksi_id and builds runs rows from run summaries', () => {
    expect(['KSI-IAM-01', 'KSI-IA-02', 'KSI-IAM-MFA', 'odd'].map(areaOf)).toEqual(['IAM', 'IA', 'IAM', '']);
    const [first] = runRows([storedRunFor('a'.repeat(64), 1).summary], NOW);
    expect(first).toMatchObject({ seq: 1, input: 'scubagear-1.json', tool: 'ScubaGear', pass: 1, fail: 1, poam_open: 1, poam_closed: 1, drift: 0, age: 17 });
  });

  it('marks open POA&M items past their due date overdue at now', () => {
    const item = {
      poam_id: 'POAM-KSI-IA-02',
      ksi_id: 'KSI-IA-02',
      controls: [],
      weakness_name: '',
      weakness_description: '',
      weakness_source: '',
      asset_identifier: '',
      point_of_contact: 'x',
      original_detection_date: '2026-11-01',
      scheduled_completion_date: '2026-11-08',
      risk_rating: 'High' as const,
      remediation_plan: '',
      milestones: [],
    };
    const rows = cqlRows(
      'poam',
      {
        input: 'a.json',
        context: { input: { name: 'a.json', sha256: '' }, runAt: NOW },
        results: [],
        poam: [
          { ...item, status: 'Open' },
          { ...item, status: 'Closed', completion_date: '2026-11-05' },
        ],
      },
      NOW,
    );
    expect(rows.map((r) => [r.status, r.overdue, r.age, r.area, r.family])).toEqual([
      ['Open', 'true', 19, 'IA', 'UNMAPPED'],
      ['Closed', 'false', 19, 'IA', 'UNMAPPED'],
    ]);
  });
});
