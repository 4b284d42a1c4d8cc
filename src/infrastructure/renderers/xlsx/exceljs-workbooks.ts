import { Workbook, type Fill, type Worksheet } from 'exceljs';
import type { CrmModel } from '../../../domain/documents/crm';
import { INVENTORY_COLUMNS, type InventoryModel } from '../../../domain/documents/inventory';
import type { Workbooks } from '../../../ports/workbooks';
import { stampZipEntries } from '../zip-timestamps';

export const CRM_COLUMNS = [
  'Control ID',
  'Control Name',
  'Responsibility',
  'Provider responsibility',
  'Customer responsibility',
  'KSI',
  'KSI status',
  'Evidence (SHA-256)',
] as const;

const HEADER_FILL: Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E1F2' } };
const CRM_WIDTHS = [12, 40, 14, 50, 50, 14, 10, 76];
const INVENTORY_WIDTH = 22;
const DATE_FORMAT = 'yyyy-mm-dd';

/** The CRM and the Integrated Inventory Workbook with exceljs: header row 1 (bold, filtered, frozen), one sheet of facts. */
export class ExceljsWorkbooks implements Workbooks {
  async crm(model: CrmModel): Promise<Uint8Array> {
    const workbook = newWorkbook(model.tool, model.date);
    const sheet = table(workbook, 'CRM', CRM_COLUMNS, CRM_WIDTHS);
    for (const row of model.rows) {
      // A control with several KSIs lists them one per line, in the same order in the three KSI columns; none leaves them blank.
      const lines = (pick: (e: CrmModel['rows'][number]['evidence'][number]) => string) =>
        row.evidence.length === 0 ? null : row.evidence.map(pick).join('\n');
      sheet.addRow([row.control, row.title, row.responsibility, row.provider, row.customer, lines((e) => e.ksi), lines((e) => e.status), lines((e) => e.hash)]);
    }
    finishTable(sheet, model.rows.length, CRM_COLUMNS.length);
    summary(workbook, model.date, [
      ['System', model.system],
      ['Baseline', model.baseline],
      ['Input', model.input.name],
      ['Input SHA-256', `sha256:${model.input.sha256}`],
      ['Evidence Merkle root', model.merkleRoot],
      ['Responsibility rule', model.rule],
      [],
      ['Responsibility', 'Controls', 'With KSI evidence'],
      ...model.summary.map((s) => [s.responsibility, s.controls, s.evidenced]),
    ]);
    return write(workbook, model.date);
  }

  async inventory(model: InventoryModel): Promise<Uint8Array> {
    const workbook = newWorkbook(model.tool, model.date);
    const sheet = table(
      workbook,
      'Inventory',
      INVENTORY_COLUMNS,
      INVENTORY_COLUMNS.map(() => INVENTORY_WIDTH),
    );
    for (const row of model.rows) sheet.addRow(INVENTORY_COLUMNS.map((column) => row[column] ?? null));
    finishTable(sheet, model.rows.length, INVENTORY_COLUMNS.length);
    summary(workbook, model.date, [
      ['Snapshot root', model.root],
      ['Snapshot Merkle root', model.merkleRoot],
      ['Files', model.counts.files],
      ['Assets (resources)', model.counts.resources],
    ]);
    return write(workbook, model.date);
  }
}

function newWorkbook(tool: { name: string; version: string }, date: string): Workbook {
  const workbook = new Workbook();
  workbook.creator = `${tool.name} ${tool.version}`;
  workbook.lastModifiedBy = workbook.creator; // exceljs writes "Unknown" otherwise
  workbook.created = utcDay(date);
  workbook.modified = utcDay(date);
  return workbook;
}

function table(workbook: Workbook, name: string, columns: readonly string[], widths: readonly number[]): Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = widths.map((width) => ({ width, style: { alignment: { vertical: 'top', wrapText: true } } }));
  const header = sheet.getRow(1);
  header.values = [...columns];
  header.eachCell((cell) => {
    cell.font = { bold: true };
    cell.fill = HEADER_FILL;
  });
  return sheet;
}

function finishTable(sheet: Worksheet, rows: number, columns: number): void {
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1 + rows, column: columns } };
}

/** The "Summary" sheet: label/value rows, the date of the document first. */
function summary(workbook: Workbook, date: string, rows: (string | number)[][]): void {
  const sheet = workbook.addWorksheet('Summary');
  sheet.columns = [{ width: 28 }, { width: 80 }, { width: 20 }];
  sheet.addRow(['Date', utcDay(date)]);
  sheet.getCell('B1').numFmt = DATE_FORMAT;
  for (const row of rows) sheet.addRow(row);
  sheet.getColumn(1).font = { bold: true };
}

async function write(workbook: Workbook, date: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  stampZipEntries(bytes, utcDay(date));
  return bytes;
}

/** exceljs turns a Date into a serial day from its UTC time, so midnight UTC is the whole day with no time part. */
function utcDay(isoDay: string): Date {
  return new Date(`${isoDay}T00:00:00Z`);
}
