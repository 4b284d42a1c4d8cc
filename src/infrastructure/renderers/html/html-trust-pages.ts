import { injectable } from 'tsyringe';
import type { Status } from '../../../domain/ksi/status';
import type { TrustCell, TrustColumn, TrustKsiMetrics, TrustPage, TrustSection } from '../../../domain/trust/trust-page';
import type { TrustPages } from '../../../ports/trust-pages';
import { escapeHtml, figure, noData, renderPage, section, sortableTable, STATUS_COLOURS, type Cell, type Column } from './html-page';
import { stackedBarChart, type Mark } from './svg-charts';

const LINK = /^https?:\/\/[^\s<>"']+$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}\S*)$/;

/**
 * The trust center's pages on the shared self-contained page (html-page.ts): every value escaped, http(s) values as
 * links, implementation statuses as badges that sort worst first, and each KSI's metrics as a small chart.
 */
@injectable()
export class HtmlTrustPages implements TrustPages {
  page(model: TrustPage): string {
    return renderPage({
      title: model.title,
      facts: model.facts,
      tool: model.tool,
      generatedAt: model.generatedAt,
      main: model.sections.map(sectionHtml).join('\n'),
    });
  }
}

function sectionHtml(s: TrustSection): string {
  if (s.kind === 'fields') {
    return section(s.id, s.heading, `<dl class="facts">${s.fields.map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${value(f.value)}</dd>`).join('')}</dl>`);
  }
  if (s.kind === 'list') {
    return section(s.id, s.heading, s.items.length === 0 ? noData(s.empty) : `<ul>${s.items.map((item) => `<li>${value(item)}</li>`).join('')}</ul>`);
  }
  if (s.kind === 'metrics') return section(s.id, s.heading, metricsHtml(s.ksis));
  return section(
    s.id,
    s.heading,
    sortableTable({
      id: `${s.id}-t`,
      labelledBy: `${s.id}-h`,
      columns: s.columns.map(column),
      rows: s.rows.map((row) => row.map((c, i) => tableCell(c, s.columns[i]))),
      empty: s.empty,
      filter: s.rows.length > 10,
    }),
  );
}

/** Statuses sort worst first; dates may break before their time (value). */
function column(c: TrustColumn): Column {
  if (c.kind === 'status') return { label: c.label, kind: 'rank', descendingFirst: true };
  return c.kind === 'date' ? { label: c.label, kind: 'date', nowrap: false } : { label: c.label, kind: c.kind };
}

/** An implementation status's rank (the worst sorts first) and the colours of the check status it reads as. */
const IMPLEMENTATION: Readonly<Record<string, { rank: number; colours: Status }>> = {
  Implemented: { rank: 1, colours: 'PASS' },
  'Partially Implemented': { rank: 2, colours: 'WARN' },
  'Not Implemented': { rank: 3, colours: 'FAIL' },
};

function tableCell(cell: TrustCell, c: TrustColumn): Cell {
  if (typeof cell === 'number') return cell;
  if (typeof cell === 'string') {
    const status = c.kind === 'status' ? IMPLEMENTATION[cell] : undefined;
    if (status !== undefined) return { html: `<span class="badge badge-${status.colours}">${escapeHtml(cell)}</span>`, sort: status.rank };
    return c.kind === 'date' || LINK.test(cell) ? { html: value(cell), sort: cell } : cell;
  }
  if ('id' in cell)
    return {
      html: `<code class="id">${escapeHtml(cell.id)}</code>${cell.name === undefined ? '' : `<span class="name">${escapeHtml(cell.name)}</span>`}`,
      sort: cell.id,
    };
  const html = cell.paragraphs.map((p) => `<p>${p.label === undefined ? '' : `<b>${escapeHtml(p.label)}:</b> `}${value(p.text)}</p>`).join('');
  return { html, sort: cell.paragraphs[0]?.text ?? '' };
}

/** The days of a KSI's metrics by status, lightest first; the days without evidence are left white. */
const METRIC_SEGMENTS: readonly (Mark & { field: 'implemented' | 'partially' | 'notImplemented' | 'noEvidence'; badge: string })[] = [
  { key: 'implemented', field: 'implemented', label: 'Implemented', colour: STATUS_COLOURS.PASS.fill, badge: 'PASS' },
  { key: 'partially', field: 'partially', label: 'Partially implemented', colour: STATUS_COLOURS.WARN.fill, badge: 'WARN' },
  { key: 'not-implemented', field: 'notImplemented', label: 'Not implemented', colour: STATUS_COLOURS.FAIL.fill, badge: 'FAIL' },
  { key: 'no-evidence', field: 'noEvidence', label: 'No evidence', colour: '#ffffff', badge: 'none' },
];

/** One legend, then a small chart per KSI: its last 30 days and last year, each bar split by status (and, for Class C, each day). */
function metricsHtml(ksis: readonly TrustKsiMetrics[]): string {
  if (ksis.length === 0) return noData('no KSI has metrics');
  const legend = `<ul class="legend"><li>Days by status, over the last 30 days and the last year (from the first day recorded):</li>${METRIC_SEGMENTS.map((m) => `<li><span class="badge badge-${m.badge}">${escapeHtml(m.label)}</span></li>`).join('')}</ul>`;
  const charts = ksis.map((k) => {
    const bar = (key: 'last30Days' | 'lastYear', label: string) => ({
      key,
      label,
      values: METRIC_SEGMENTS.map((m) => k[key][m.field]),
      after: `${k[key].days} ${k[key].days === 1 ? 'day' : 'days'}`,
    });
    const chart = stackedBarChart(
      { id: `ksi-metrics-${k.id}`, title: `${k.id}: days by status`, empty: 'no day is counted', width: 360 },
      METRIC_SEGMENTS,
      [bar('last30Days', 'Last 30 days'), bar('lastYear', 'Last year')],
      {
        legend: false,
        full: true,
      },
    );
    return figure(k.name === undefined ? k.id : `${k.id} · ${k.name}`, k.daily === undefined ? chart : `${chart}\n${dailyHtml(k.daily)}`);
  });
  return `${legend}\n<div class="charts ksi-metrics">\n${charts.join('\n')}\n</div>`;
}

function dailyHtml(daily: readonly { date: string; status?: string }[]): string {
  const days = daily.map((d) => `<li><time datetime="${escapeHtml(d.date)}">${escapeHtml(d.date)}</time> ${escapeHtml(d.status ?? 'no evidence')}</li>`);
  return `<details><summary>Each day (${daily.length})</summary><ol class="daily">${days.join('')}</ol></details>`;
}

/**
 * Text; a link when the whole value is an http(s) URL (following it is the reader's choice: the page loads nothing); a
 * date-time that may break before its time, and nowhere else, so a table of many dates still fits the page.
 */
function value(text: string): string {
  if (LINK.test(text)) return `<a href="${escapeHtml(text)}" rel="noopener noreferrer">${escapeHtml(text)}</a>`;
  const time = DATE_TIME.exec(text);
  return time === null ? escapeHtml(text) : `<span class="nw">${escapeHtml(time[1])}</span><wbr><span class="nw">${escapeHtml(time[2])}</span>`;
}
