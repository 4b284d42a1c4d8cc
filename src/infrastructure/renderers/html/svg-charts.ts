// Small pure SVG chart builders for the dashboards. Each returns an `<svg role="img">` with a title, a text summary
// (`<desc>`), text labels and a legend, or the "No data" note when there is nothing to draw. Data marks carry
// `data-` attributes (`data-key`, `data-value`, `data-series`, `data-column`) that tests and readers can count.
import { escapeHtml, formatCount, noData } from './html-page';

export interface ChartFrame {
  /** Unique in the page; also `data-chart` of the svg. */
  id: string;
  /** Accessible name of the chart. */
  title: string;
  /** Why there is nothing to draw, shown in the "No data" note. */
  empty: string;
  /** Width in CSS pixels (default 720); the chart shrinks to fit narrower screens. */
  width?: number;
}

/** A legend entry: one segment of a stacked chart, or one line series. */
export interface Mark {
  key: string;
  label: string;
  colour: string;
  /** stroke-dasharray of a line series, so series stay apart in grayscale. */
  dash?: string;
  /** Line width (default 2). */
  width?: number;
}

export interface StackedBar {
  key: string;
  /** Shown left of the bar (shortened to fit). */
  label: string;
  /** One count per segment, in the segments' order. */
  values: readonly number[];
  /** Shown after the bar instead of its total (`30 days`). */
  after?: string;
}

export interface StackedBarOptions {
  /** Draws the legend above the bars (default); a page showing many such charts gives one legend for all. */
  legend?: boolean;
  /** Each bar spans the whole width: how its own total splits, for bars of different totals (30 days, a year). */
  full?: boolean;
}

export interface Bar {
  key: string;
  label: string;
  value: number;
  colour: string;
  /** Shown after the value, e.g. how the count splits. */
  note?: string;
}

export interface Series extends Mark {
  /** One value per x position; null where the series has no point (a gap in the line). */
  values: readonly (number | null)[];
}

export interface XAxis {
  label: string;
  /** One label per position (thinned to fit when drawn). */
  values: readonly string[];
}

export interface YAxis {
  label: string;
  format: (value: number) => string;
  /** Fixed scale (e.g. 0..1 for rates); by default a rounded scale over the data. */
  max?: number;
  ticks?: readonly number[];
}

const DEFAULT_WIDTH = 720;
const FONT_PX = 12;
const INK = '#1b1f24';
const GRID = '#d0d7de';
const OUTLINE = '#24292f';

/** Horizontal bars split into segments (e.g. PASS/WARN/FAIL per area), with counts inside and totals after. */
export function stackedBarChart(frame: ChartFrame, segments: readonly Mark[], bars: readonly StackedBar[], options: StackedBarOptions = {}): string {
  const total = (bar: StackedBar) => bar.values.reduce((sum, v) => sum + v, 0);
  if (bars.every((bar) => total(bar) === 0)) return noData(frame.empty);
  const width = widthOf(frame);
  const top = options.legend === false ? { markup: '', height: 0 } : legend(segments, 'swatch', width);
  const rows = horizontalRows(
    width,
    top.height,
    bars.map((bar) => ({
      key: bar.key,
      label: bar.label,
      after: bar.after ?? formatCount(total(bar)),
      parts: bar.values.map((value, i) => ({ key: segments[i].key, value, colour: segments[i].colour, tip: `${bar.label}: ${value} ${segments[i].label}` })),
    })),
    options.full === true,
  );
  const desc = bars.map((bar) => `${bar.label}: ${bar.values.map((v, i) => `${v} ${segments[i].label}`).join(', ')}`).join('; ');
  return svg(frame, rows.height, desc, top.markup + rows.markup);
}

