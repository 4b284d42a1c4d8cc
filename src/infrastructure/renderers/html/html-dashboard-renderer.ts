import { injectable } from 'tsyringe';
import type { PortfolioModel } from '../../../domain/agency/portfolio';
import { DRIFT_CLASSES, type DriftClass } from '../../../domain/drift/drift-finding';
import { severityRank, type Severity } from '../../../domain/governance/severity';
import { STATUSES, type Status } from '../../../domain/ksi/status';
import type { GovernanceRow, RunDashboardModel, SlaBucket, TrendDashboardModel, TrendPoint } from '../../../domain/reporting/dashboard-model';
import type { HtmlRenderer } from '../../../ports/html-renderer';
import type { VulnerabilityActivityReport } from '../../../domain/vulnerabilities/activity-report';
import {
  escapeHtml,
  figure,
  formatPercent,
  formatCount,
  renderPage,
  section,
  sortableTable,
  STATUS_COLOURS,
  statusBadge,
  tiles,
  type Cell,
  type Column,
} from './html-page';
import { agencyPortfolioPage } from './html-portfolio-page';
import { vulnerabilityActivityPage } from './html-vulnerability-report';
import { barChart, lineChart, stackedBarChart, stackedColumnChart, type Mark, type Series } from './svg-charts';

/** Sequential ramps (dark = worse) so severity and SLA bars also read in grayscale. */
const SEVERITY_COLOURS: Record<Severity, string> = { Critical: '#67000d', High: '#c4161c', Medium: '#f4845f', Low: '#fcd5c4' };
const SLA_COLOURS: Record<SlaBucket, string> = { Overdue: '#4a1486', 'Due within 7 days': '#807dba', 'Due within 30 days': '#bcbddc', 'Due later': '#efedf5' };
/** Viridis: its lightness rises steadily, so the five classes stay apart in grayscale. */
const DRIFT_COLOURS: Record<DriftClass, string> = {
  'DRIFT-IDENTITY': '#440154',
  'DRIFT-AUTHZ': '#3b528b',
  'DRIFT-SEMANTIC': '#21918c',
  'DRIFT-PROVENANCE': '#5ec962',
  'DRIFT-SCHEMA': '#fde725',
};
/** Okabe–Ito colours, paired with dash patterns of a coprime cycle so no two of 40 area lines look alike. */
const SERIES_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#7f7f7f', '#8c564b'];
const SERIES_DASHES = ['', '6 3', '2 2', '8 3 2 3', '12 4'];
/** Sort keys of the Status column: its first click puts FAIL first. */
const STATUS_RANK: Record<Status, number> = { PASS: 0, WARN: 1, FAIL: 2 };

const GOVERNANCE_COLUMNS: Column[] = [
  { label: 'KSI', kind: 'text', nowrap: true },
  { label: 'Title', kind: 'text' },
  { label: 'Area', kind: 'text' },
  { label: 'Status', kind: 'rank', descendingFirst: true },
  { label: 'Action', kind: 'text' },
  { label: 'Severity', kind: 'rank', descendingFirst: true },
  { label: 'Owner', kind: 'text' },
  { label: 'SLA (days)', kind: 'num' },
  { label: 'Due', kind: 'date' },
  { label: 'Controls', kind: 'text' },
];

const RUN_COLUMNS: Column[] = [
  { label: 'Seq', kind: 'num' },
  { label: 'As of', kind: 'date' },
  { label: 'Run', kind: 'text', nowrap: true },
  ...['Results', 'PASS', 'WARN', 'FAIL', 'Pass rate', 'Open', 'Overdue', 'Drift'].map((label): Column => ({ label, kind: 'num' })),
];

/** The run dashboard of `svc ir dashboard`, the trend dashboard of `svc conmon dashboard` and the other pages of HtmlRenderer, self-contained. */
@injectable()
export class HtmlDashboardRenderer implements HtmlRenderer {
  runDashboard(model: RunDashboardModel): string {
    const { counts } = model;
    const summary = tiles([
      { key: 'total', label: 'Total', value: counts.results },
      { key: 'pass', label: 'PASS', value: counts.pass, status: 'PASS' },
      { key: 'warn', label: 'WARN', value: counts.warn, status: 'WARN' },
      { key: 'fail', label: 'FAIL', value: counts.fail, status: 'FAIL' },
      { key: 'unmapped', label: 'Unmapped', value: counts.unmapped },
      { key: 'poam', label: 'POA&M items', value: model.governance.filter((row) => row.status !== 'PASS' && row.due !== null).length },
    ]);
    const statusSegments: Mark[] = STATUSES.map((s) => ({ key: s, label: s, colour: STATUS_COLOURS[s].fill }));
    const charts = [
      figure(
        'Status by area',
        stackedBarChart(
          { id: 'status-by-area', title: 'KSI status by area', empty: 'the run has no results.' },
          statusSegments,
          model.areas.map((a) => ({ key: a.area, label: a.title && a.title !== a.area ? `${a.area} ${a.title}` : a.area, values: [a.pass, a.warn, a.fail] })),
        ),
      ),
      figure(
        'Governance actions by severity',
        barChart(
          { id: 'actions-by-severity', title: 'Governance actions by severity', empty: 'the run has no governance actions.' },
          model.severities.map((s) => ({
            key: s.severity,
            label: s.severity,
            value: s.remediate + s.monitor,
            colour: SEVERITY_COLOURS[s.severity],
            note: `${s.remediate} remediate, ${s.monitor} monitor`,
          })),
        ),
      ),
      figure(
        'POA&M items by SLA',
        barChart(
          { id: 'poam-by-sla', title: `POA&M items by SLA, as of ${model.as_of}`, empty: 'the run has no open POA&M items.' },
          model.sla.map((b) => ({ key: b.bucket, label: b.bucket, value: b.count, colour: SLA_COLOURS[b.bucket] })),
        ),
      ),
    ];
    const table = sortableTable({
      id: 'governance-table',
      labelledBy: 'governance-h',
      columns: GOVERNANCE_COLUMNS,
      rows: model.governance.map(governanceCells),
      empty: 'the run has no results.',
      filter: true,
    });
    return renderPage({
      title: model.title,
      tool: model.tool,
      generatedAt: model.generated_at,
      facts: [
        { label: 'Input', value: model.input.name },
        { label: 'Input SHA-256', value: model.input.sha256, code: true },
        { label: 'Merkle root', value: model.merkle_root, code: true },
        { label: 'As of', value: model.as_of },
      ],
      main: [
        section('summary', 'Summary', summary),
        section('charts', 'Charts', `<div class="charts">\n${charts.join('\n')}\n</div>`),
        section('governance', 'Governance', table),
      ].join('\n'),
    });
  }

