import { createHash } from 'node:crypto';
import type { Status } from '../../../domain/ksi/status';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe for HTML content and for single- or double-quoted attributes (KSI titles and owners come from user input). */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** 12345 → "12,345", written by hand so the page does not depend on the host's ICU data. */
export function formatCount(value: number): string {
  const sign = value < 0 ? '-' : '';
  return sign + String(Math.round(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A 0..1 rate as "87.5%". */
export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** Fill and text colour of each status: light, mid and dark, so they stay apart in grayscale and on paper. */
export const STATUS_COLOURS: Record<Status, { fill: string; ink: string }> = {
  PASS: { fill: '#b8e0b9', ink: '#000' },
  WARN: { fill: '#e8a33d', ink: '#000' },
  FAIL: { fill: '#a61b1b', ink: '#fff' },
};

/**
 * How the script compares a column's keys: `num` and `rank` as numbers (a rank is a number behind a word, such as
 * Critical = 3, and is not right-aligned), `date` as anything `Date.parse` reads (YYYY-MM-DD, ISO-8601), `text` by
 * an English collation with numeric runs compared as numbers.
 */
export type SortKind = 'text' | 'num' | 'rank' | 'date';

export interface Column {
  label: string;
  kind: SortKind;
  /** The first click sorts descending: rank columns, whose worst value (FAIL, Critical) should come first. */
  descendingFirst?: boolean;
  /** Keeps values such as ids on one line (dates are, unless this is false). */
  nowrap?: boolean;
}

/** Plain text or a number (escaped and formatted here), or trusted markup with its sort key. */
export type Cell = string | number | { html: string; sort: string | number };

export interface TableInput {
  id: string;
  /** Id of the heading that names the table. */
  labelledBy: string;
  columns: Column[];
  rows: Cell[][];
  /** Shown instead of the table when there are no rows. */
  empty: string;
  /** Adds a box that hides the rows not containing the typed text. */
  filter?: boolean;
}

/**
 * A table the page script sorts by any column (headers are buttons; `aria-sort` follows) in the model's order to
 * begin with. Cells whose text is not their sort key carry it in `data-sort`; an empty key sorts last both ways.
 */
export function sortableTable(table: TableInput): string {
  if (table.rows.length === 0) return noData(table.empty);
  const head = table.columns
    .map(
      (c) =>
        `<th scope="col" data-kind="${c.kind}"${c.descendingFirst ? ' data-first="descending"' : ''}${cellClass(c)}><button type="button">${escapeHtml(c.label)}</button></th>`,
    )
    .join('');
  const body = table.rows.map((row) => `<tr>${row.map((cell, i) => tableCell(cell, cellClass(table.columns[i]))).join('')}</tr>`).join('\n');
  const filter = table.filter
    ? `<div class="filter"><label>Filter rows <input type="search" data-filter="${table.id}" autocomplete="off" spellcheck="false"></label>` +
      `<span data-count-for="${table.id}" aria-live="polite">${rowCount(table.rows.length)}</span></div>\n`
    : '';
  return `${filter}<div class="table-wrap"><table id="${table.id}" data-sortable aria-labelledby="${table.labelledBy}">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

/** The class attribute of a column's cells: numbers right-aligned, dates and ids unbroken. */
function cellClass(column: Column): string {
  const names = [column.kind === 'num' ? 'n' : '', (column.nowrap ?? column.kind === 'date') ? 'nw' : ''].filter((name) => name !== '');
  return names.length === 0 ? '' : ` class="${names.join(' ')}"`;
}

function tableCell(cell: Cell, cls: string): string {
  if (typeof cell === 'number') return `<td${cls} data-sort="${cell}">${formatCount(cell)}</td>`;
  if (typeof cell === 'string') return `<td${cls}>${escapeHtml(cell)}</td>`;
  return `<td${cls} data-sort="${escapeHtml(cell.sort)}">${cell.html}</td>`;
}

function rowCount(rows: number): string {
  return `${rows} ${rows === 1 ? 'row' : 'rows'}`;
}

/** The note that stands in for a chart or table with nothing to show. */
export function noData(why: string): string {
  return `<p class="no-data">No data: ${escapeHtml(why)}</p>`;
}

/** A headed section of the page; its heading id is `${id}-h`, for tables and charts to be labelled by. */
export function section(id: string, heading: string, content: string): string {
  return `<section id="${id}" aria-labelledby="${id}-h">\n<h2 id="${id}-h">${escapeHtml(heading)}</h2>\n${content}\n</section>`;
}

/** A chart (or its "No data" note) with a visible caption; a wide one spans the whole row of the chart grid. */
export function figure(caption: string, chart: string, wide = false): string {
  return `<figure${wide ? ' class="wide"' : ''}><figcaption>${escapeHtml(caption)}</figcaption>\n${chart}\n</figure>`;
}

export interface Tile {
  key: string;
  label: string;
  value: number;
  status?: Status;
}

/** Big-number summary tiles. */
export function tiles(list: readonly Tile[]): string {
  const items = list.map(
    (t) => `<li class="tile${t.status ? ` tile-${t.status}` : ''}" data-tile="${t.key}"><b>${formatCount(t.value)}</b>${escapeHtml(t.label)}</li>`,
  );
  return `<ul class="tiles">${items.join('')}</ul>`;
}

/** A status as a coloured badge that also says its name, so it survives grayscale printing. */
export function statusBadge(status: Status): string {
  return `<span class="badge badge-${status}">${status}</span>`;
}

export interface Fact {
  label: string;
  value: string;
  /** Set in monospace and broken anywhere: hashes and ids. */
  code?: boolean;
}

export interface PageInput {
  title: string;
  /** Label/value pairs under the title. */
  facts: readonly Fact[];
  tool: { name: string; version: string };
  /** ISO-8601 time the page was made. */
  generatedAt: string;
  /** Trusted markup of the page's sections, built with escapeHtml. */
  main: string;
}

/**
 * One self-contained page: inline CSS, SVG and the one sorting/filtering script, under a Content Security Policy
 * that allows nothing else (no network, no other script: the script is allowed by its SHA-256, so CSP-enforcing
 * browsers run it and nothing injected). Deterministic: the same input gives the same bytes.
 */
export function renderPage(page: PageInput): string {
  const tool = `${page.tool.name} ${page.tool.version}`;
  const facts = page.facts
    .map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${f.code ? `<code>${escapeHtml(f.value)}</code>` : escapeHtml(f.value)}</dd>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src '${SCRIPT_HASH}'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(tool)}">
<title>${escapeHtml(page.title)}</title>
<link rel="icon" href="data:,">
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(page.title)}</h1>
<p class="tool">${escapeHtml(tool)} · generated <time datetime="${escapeHtml(page.generatedAt)}">${escapeHtml(page.generatedAt)}</time></p>
<dl class="facts">${facts}</dl>
</header>
<main>
${page.main}
</main>
<footer>Generated by ${escapeHtml(tool)} at ${escapeHtml(page.generatedAt)}. This page is self-contained: it loads nothing from the network.</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const badges = (Object.keys(STATUS_COLOURS) as Status[])
  .map((s) => `.badge-${s}{background:${STATUS_COLOURS[s].fill};color:${STATUS_COLOURS[s].ink}}.tile-${s}{border-left:6px solid ${STATUS_COLOURS[s].fill}}`)
  .join('\n');

const CSS = `
:root{--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--focus:#0969da}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:var(--ink);background:#fff}
header,main,footer{max-width:1280px;margin:0 auto;padding:12px 24px}
header{border-bottom:1px solid var(--line)}
h1{font-size:1.5rem;margin:4px 0;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:24px 0 8px}
.tool{color:var(--muted);margin:0 0 8px}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}
.facts dt{color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
code{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:12px;list-style:none;margin:0;padding:0}
.tile{border:1px solid var(--line);border-radius:6px;padding:8px 12px;background:var(--panel)}
.tile b{display:block;font-size:1.75rem;line-height:1.2}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(440px,1fr));gap:16px}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:12px;break-inside:avoid}
figure.wide{grid-column:1/-1}
figcaption{font-weight:600;margin-bottom:8px;overflow-wrap:anywhere}
li{overflow-wrap:anywhere}
svg{display:block;max-width:100%;height:auto}
svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
.no-data{margin:0;padding:24px;border:1px dashed var(--line);border-radius:6px;color:var(--muted);text-align:center}
.filter{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0}
.filter input{font:inherit;padding:4px 8px;margin-left:6px;min-width:260px;border:1px solid var(--line);border-radius:4px}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}
td p{margin:0 0 4px}
td p b{overflow-wrap:normal}
td .id{white-space:nowrap}
td .name{display:block}
.n{text-align:right;font-variant-numeric:tabular-nums}
.nw{white-space:nowrap}
thead th{position:sticky;top:0;background:#fff}
th button{font:inherit;font-weight:600;color:inherit;background:none;border:0;padding:2px 0;cursor:pointer;text-align:left}
th button::after{content:"\\2195";color:var(--muted);margin-left:4px;display:inline-block}
th[aria-sort=ascending] button::after{content:"\\25B2";color:var(--ink)}
th[aria-sort=descending] button::after{content:"\\25BC";color:var(--ink)}
button:focus-visible,input:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
tbody tr:nth-child(even){background:var(--panel)}
.badge{display:inline-block;min-width:3.4em;padding:0 6px;border-radius:3px;font-weight:600;text-align:center;overflow-wrap:normal}
${badges}
.badge-none{background:#fff;color:var(--ink);box-shadow:inset 0 0 0 1px var(--ink)}
.legend{display:flex;flex-wrap:wrap;gap:6px 12px;list-style:none;margin:0 0 12px;padding:0}
.charts.ksi-metrics{grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px}
.daily{margin:4px 0 0;padding-left:24px;font-size:12px}
footer{color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
@media print{
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font-size:10pt}
header,main,footer{max-width:none;padding:6px 0}
.filter{display:none}
.charts{grid-template-columns:1fr 1fr}
figure,.tile,tr{break-inside:avoid}
thead{display:table-header-group}
thead th{position:static}
th button::after{content:none}
th[aria-sort=ascending] button::after{content:"\\25B2"}
th[aria-sort=descending] button::after{content:"\\25BC"}
.table-wrap{overflow:visible}
}
`;

/**
 * Sorts every `table[data-sortable]` by the clicked column (again: reversed; ties keep the model's order) and
 * filters rows from `input[data-filter]`. Event listeners only: the policy forbids inline handler attributes.
 */
const SCRIPT = `
(() => {
  'use strict';
  const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const keyOf = (cell, kind) => {
    const text = (cell.dataset.sort ?? cell.textContent).trim();
    if (text === '') return null;
    if (kind === 'text') return text;
    const value = kind === 'date' ? Date.parse(text) : Number(text);
    return Number.isNaN(value) ? null : value;
  };
  const compare = (kind, a, b) => (kind === 'text' ? collator.compare(a, b) : a - b);
  const rowCount = (n) => n + (n === 1 ? ' row' : ' rows');

  for (const table of document.querySelectorAll('table[data-sortable]')) {
    const body = table.tBodies[0];
    const headers = Array.from(table.tHead.rows[0].cells);
    const modelOrder = new Map(Array.from(body.rows, (row, i) => [row, i]));
    headers.forEach((th, col) => {
      th.querySelector('button').addEventListener('click', () => {
        const first = th.dataset.first ?? 'ascending';
        const direction = th.getAttribute('aria-sort') === first ? (first === 'ascending' ? 'descending' : 'ascending') : first;
        const sign = direction === 'ascending' ? 1 : -1;
        const kind = th.dataset.kind;
        const keyed = Array.from(body.rows, (row) => ({ row, key: keyOf(row.cells[col], kind) }));
        keyed.sort((a, b) => {
          if (a.key === null || b.key === null) {
            if (a.key !== b.key) return a.key === null ? 1 : -1;
          } else {
            const order = compare(kind, a.key, b.key);
            if (order !== 0) return sign * order;
          }
          return modelOrder.get(a.row) - modelOrder.get(b.row);
        });
        for (const header of headers) header.removeAttribute('aria-sort');
        th.setAttribute('aria-sort', direction);
        body.append(...keyed.map((k) => k.row));
      });
    });
  }

  for (const input of document.querySelectorAll('input[data-filter]')) {
    const id = input.dataset.filter;
    const rows = Array.from(document.getElementById(id).tBodies[0].rows);
    const count = document.querySelector('[data-count-for="' + id + '"]');
    input.addEventListener('input', () => {
      const needle = input.value.trim().toLowerCase();
      let shown = 0;
      for (const row of rows) {
        row.hidden = needle !== '' && !row.textContent.toLowerCase().includes(needle);
        if (!row.hidden) shown += 1;
      }
      count.textContent = needle === '' ? rowCount(rows.length) : shown + ' of ' + rowCount(rows.length);
    });
  }
})();
`;

const SCRIPT_HASH = `sha256-${createHash('sha256').update(SCRIPT, 'utf8').digest('base64')}`;