/** Horizontal bars, one colour each (e.g. actions by severity), with the value and an optional note after the bar. */
export function barChart(frame: ChartFrame, bars: readonly Bar[]): string {
  if (bars.every((bar) => bar.value === 0)) return noData(frame.empty);
  const after = (bar: Bar) => (bar.note ? `${formatCount(bar.value)} (${bar.note})` : formatCount(bar.value));
  const rows = horizontalRows(
    widthOf(frame),
    0,
    bars.map((bar) => ({
      key: bar.key,
      label: bar.label,
      after: after(bar),
      parts: [{ key: bar.key, value: bar.value, colour: bar.colour, tip: `${bar.label}: ${after(bar)}` }],
    })),
  );
  return svg(frame, rows.height, bars.map((bar) => `${bar.label}: ${after(bar)}`).join('; '), rows.markup);
}

/** Lines over the x positions (e.g. pass rate per area over runs), with axes, ticks, gridlines, markers and a legend. */
export function lineChart(frame: ChartFrame, x: XAxis, series: readonly Series[], y: YAxis): string {
  if (x.values.length === 0 || series.length === 0) return noData(frame.empty);
  const max = Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const width = widthOf(frame);
  const plot = plotArea(width, x, y.ticks && y.max !== undefined ? { max: y.max, ticks: y.ticks } : niceScale(y.max ?? max), y, legend(series, 'line', width));
  const lines = series.map((s) => {
    const points = s.values.map((v, i) => (v === null ? null : { x: num(plot.x(i)), y: num(plot.y(v)) }));
    const path = points.map((p, i) => (p === null ? '' : `${i > 0 && points[i - 1] !== null ? 'L' : 'M'}${p.x} ${p.y}`)).join('');
    const dots = points.map((p) => (p === null ? '' : `<circle cx="${p.x}" cy="${p.y}" r="2.5"/>`)).join('');
    const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
    return (
      `<path data-series="${escapeHtml(s.key)}" data-points="${points.filter((p) => p !== null).length}" d="${path}" fill="none" stroke="${s.colour}" stroke-width="${s.width ?? 2}"${dash} stroke-linejoin="round"/>\n` +
      `<g data-series="${escapeHtml(s.key)}" fill="${s.colour}">${dots}</g>`
    );
  });
  const latest = series.map((s) => {
    const last = [...s.values].reverse().find((v): v is number => v !== null);
    return `${s.label} ${last === undefined ? 'no value' : y.format(last)}`;
  });
  const desc = `${span(x, 'point')}. Last values: ${latest.join(', ')}.`;
  return svg(frame, plot.height, desc, `${plot.markup}\n${lines.join('\n')}`);
}

/** Columns split into segments per x position (e.g. drift findings by class per run), with axes and a legend. */
export function stackedColumnChart(frame: ChartFrame, x: XAxis, segments: readonly Mark[], columns: readonly (readonly number[])[], yLabel: string): string {
  const totals = columns.map((c) => c.reduce((sum, v) => sum + v, 0));
  if (x.values.length === 0 || totals.every((t) => t === 0)) return noData(frame.empty);
  const width = widthOf(frame);
  const plot = plotArea(width, x, niceScale(Math.max(...totals)), { label: yLabel, format: formatCount }, legend(segments, 'swatch', width));
  const columnWidth = Math.min(plot.band * 0.7, 48);
  const bars = columns.map((column, i) => {
    let base = 0;
    const rects = column.map((value, j) => {
      if (value === 0) return '';
      const top = plot.y(base + value);
      const rect = `<rect data-key="${escapeHtml(segments[j].key)}" data-value="${value}" x="${num(plot.x(i) - columnWidth / 2)}" y="${num(top)}" width="${num(columnWidth)}" height="${num(plot.y(base) - top)}" fill="${segments[j].colour}"/>`;
      base += value;
      return rect;
    });
    const tip = `${x.values[i]}: ${totals[i]} in all${column.map((v, j) => (v === 0 ? '' : `, ${v} ${segments[j].label}`)).join('')}`;
    return `<g data-column="${i}" data-total="${totals[i]}"><title>${escapeHtml(tip)}</title>${rects.join('')}</g>`;
  });
  const sums = segments.map((s, j) => `${columns.reduce((sum, c) => sum + c[j], 0)} ${s.label}`);
  const desc = `${span(x, 'column')}. In all: ${sums.join(', ')}.`;
  return svg(frame, plot.height, desc, `${plot.markup}\n<g stroke="${OUTLINE}" stroke-width="0.5">\n${bars.join('\n')}\n</g>`);
}