  trendDashboard(model: TrendDashboardModel): string {
    const { runs } = model;
    const x = { label: 'Run (as of)', values: runs.map((r) => r.as_of) };
    const passRates: Series[] = [
      { key: 'overall', label: 'Overall', colour: '#000000', width: 3, values: runs.map((r) => r.pass_rate) },
      ...model.areas.map(({ area }, i): Series => ({
        key: area,
        label: area,
        colour: SERIES_COLOURS[i % SERIES_COLOURS.length],
        dash: SERIES_DASHES[i % SERIES_DASHES.length],
        values: runs.map((r) => r.areas[area] ?? null),
      })),
    ];
    const poam: Series[] = [
      { key: 'open', label: 'Open', colour: '#0072b2', values: runs.map((r) => r.open) },
      { key: 'overdue', label: 'Overdue', colour: STATUS_COLOURS.FAIL.fill, dash: '6 3', values: runs.map((r) => r.overdue) },
    ];
    const noRuns = 'the store has no runs.';
    const charts = [
      figure(
        'Pass rate over runs',
        lineChart({ id: 'pass-rate', title: 'Pass rate, overall and by area, over runs', empty: noRuns, width: 1200 }, x, passRates, {
          label: 'Pass rate',
          format: (v) => `${Math.round(v * 100)}%`,
          max: 1,
          ticks: [0, 0.25, 0.5, 0.75, 1],
        }),
        true,
      ),
      figure(
        'Open and overdue POA&M items',
        lineChart({ id: 'poam-trend', title: 'Open and overdue POA&M items over runs', empty: noRuns }, x, poam, { label: 'POA&M items', format: formatCount }),
      ),
      figure(
        'Drift findings by class',
        stackedColumnChart(
          { id: 'drift-by-class', title: 'Drift findings by class per run', empty: runs.length === 0 ? noRuns : 'no drift between the stored runs.' },
          x,
          DRIFT_CLASSES.map((c) => ({ key: c, label: c, colour: DRIFT_COLOURS[c] })),
          runs.map((r) => DRIFT_CLASSES.map((c) => r.drift[c])),
          'Findings',
        ),
      ),
    ];
    const table = sortableTable({ id: 'runs-table', labelledBy: 'runs-h', columns: RUN_COLUMNS, rows: runs.map(runCells), empty: noRuns, filter: true });
    return renderPage({
      title: model.title,
      tool: model.tool,
      generatedAt: model.generated_at,
      facts: [
        { label: 'Store', value: model.store },
        { label: 'Runs', value: formatCount(runs.length) },
        { label: 'First as of', value: runs.length > 0 ? runs[0].as_of : '—' },
        { label: 'Last as of', value: runs.length > 0 ? runs[runs.length - 1].as_of : '—' },
      ],
      main: [section('charts', 'Trends', `<div class="charts">\n${charts.join('\n')}\n</div>`), section('runs', 'Runs', table)].join('\n'),
    });
  }

  vulnerabilityActivity(model: VulnerabilityActivityReport): string {
    return vulnerabilityActivityPage(model);
  }

  agencyPortfolio(model: PortfolioModel): string {
    return agencyPortfolioPage(model);
  }
}

function governanceCells(row: GovernanceRow): Cell[] {
  return [
    row.ksi_id,
    row.title,
    row.area,
    { html: statusBadge(row.status), sort: STATUS_RANK[row.status] },
    row.action,
    { html: escapeHtml(row.severity), sort: severityRank(row.severity) },
    row.owner,
    row.sla_days,
    { html: escapeHtml(row.due ?? '—'), sort: row.due ?? '' },
    row.controls.join(', '),
  ];
}

function runCells(run: TrendPoint): Cell[] {
  const drift = DRIFT_CLASSES.reduce((sum, c) => sum + run.drift[c], 0);
  return [
    run.seq,
    run.as_of,
    { html: `<code title="${escapeHtml(run.id)}">${escapeHtml(run.id.slice(0, 12))}</code>`, sort: run.id },
    run.counts.results,
    run.counts.pass,
    run.counts.warn,
    run.counts.fail,
    { html: formatPercent(run.pass_rate), sort: run.pass_rate },
    run.open,
    run.overdue,
    drift,
  ];
}
