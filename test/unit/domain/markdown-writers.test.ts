import { assess } from '../../../src/domain/assessment/assessment';
import { governanceReportHead } from '../../../src/domain/artifacts/governance-report';
import { poamId } from '../../../src/domain/artifacts/poam';
import { writeSspNarrative } from '../../../src/domain/artifacts/ssp-narrative';
import { ongoingAuthorizationMarkdown, type OaReport } from '../../../src/domain/conmon/ongoing-authorization';
import { driftMarkdown } from '../../../src/domain/drift/drift-detection';
import { diffMarkdown } from '../../../src/domain/drift/run-diff';
import { evidenceHash } from '../../../src/domain/evidence/evidence-entry';
import { freshnessText, scheduleText, type FreshnessReport } from '../../../src/domain/freshness/freshness';
import { DEFAULT_GOVERNANCE_POLICY, formatGovernanceLine } from '../../../src/domain/governance/governance-policy';
import { substrateDriftMarkdown } from '../../../src/domain/substrate/substrate-drift';
import { buildSnapshot } from '../../../src/domain/substrate/snapshot';
import { builtInCatalog } from '../../fakes/fixed-catalog-source';
import { PureJsHashing } from '../../fakes/pure-js-hashing';
import { aResult } from '../../support/builders';

// Security review, issue 15: scanner, catalog and file-name text reached the Markdown outputs raw: a line break
// started a heading, `<img onerror>` was HTML, a lone CR and a pipe broke table rows. Every writer now passes such
// text through markdownText (src/domain/encoding/markdown.ts).
const HEADING = '\n# INJECTED-TITLE-HEADING';
const HTML = '<img src=x onerror=alert(1)>';
const CELL = 'a\rb|c';
const NAME = 'run\n# A.json';
const SHA = '0'.repeat(64);