interface Row {
  key: string;
  label: string;
  after: string;
  parts: { key: string; value: number; colour: string; tip: string }[];
}

const ROW_HEIGHT = 22;
const ROW_GAP = 8;

/** Labelled horizontal bars scaled to the widest total (or each to its own, `full`), from `top` down. */
function horizontalRows(width: number, top: number, rows: readonly Row[], full = false): { markup: string; height: number } {
  const labelWidth = clamp(Math.max(...rows.map((r) => textWidth(r.label))) + 12, 60, 260);
  const afterWidth = Math.max(...rows.map((r) => textWidth(r.after))) + 12;
  const barSpace = width - labelWidth - afterWidth - 8;
  const totalOf = (row: Row) => row.parts.reduce((sum, p) => sum + p.value, 0);
  const widest = Math.max(...rows.map(totalOf));
  const markup = rows.map((row, i) => {
    const scale = barSpace / (full ? totalOf(row) || 1 : widest);
    const y = top + ROW_GAP + i * (ROW_HEIGHT + ROW_GAP);
    const baseline = num(y + ROW_HEIGHT / 2 + FONT_PX / 3);
    let x = labelWidth;
    const parts = row.parts.map((part) => {
      if (part.value === 0) return '';
      const width = part.value * scale;
      const label = formatCount(part.value);
      const inside =
        width >= textWidth(label) + 6
          ? `<text x="${num(x + width / 2)}" y="${baseline}" text-anchor="middle" fill="${inkFor(part.colour)}" stroke="none">${label}</text>`
          : '';
      const rect = `<rect data-key="${escapeHtml(part.key)}" data-value="${part.value}" x="${num(x)}" y="${y}" width="${num(width)}" height="${ROW_HEIGHT}" fill="${part.colour}"><title>${escapeHtml(part.tip)}</title></rect>${inside}`;
      x += width;
      return rect;
    });
    return (
      `<g data-bar="${escapeHtml(row.key)}"><text x="${labelWidth - 8}" y="${baseline}" text-anchor="end">${escapeHtml(fit(row.label, labelWidth - 12))}</text>` +
      `<g stroke="${OUTLINE}" stroke-width="0.5">${parts.join('')}</g><text x="${num(x + 6)}" y="${baseline}">${escapeHtml(row.after)}</text></g>`
    );
  });
  return { markup: markup.join('\n'), height: top + ROW_GAP + rows.length * (ROW_HEIGHT + ROW_GAP) };
}

interface Plot {
  markup: string;
  height: number;
  /** Width of one x position's band. */
  band: number;
  x: (index: number) => number;
  y: (value: number) => number;
}

const PLOT_HEIGHT = 220;
const MARGIN = { left: 56, right: 16, bottom: 52 };

/** Legend, gridlines, y ticks and labels, x labels (thinned to fit) and axis titles; x positions are band centres. */
function plotArea(width: number, x: XAxis, scale: { max: number; ticks: readonly number[] }, y: YAxis, key: Legend): Plot {
  const top = key.height + 12;
  const bottom = top + PLOT_HEIGHT;
  const left = MARGIN.left;
  const right = width - MARGIN.right;
  const plotWidth = right - left;
  const band = plotWidth / x.values.length;
  const xAt = (i: number) => left + band * (i + 0.5);
  const yAt = (v: number) => bottom - (PLOT_HEIGHT * v) / (scale.max || 1);
  const grid = scale.ticks.map(
    (t) =>
      `<line x1="${left}" x2="${right}" y1="${num(yAt(t))}" y2="${num(yAt(t))}"/><text x="${left - 6}" y="${num(yAt(t) + FONT_PX / 3)}" text-anchor="end" stroke="none">${escapeHtml(y.format(t))}</text>`,
  );
  const step = Math.ceil(x.values.length / Math.max(1, Math.floor(plotWidth / (Math.max(...x.values.map(textWidth)) + 16))));
  const labels = x.values
    .map((label, i) => (i % step === 0 ? `<text x="${num(xAt(i))}" y="${bottom + 18}" text-anchor="middle">${escapeHtml(label)}</text>` : ''))
    .join('');
  const markup =
    `${key.markup}\n<g stroke="${GRID}" stroke-width="1">${grid.join('')}</g>\n` +
    `<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="${INK}"/>\n<g data-axis="x">${labels}</g>\n` +
    `<text x="${num(left + plotWidth / 2)}" y="${bottom + 40}" text-anchor="middle">${escapeHtml(x.label)}</text>` +
    `<text transform="translate(14 ${num(top + PLOT_HEIGHT / 2)}) rotate(-90)" text-anchor="middle">${escapeHtml(y.label)}</text>`;
  return { markup, height: bottom + MARGIN.bottom, band, x: xAt, y: yAt };
}

