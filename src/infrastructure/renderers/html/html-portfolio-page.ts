import type { PortfolioModel, PortfolioProvider, TrendPoint } from '../../../domain/agency/portfolio';
import type { ProviderStatus } from '../../../domain/agency/provider-status';
import { escapeHtml, figure, formatCount, noData, renderPage, section, sortableTable, STATUS_COLOURS, tiles, type Cell, type Column } from './html-page';
import { lineChart, type Series } from './svg-charts';

const PORTFOLIO_COLUMNS: Column[] = [
  { label: 'Provider', kind: 'text' },
  { label: 'FedRAMP ID', kind: 'text', nowrap: true },
  { label: 'Class', kind: 'text' },
  { label: 'Type', kind: 'text' },
  { label: 'Last pull', kind: 'date' },
  { label: 'Pull', kind: 'rank', descendingFirst: true },
  { label: 'Last OCR', kind: 'date' },
  { label: 'Reviewed', kind: 'text' },
  { label: 'Unreviewed OCRs', kind: 'num' },
  { label: 'Next OCR due', kind: 'date' },
  { label: 'Open vulnerabilities', kind: 'num' },
  { label: 'Overdue', kind: 'num' },
  { label: 'Accepted', kind: 'num' },
  { label: 'Open incidents', kind: 'num' },
  { label: 'SCNs', kind: 'num' },
  { label: 'KSI changes', kind: 'num' },
  { label: 'Invalid or stale', kind: 'text' },
  { label: 'Actions', kind: 'num', descendingFirst: true },
];

const ACTION_COLUMNS: Column[] = [
  { label: 'Provider', kind: 'text' },
  { label: 'What to act on', kind: 'text' },
];

/** Sort keys of the Pull column: its first click puts the failed pulls first, then the never pulled. */
const PULL_RANK: Record<NonNullable<ProviderStatus['lastPull']>['outcome'] | 'never', number> = { ok: 0, partial: 1, never: 2, failed: 3 };

const KSI_COLOURS = { implemented: '#009e73', listed: '#7f7f7f' };
const VULNERABILITY_COLOURS = { open: '#0072b2', overdue: STATUS_COLOURS.FAIL.fill };

/**
 * `svc agency report`'s page: summary tiles, the portfolio table (one row per provider as `svc agency status` judged
 * it), each provider's trend over its pulls and every row's actions. Provider names, ids, types and actions are
 * provider-controlled text: every one goes through escapeHtml (table cells, chart labels, headings).
 */
export function agencyPortfolioPage(model: PortfolioModel): string {
  const rows = model.providers.map((p) => p.status);
  const sum = (f: (row: ProviderStatus) => number) => rows.reduce((n, row) => n + f(row), 0);
  const total = (counts: Record<string, number> | undefined) => Object.values(counts ?? {}).reduce((n, k) => n + k, 0);
  const summary = tiles([
    { key: 'providers', label: 'Providers', value: rows.length },
    { key: 'needing-action', label: 'With something to act on', value: model.needingAction, status: model.needingAction > 0 ? 'FAIL' : 'PASS' },
    { key: 'unreachable', label: 'Last pull failed', value: rows.filter((r) => r.lastPull?.outcome === 'failed').length },
    { key: 'open', label: 'Open vulnerabilities', value: sum((r) => total(r.vulnerabilities?.open)) },
    { key: 'overdue', label: 'Overdue vulnerabilities', value: sum((r) => total(r.vulnerabilities?.overdue)), status: 'FAIL' },
    { key: 'incidents', label: 'Open incidents', value: sum((r) => r.incidents.length), status: 'WARN' },
    { key: 'unreviewed', label: 'OCRs not reviewed', value: sum((r) => r.unreviewedOcrs.length), status: 'WARN' },
  ]);
  const portfolio = sortableTable({
    id: 'portfolio-table',
    labelledBy: 'portfolio-h',
    columns: PORTFOLIO_COLUMNS,
    rows: rows.map(portfolioCells),
    empty: 'no provider is configured (svc agency add).',
    filter: true,
  });
  const trends = model.providers.length === 0 ? noData('no provider is configured (svc agency add).') : model.providers.map(trendBlock).join('\n');
  const actions = sortableTable({
    id: 'actions-table',
    labelledBy: 'actions-h',
    columns: ACTION_COLUMNS,
    rows: rows.flatMap((r) => r.actions.map((a): Cell[] => [r.provider, a])),
    empty: 'nothing to act on.',
    filter: true,
  });
  return renderPage({
    title: model.title,
    tool: model.tool,
    generatedAt: model.generatedAt,
    facts: [
      ...(model.agency === undefined ? [] : [{ label: 'Agency', value: model.agency }]),
      { label: 'Judged at', value: model.now },
      { label: 'Rules', value: model.rules },
      { label: 'Providers', value: formatCount(rows.length) },
      { label: 'With something to act on', value: formatCount(model.needingAction) },
    ],
    main: [
      section('summary', 'Summary', summary),
      section('portfolio', 'Portfolio', portfolio),
      section('actions', 'Needs action', actions),
      section('trends', 'Trends over pulls', trends),
    ].join('\n'),
  });
}