describe('Markdown writers on hostile text', () => {
  it('ir drift-detect: names, from, to and reason', () => {
    const text = driftMarkdown(
      [{ ksi_id: null, class: 'DRIFT-PROVENANCE', severity: 'P3', from: HEADING, to: HTML, reason: CELL }],
      { name: NAME, sha256: SHA },
      { name: 'b.json', sha256: SHA },
    );
    expect(text.split('\n').slice(0, 8)).toEqual([
      '# Drift findings: run # A.json -> b.json',
      '',
      `Run A: run # A.json (sha256:${SHA})`,
      `Run B: b.json (sha256:${SHA})`,
      '',
      '| Severity | Class | KSI | From | To | Reason |',
      '|---|---|---|---|---|---|',
      '| P3 | DRIFT-PROVENANCE | (run) | \\# INJECTED-TITLE-HEADING | &lt;img src=x onerror=alert(1)> | a b\\|c |',
    ]);
  });

  it('ir diff: the run names', () => {
    const diff = { transitions: [], hash_deltas: [], counts: { FAIL: { from: 0, to: 0 }, WARN: { from: 0, to: 0 }, PASS: { from: 0, to: 0 } } };
    expect([...diffMarkdown(diff, { name: HEADING, sha256: SHA }, { name: HTML, sha256: SHA })].join('').split('\n').slice(0, 4)).toEqual([
      '# Drift: \\# INJECTED-TITLE-HEADING -> &lt;img src=x onerror=alert(1)>',
      '',
      `Run A: \\# INJECTED-TITLE-HEADING (sha256:${SHA})`,
      'Run B: &lt;img src=x onerror=alert(1)> (sha256:' + SHA + ')',
    ]);
  });

  it('governance-report.md: the input name, and the owner of an action (catalog text)', () => {
    expect(governanceReportHead({ name: NAME, sha256: SHA }, { total: 0, remediate: 0 }).split('\n')[2]).toBe(`Input: run # A.json (sha256:${SHA})`);
    expect(formatGovernanceLine({ action: 'REMEDIATE', ksi_id: 'KSI-IA-02', severity: 'High', owner: `team|x${HEADING}`, sla_days: 14 })).toBe(
      '- REMEDIATE | KSI-IA-02 | sev=High | owner=team\\|x # INJECTED-TITLE-HEADING | SLA=14d',
    );
  });

  it('ssp-narrative.md: the title and source a scanner reports', () => {
    const catalog = builtInCatalog();
    const [item] = assess([aResult('KSI-IA-02', 'FAIL', { title: `MFA${HEADING}`, source: `- ${HTML}` })], catalog, DEFAULT_GOVERNANCE_POLICY).items;
    const hash = evidenceHash(item.result, item.definition, new PureJsHashing());
    let text = '';
    writeSspNarrative({ write: (t) => void (text += t) }, [{ item, hash }], catalog, { name: HEADING, sha256: SHA });
    const lines = text.split('\n');
    const controls = item.definition?.controls ?? [];
    const { action } = item;
    const narrative = `- KSI-IA-02 (MFA # INJECTED-TITLE-HEADING): FAIL (assessed by - &lt;img src=x onerror=alert(1)>), evidence sha256:${hash}; REMEDIATE ${action.severity} within ${action.sla_days}d as ${poamId('KSI-IA-02')}, owner ${action.owner}.`;
    expect(controls.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes('INJECTED'))).toEqual([`Input: \\# INJECTED-TITLE-HEADING (sha256:${SHA})`, ...controls.map(() => narrative)]);
  });

  it('conmon export-oa: system, store, area titles, changes and drift reasons', () => {
    const zero = { P1: 0, P2: 0, P3: 0, P4: 0 };
    const counts = { results: 1, pass: 1, warn: 0, fail: 0, mapped: 1, unmapped: 0 };
    const finding = {
      run: 2,
      as_of: '2026-11-02T00:00:00Z',
      ksi_id: 'KSI-IA-02',
      class: 'DRIFT-IDENTITY' as const,
      severity: 'P1' as const,
      from: 'PASS',
      to: 'FAIL',
      reason: `${CELL}${HEADING}`,
    };
    const report = {
      schema: 'svc.oa-report/v1',
      period: { from: '2026-11-01', to: '2026-11-30' },
      generated_at: '2026-12-01T00:00:00Z',
      tool: { name: 'svc', version: '0.5.0' },
      store: `/srv/store${HEADING}`,
      system: HTML,
      runs: { count: 1, first: null, last: null },
      ksi_status: {
        last: counts,
        first: counts,
        pass_rate: { first: 1, last: 1 },
        areas: [{ area: 'IA', title: `- ${CELL}`, pass: 1, warn: 0, fail: 0, pass_rate: 1 }],
      },
      changes: [{ ...finding, from: '1. PASS', to: '>FAIL' }],
      poam: { opened: [], closed: [], overdue: [], open_at_end: 0, overdue_at_end: 0 },
      drift: { severity: zero, class: { 'DRIFT-IDENTITY': 1 }, findings: [finding] },
    } as unknown as OaReport;
    const lines = ongoingAuthorizationMarkdown(report).split('\n');
    expect(lines.filter((line) => line.startsWith('System: ') || line.startsWith('Store: ') || line.startsWith('| IA ') || line.includes('KSI-IA-02'))).toEqual(
      [
        'System: &lt;img src=x onerror=alert(1)>',
        'Store: /srv/store # INJECTED-TITLE-HEADING',
        '| IA | \\- a b\\|c | 1 | 0 | 0 | 100.0 % |',
        '| 2026-11-02T00:00:00Z | 2 | KSI-IA-02 | 1\\. PASS | &gt;FAIL | DRIFT-IDENTITY | P1 |',
        '| 2026-11-02T00:00:00Z | 2 | P1 | DRIFT-IDENTITY | KSI-IA-02 | a b\\|c # INJECTED-TITLE-HEADING |',
      ],
    );
  });

  it('ir freshness and freshness-schedule: the input, titles and owners', () => {
    const report: FreshnessReport = {
      now: '2026-11-20T00:00:00Z',
      entries: [
        {
          ksi_id: 'KSI-IA-02',
          title: `MFA${HEADING}`,
          owner: `${HTML}|x`,
          frequency_days: 7,
          observed_at: null,
          dated_by: null,
          age_seconds: null,
          due_at: null,
          state: 'undated',
        },
      ],
      counts: { total: 1, fresh: 0, stale: 0, undated: 1, unmapped: 0 },
    };
    expect(
      freshnessText(report, NAME)
        .split('\n')
        .filter((line) => line.startsWith('Checking') || line.startsWith('| KSI-')),
    ).toEqual(['Checking freshness of run # A.json at 2026-11-20T00:00:00Z', '| KSI-IA-02 | unknown | - | 7 | now | &lt;img src=x onerror=alert(1)>\\|x |']);
    expect(
      scheduleText(report, HEADING)
        .split('\n')
        .filter((line) => line.startsWith('Evidence') || line.includes('KSI-')),
    ).toEqual([
      'Evidence schedule of \\# INJECTED-TITLE-HEADING at 2026-11-20T00:00:00Z',
      '| now | KSI-IA-02 | MFA # INJECTED-TITLE-HEADING | 7 | unknown | &lt;img src=x onerror=alert(1)>\\|x | undated |',
    ]);
  });

  it('substrate drift: the snapshot names, subjects and reasons', () => {
    const snapshot = buildSnapshot({ root: 'a', files: [], resources: [], skipped: [] }, new PureJsHashing());
    const text = substrateDriftMarkdown(
      [{ severity: 'P4', class: 'DRIFT-PROVENANCE', subject: HTML, change: 'moved', reason: CELL }],
      { name: HEADING, snapshot },
      { name: 'b', snapshot },
    );
    expect(text.split('\n').filter((line) => line.startsWith('# ') || line.startsWith('| P4'))).toEqual([
      '# Substrate drift: \\# INJECTED-TITLE-HEADING -> b',
      '| P4 | DRIFT-PROVENANCE | &lt;img src=x onerror=alert(1)> | moved | a b\\|c |',
    ]);
  });
});