interface Legend {
  markup: string;
  height: number;
}

/** Legend entries (colour swatches, or line samples with their dash) left to right from the top, wrapping at the chart's width. */
function legend(marks: readonly Mark[], sample: 'swatch' | 'line', chartWidth: number): Legend {
  if (marks.length === 0) return { markup: '', height: 0 };
  let x = 0;
  let line = 0;
  const items = marks.map((mark) => {
    const width = 24 + textWidth(mark.label) + 16;
    if (x > 0 && x + width > chartWidth) {
      x = 0;
      line += 1;
    }
    const y = 6 + line * 20;
    const swatch =
      sample === 'line'
        ? `<line x1="${x}" x2="${x + 18}" y1="${y + 7}" y2="${y + 7}" stroke="${mark.colour}" stroke-width="${mark.width ?? 2}"${mark.dash ? ` stroke-dasharray="${mark.dash}"` : ''}/>`
        : `<rect x="${x}" y="${y}" width="14" height="14" fill="${mark.colour}" stroke="${OUTLINE}" stroke-width="0.5"/>`;
    const item = `${swatch}<text x="${x + 22}" y="${y + 11}">${escapeHtml(mark.label)}</text>`;
    x += width;
    return item;
  });
  return { markup: `<g data-legend>${items.join('')}</g>`, height: 6 + (line + 1) * 20 };
}

function widthOf(frame: ChartFrame): number {
  return frame.width ?? DEFAULT_WIDTH;
}

function svg(frame: ChartFrame, height: number, desc: string, body: string): string {
  const id = escapeHtml(frame.id);
  const width = widthOf(frame);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${num(height)}" width="${width}" height="${num(height)}" role="img" aria-labelledby="${id}-t ${id}-d" data-chart="${id}" fill="${INK}">\n` +
    `<title id="${id}-t">${escapeHtml(frame.title)}</title><desc id="${id}-d">${escapeHtml(desc)}</desc>\n${body}\n</svg>`
  );
}

/** "50 points from 2025-01-06 to 2025-12-15". */
function span(x: XAxis, noun: string): string {
  const n = x.values.length;
  return `${n} ${n === 1 ? noun : `${noun}s`} from ${x.values[0]} to ${x.values[n - 1]}`;
}

/** A scale from 0 over `max` in steps of 1, 2 or 5 × 10ⁿ (at least 1: the charts count things). */
function niceScale(max: number): { max: number; ticks: number[] } {
  const raw = Math.max(max, 1) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return { max: top, ticks: Array.from({ length: top / step + 1 }, (_, i) => i * step) };
}

/** Width of a label at 12 px in a proportional sans-serif, estimated (the page cannot measure before it is drawn). */
function textWidth(text: string): number {
  return text.length * 7;
}

function fit(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  return `${text.slice(0, Math.max(1, Math.floor(width / 7) - 1))}…`;
}

/** Black or white text, whichever reads better on a #rrggbb fill (WCAG relative luminance). */
function inkFor(colour: string): string {
  const channels = [1, 3, 5].map((i) => {
    const c = parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
  return luminance > 0.18 ? '#000' : '#fff';
}

/** A coordinate with at most one decimal, so the markup stays short and stable. */
function num(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