const dash: Cell = { html: '—', sort: '' };
const text = (value: string | undefined): Cell => (value === undefined ? dash : { html: escapeHtml(value), sort: value });

/** A count by N-rating as `3 (N4 1, N3 2)`, sorted by the total; a dash when there is no VDR to count. */
function byRating(counts: Record<string, number> | undefined): Cell {
  if (counts === undefined) return dash;
  const entries = Object.entries(counts);
  const total = entries.reduce((n, [, k]) => n + k, 0);
  const detail = entries.length === 0 ? '' : ` <span class="by-rating">(${escapeHtml(entries.map(([n, k]) => `${n} ${k}`).join(', '))})</span>`;
  return { html: `${formatCount(total)}${detail}`, sort: total };
}

function portfolioCells(row: ProviderStatus): Cell[] {
  const v = row.vulnerabilities;
  const pull = row.lastPull;
  const problems = [...row.documents.invalid.map((d) => `${d} invalid`), ...row.documents.stale.map((d) => `${d} stale`)];
  return [
    { html: `<span class="name">${escapeHtml(row.provider)}</span><code>${escapeHtml(row.url)}</code>`, sort: row.provider },
    text(row.fedrampId),
    row.class === undefined ? dash : { html: escapeHtml(`Class ${row.class}`), sort: row.class },
    text(row.type),
    text(pull?.finished),
    {
      html: escapeHtml(pull === undefined ? 'never' : `${pull.seq}: ${pull.outcome}`),
      sort: PULL_RANK[pull?.outcome ?? 'never'],
    },
    text(row.lastOcr?.periodEnd),
    row.lastOcr === undefined ? dash : row.lastOcr.reviewed ? 'yes' : 'no',
    row.unreviewedOcrs.length,
    text(row.nextOcrDue),
    byRating(v?.open),
    byRating(v?.overdue),
    v === undefined ? dash : v.accepted,
    row.incidents.length,
    row.scns.count,
    row.ksiChanges.length,
    problems.length === 0 ? '' : problems.join(', '),
    row.actions.length,
  ];
}

/** One provider's trend: a heading, KSIs implemented over pulls and open and overdue vulnerabilities over pulls. */
function trendBlock({ status, trend }: PortfolioProvider, index: number): string {
  const n = index + 1;
  const x = { label: 'Pull (finished)', values: trend.map((p) => `${p.seq}: ${p.at.slice(0, 10)}`) };
  const never = `${status.provider} was never pulled.`;
  const values = (f: (p: TrendPoint) => number | undefined) => trend.map((p) => f(p) ?? null);
  const some = (f: (p: TrendPoint) => unknown) => trend.some((p) => f(p) !== undefined);
  const ksis: Series[] = some((p) => p.ksis)
    ? [
        { key: 'implemented', label: 'Implemented', colour: KSI_COLOURS.implemented, width: 3, values: values((p) => p.ksis?.implemented) },
        { key: 'listed', label: 'Listed', colour: KSI_COLOURS.listed, dash: '6 3', values: values((p) => p.ksis?.listed) },
      ]
    : [];
  const vulnerabilities: Series[] = some((p) => p.vulnerabilities)
    ? [
        { key: 'open', label: 'Open', colour: VULNERABILITY_COLOURS.open, values: values((p) => p.vulnerabilities?.open) },
        { key: 'overdue', label: 'Overdue', colour: VULNERABILITY_COLOURS.overdue, dash: '6 3', values: values((p) => p.vulnerabilities?.overdue) },
      ]
    : [];
  const noVulnerabilities = trend.length === 0 ? never : status.class === undefined ? 'no class to judge by (svc agency add --class).' : 'no VDR was pulled.';
  const charts = [
    figure(
      'KSIs implemented',
      lineChart(
        { id: `ksis-${n}`, title: `KSIs implemented over pulls: ${status.provider}`, empty: trend.length === 0 ? never : 'no SDR was pulled.' },
        x,
        ksis,
        {
          label: 'KSIs',
          format: formatCount,
        },
      ),
    ),
    figure(
      'Open and overdue vulnerabilities',
      lineChart(
        { id: `vulnerabilities-${n}`, title: `Open and overdue vulnerabilities over pulls: ${status.provider}`, empty: noVulnerabilities },
        x,
        vulnerabilities,
        {
          label: 'Vulnerabilities',
          format: formatCount,
        },
      ),
    ),
  ];
  return `<div class="trend" id="trend-${n}" data-provider="${escapeHtml(status.provider)}">\n<h3 id="trend-${n}-h">${escapeHtml(status.provider)}</h3>\n<div class="charts">\n${charts.join('\n')}\n</div>\n</div>`;
}
