import { Workbook, type Cell, type Fill, type Worksheet } from 'exceljs';
import type { TrackedPoamItem } from '../../../domain/conmon/run-record';
import { csvRecord } from '../../../domain/encoding/csv';
import { compareIds } from '../../../domain/governance/governance-policy';
import type { PoamWorkbook, PoamWorkbookInfo } from '../../../ports/poam-workbook';
import { stampZipEntries } from '../zip-timestamps';
import { POAM_TEMPLATE_COLUMNS, poamTemplateRow, type PoamTemplateCell, type PoamTemplateColumn } from './poam-template-row';

/** The template's layout: a four-row title block, the column headers on row 5, the items from row 6. */
const HEADER_ROW = 5;
const DATE_FORMAT = 'yyyy-mm-dd';
const HEADER_FILL: Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E1F2' } };
const DEFAULT_WIDTH = 16;
/** Columns wider than DEFAULT_WIDTH; the prose ones wrap, the rest stay on one line. */
const LAYOUT: Partial<Record<PoamTemplateColumn, { width: number; wrap?: true }>> = {
  'POAM ID': { width: 24 },
  Controls: { width: 20, wrap: true },
  'Weakness Name': { width: 40, wrap: true },
  'Weakness Description': { width: 60, wrap: true },
  'Weakness Detector Source': { width: 24 },
  'Weakness Source Identifier': { width: 20 },
  'Asset Identifier': { width: 24 },
  'Point of Contact': { width: 20 },
  'Overall Remediation Plan': { width: 60, wrap: true },
  'Planned Milestones': { width: 50, wrap: true },
  Comments: { width: 40, wrap: true },
};
/** Excel refuses longer cell text (its "specifications and limits"); the file would need a repair to open. */
const MAX_CELL_TEXT = 32_767;
const TRUNCATED = ' …[truncated]';

/**
 * The FedRAMP POA&M template: an .xlsx with exceljs ("Open POA&M Items", then "Closed POA&M Items"), or the same
 * rows as one CSV table. Both take their cells from poamTemplateRow, so the two exports cannot drift apart.
 */
export class ExceljsPoamWorkbook implements PoamWorkbook {
  async render(items: readonly TrackedPoamItem[], info: PoamWorkbookInfo): Promise<Uint8Array> {
    const day = utcDay(info.date);
    const workbook = new Workbook();
    workbook.creator = `${info.tool.name} ${info.tool.version}`;
    workbook.lastModifiedBy = workbook.creator; // exceljs writes "Unknown" otherwise
    workbook.created = day;
    workbook.modified = day;
    const { open, closed } = bySheet(items);
    addSheet(workbook, 'Open POA&M Items', open, info, day);
    addSheet(workbook, 'Closed POA&M Items', closed, info, day);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    stampZipEntries(bytes, day);
    return bytes;
  }

  csv(items: readonly TrackedPoamItem[]): string {
    const { open, closed } = bySheet(items);
    const rows = [
      [...POAM_TEMPLATE_COLUMNS, 'Status'],
      ...[...open, ...closed].map((item) => [...poamTemplateRow(item).map((cell) => (typeof cell === 'string' ? cell : cell.date)), item.status]),
    ];
    return rows.map(csvRecord).join('');
  }
}

/** The open items, then the closed ones, each in poam_id order: the workbook's sheets, and the CSV's row order. */
function bySheet(items: readonly TrackedPoamItem[]): { open: TrackedPoamItem[]; closed: TrackedPoamItem[] } {
  const sorted = [...items].sort((a, b) => compareIds(a.poam_id, b.poam_id));
  return { open: sorted.filter((item) => item.status === 'Open'), closed: sorted.filter((item) => item.status === 'Closed') };
}

function addSheet(workbook: Workbook, name: string, items: readonly TrackedPoamItem[], info: PoamWorkbookInfo, day: Date): void {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: HEADER_ROW }] });
  sheet.columns = POAM_TEMPLATE_COLUMNS.map((column) => {
    const { width = DEFAULT_WIDTH, wrap = false } = LAYOUT[column] ?? {};
    return { width, style: { alignment: { vertical: 'top', wrapText: wrap } } };
  });
  addTitleBlock(sheet, info, day);

  const header = sheet.getRow(HEADER_ROW);
  header.values = [...POAM_TEMPLATE_COLUMNS];
  header.eachCell((cell) => {
    cell.font = { bold: true };
    cell.fill = HEADER_FILL;
    cell.alignment = { vertical: 'top', wrapText: true };
  });

  items.forEach((item, index) => {
    const row = sheet.getRow(HEADER_ROW + 1 + index);
    poamTemplateRow(item).forEach((value, column) => setCell(row.getCell(column + 1), value));
  });
  sheet.autoFilter = { from: { row: HEADER_ROW, column: 1 }, to: { row: HEADER_ROW + items.length, column: POAM_TEMPLATE_COLUMNS.length } };
}

function addTitleBlock(sheet: Worksheet, info: PoamWorkbookInfo, day: Date): void {
  const title = sheet.getCell('A1');
  title.value = 'Plan of Action and Milestones (POA&M)';
  title.font = { bold: true };
  sheet.getRow(2).values = ['CSP', info.system];
  sheet.getRow(3).values = ['System Name', info.system];
  sheet.getRow(4).values = ['POA&M Date', day];
  sheet.getCell('B4').numFmt = DATE_FORMAT;
}

/** Empty template cells stay blank rather than holding '', so Excel's filters list them as (Blanks). */
function setCell(cell: Cell, value: PoamTemplateCell): void {
  if (typeof value !== 'string') {
    cell.value = utcDay(value.date);
    cell.numFmt = DATE_FORMAT;
  } else if (value !== '') {
    cell.value = value.length > MAX_CELL_TEXT ? value.slice(0, MAX_CELL_TEXT - TRUNCATED.length) + TRUNCATED : value;
  }
}

/** exceljs turns a Date into a serial day from its UTC time, so midnight UTC is the whole day with no time part. */
function utcDay(isoDay: string): Date {
  return new Date(`${isoDay}T00:00:00Z`);
}
