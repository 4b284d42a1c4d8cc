import { ValueType, Workbook, type Worksheet } from 'exceljs';
import type { TrackedPoamItem } from '../../src/domain/conmon/run-record';
import type { PoamWorkbookInfo } from '../../src/ports/poam-workbook';
import { ExceljsPoamWorkbook } from '../../src/infrastructure/renderers/xlsx/exceljs-poam-workbook';
import {
  fedrampControlId,
  POAM_TEMPLATE_COLUMNS,
  poamTemplateRow,
  type PoamTemplateCell,
  type PoamTemplateColumn,
} from '../../src/infrastructure/renderers/xlsx/poam-template-row';

const INFO: PoamWorkbookInfo = { system: 'contoso.onmicrosoft.com', date: '2025-03-01', tool: { name: 'svc', version: '0.5.0' } };
const RUN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const TRICKY = 'Line one\n"quoted" & <tagged>\n=HYPERLINK("http://evil.example","click")';
const LONG = 'x'.repeat(2_000);

/** An open, on-time item of the lifecycle; overrides make the other cases. */
function anItem(ksi: string, overrides: Partial<TrackedPoamItem> = {}): TrackedPoamItem {
  return {
    poam_id: `POAM-${ksi}`,
    ksi_id: ksi,
    controls: ['ac-2', 'ac-2.1', 'si-4.10'],
    weakness_name: `${ksi} Identity lifecycle`,
    weakness_description: `${ksi} reported FAIL for ac-2, ac-2.1, si-4.10.`,
    weakness_source: 'ScubaGear 1.5.0',
    asset_identifier: 'contoso.onmicrosoft.com',
    point_of_contact: 'iam-team',
    original_detection_date: '2025-01-10',
    scheduled_completion_date: '2025-04-10',
    status: 'Open',
    risk_rating: 'High',
    remediation_plan: 'Remediate within 90 days (High): fix MS.AAD.3.1v1 and re-run the assessment.',
    milestones: [
      { description: 'Remediation plan agreed with iam-team', due: '2025-02-24' },
      { description: `${ksi} passes a new assessment`, due: '2025-04-10' },
    ],
    overdue: false,
    status_date: '2025-01-10',
    last_status: 'FAIL',
    last_run: RUN,
    ...overrides,
  };
}

const OPEN_ON_TIME = anItem('KSI-IAM-01', { weakness_description: TRICKY });
const OPEN_OVERDUE = anItem('KSI-CNA-01', { overdue: true, scheduled_completion_date: '2025-02-01', status_date: '2025-02-02', risk_rating: 'Critical' });
const OPEN_LONG = anItem('KSI-SVC-01', { weakness_description: LONG, last_status: 'WARN', risk_rating: 'Moderate', controls: [] });
const CLOSED_FIRST = anItem('KSI-MLA-01', {
  status: 'Closed',
  completion_date: '2025-02-20',
  status_date: '2025-02-20',
  last_status: 'PASS',
  risk_rating: 'Low',
});
const CLOSED_SECOND = anItem('KSI-PIY-01', { status: 'Closed', completion_date: '2025-02-27', status_date: '2025-02-27', last_status: 'PASS' });
/** Deliberately out of poam_id order, open and closed mixed. */
const ITEMS = [OPEN_LONG, CLOSED_SECOND, OPEN_ON_TIME, CLOSED_FIRST, OPEN_OVERDUE];

const utc = (day: string) => new Date(`${day}T00:00:00Z`);

async function readBack(bytes: Uint8Array): Promise<Workbook> {
  const workbook = new Workbook();
  // exceljs types its input as an ArrayBuffer; JSZip reads one as well as a Buffer.
  await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return workbook;
}

function sheetOf(workbook: Workbook, name: string): Worksheet {
  const sheet = workbook.getWorksheet(name);
  if (sheet === undefined) throw new Error(`no sheet ${name}`);
  return sheet;
}

const rowText = (sheet: Worksheet, row: number) => POAM_TEMPLATE_COLUMNS.map((_, i) => sheet.getRow(row).getCell(i + 1).value);

/** Value and type a template cell should have after the round trip: dates as Dates, '' as a blank cell. */
function expectCell(sheet: Worksheet, row: number, column: number, expected: PoamTemplateCell): void {
  const cell = sheet.getRow(row).getCell(column);
  if (typeof expected !== 'string') {
    expect({ column, type: cell.type, value: cell.value, numFmt: cell.numFmt }).toEqual({
      column,
      type: ValueType.Date,
      value: utc(expected.date),
      numFmt: 'yyyy-mm-dd',
    });
  } else if (expected === '') {
    expect({ column, type: cell.type }).toEqual({ column, type: ValueType.Null });
  } else {
    expect({ column, type: cell.type, value: cell.value }).toEqual({ column, type: ValueType.String, value: expected });
  }
}

/** Each zip entry's DOS modification time and date fields, read from the central directory. */
function zipEntryStamps(bytes: Uint8Array): { time: number; date: number }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength - 22;
  const stamps: { time: number; date: number }[] = [];
  let entry = view.getUint32(end + 16, true);
  for (let left = view.getUint16(end + 10, true); left > 0; left -= 1) {
    const local = view.getUint32(entry + 42, true);
    stamps.push({ time: view.getUint16(entry + 12, true), date: view.getUint16(entry + 14, true) });
    stamps.push({ time: view.getUint16(local + 10, true), date: view.getUint16(local + 12, true) });
    entry += 46 + view.getUint16(entry + 28, true) + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
  }
  return stamps;
}

describe('fedrampControlId', () => {
  it.each([
    ['ac-2', 'AC-2'],
    ['ac-2.1', 'AC-2(1)'],
    ['si-4.10', 'SI-4(10)'],
    ['AC-2(1)', 'AC-2(1)'],
    ['PR.AC-1', 'PR.AC-1'],
  ])('writes %s as %s', (id, expected) => {
    expect(fedrampControlId(id)).toBe(expected);
  });
});

describe('poamTemplateRow', () => {
  it('fills the 31 template columns of an open item in template order', () => {
    expect(poamTemplateRow(anItem('KSI-IAM-01'))).toEqual([
      'POAM-KSI-IAM-01',
      'AC-2, AC-2(1), SI-4(10)',
      'KSI-IAM-01 Identity lifecycle',
      'KSI-IAM-01 reported FAIL for ac-2, ac-2.1, si-4.10.',
      'ScubaGear 1.5.0',
      'KSI-IAM-01',
      'contoso.onmicrosoft.com',
      'iam-team',
      '',
      'Remediate within 90 days (High): fix MS.AAD.3.1v1 and re-run the assessment.',
      { date: '2025-01-10' },
      { date: '2025-04-10' },
      '1. Remediation plan agreed with iam-team (due 2025-02-24)\n2. KSI-IAM-01 passes a new assessment (due 2025-04-10)',
      '',
      { date: '2025-01-10' },
      'No',
      '',
      '',
      'High',
      'High',
      'No',
      'No',
      'No',
      '',
      '',
      'Last reported FAIL by run a1b2c3d4e5f6',
      'No',
      '',
      '',
      '',
      '',
    ]);
    expect(POAM_TEMPLATE_COLUMNS).toHaveLength(31);
  });

  it('says since when an overdue item is overdue', () => {
    const row = poamTemplateRow(OPEN_OVERDUE);
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Comments')]).toBe('Overdue since 2025-02-01');
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Status Date')]).toEqual({ date: '2025-02-02' });
  });

  it('gives a closed item its completion date as status date and says why it closed', () => {
    const row = poamTemplateRow(anItem('KSI-MLA-01', { status: 'Closed', completion_date: '2025-02-20', status_date: '2025-02-18' }));
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Status Date')]).toEqual({ date: '2025-02-20' });
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Comments')]).toBe('Closed 2025-02-20: KSI-MLA-01 passed a new assessment');
  });

  it('falls back to the status date for a closed item without a completion date', () => {
    const row = poamTemplateRow(anItem('KSI-MLA-01', { status: 'Closed', status_date: '2025-02-18' }));
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Status Date')]).toEqual({ date: '2025-02-18' });
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Comments')]).toBe('Closed 2025-02-18: KSI-MLA-01 passed a new assessment');
  });

  it('leaves controls and milestones empty when the item has none', () => {
    const row = poamTemplateRow(anItem('KSI-X-01', { controls: [], milestones: [] }));
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Controls')]).toBe('');
    expect(row[POAM_TEMPLATE_COLUMNS.indexOf('Planned Milestones')]).toBe('');
  });
});

describe('ExceljsPoamWorkbook', () => {
  let bytes: Uint8Array;
  let workbook: Workbook;
  beforeAll(async () => {
    bytes = await new ExceljsPoamWorkbook().render(ITEMS, INFO);
    workbook = await readBack(bytes);
  });

  it('is a zip file', () => {
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  it('has the open sheet, then the closed sheet', () => {
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Open POA&M Items', 'Closed POA&M Items']);
  });

  it('names the tool and the export day, not the wall clock, in the workbook properties', () => {
    expect({ creator: workbook.creator, lastModifiedBy: workbook.lastModifiedBy, created: workbook.created, modified: workbook.modified }).toEqual({
      creator: 'svc 0.5.0',
      lastModifiedBy: 'svc 0.5.0',
      created: utc('2025-03-01'),
      modified: utc('2025-03-01'),
    });
  });

  it('stamps every zip entry with the export day, so equal input gives equal bytes', async () => {
    const day = ((2025 - 1980) << 9) | (3 << 5) | 1;
    expect(new Set(zipEntryStamps(bytes).map((s) => `${s.date}/${s.time}`))).toEqual(new Set([`${day}/0`]));
    expect(Buffer.from(await new ExceljsPoamWorkbook().render([...ITEMS].reverse(), INFO)).equals(Buffer.from(bytes))).toBe(true);
  });

  it.each(['Open POA&M Items', 'Closed POA&M Items'])('writes the title block and the 31 template headers on %s', (name) => {
    const sheet = sheetOf(workbook, name);
    expect(sheet.getCell('A1').value).toBe('Plan of Action and Milestones (POA&M)');
    expect(sheet.getCell('A1').font).toMatchObject({ bold: true });
    expect([2, 3, 4].map((r) => [sheet.getCell(`A${r}`).value, sheet.getCell(`B${r}`).value])).toEqual([
      ['CSP', 'contoso.onmicrosoft.com'],
      ['System Name', 'contoso.onmicrosoft.com'],
      ['POA&M Date', utc('2025-03-01')],
    ]);
    expect(sheet.getCell('B4').type).toBe(ValueType.Date);
    expect(rowText(sheet, 5)).toEqual([...POAM_TEMPLATE_COLUMNS]);
    const header = sheet.getCell('A5');
    expect({ font: header.font, fill: header.fill, wrap: header.alignment?.wrapText }).toMatchObject({
      font: { bold: true },
      fill: { type: 'pattern' },
      wrap: true,
    });
  });

  it('freezes the rows above the data and filters the header row and the data', () => {
    const open = sheetOf(workbook, 'Open POA&M Items');
    const closed = sheetOf(workbook, 'Closed POA&M Items');
    expect(open.views).toEqual([expect.objectContaining({ state: 'frozen', ySplit: 5 })]);
    expect(closed.views).toEqual([expect.objectContaining({ state: 'frozen', ySplit: 5 })]);
    expect([open.autoFilter, closed.autoFilter]).toEqual(['A5:AE8', 'A5:AE7']);
  });

  it('lists the open items in poam_id order with every cell value and type of the template row', () => {
    const sheet = sheetOf(workbook, 'Open POA&M Items');
    expect(sheet.rowCount).toBe(8);
    [OPEN_OVERDUE, OPEN_ON_TIME, OPEN_LONG].forEach((item, i) => {
      poamTemplateRow(item).forEach((cell, column) => expectCell(sheet, 6 + i, column + 1, cell));
    });
  });

  it('writes the open items as an ISSO would read them', () => {
    const sheet = sheetOf(workbook, 'Open POA&M Items');
    const cell = (row: number, column: PoamTemplateColumn) => sheet.getRow(row).getCell(POAM_TEMPLATE_COLUMNS.indexOf(column) + 1);
    expect(cell(6, 'POAM ID').value).toBe('POAM-KSI-CNA-01');
    expect(cell(6, 'Comments').value).toBe('Overdue since 2025-02-01');
    expect(cell(6, 'Scheduled Completion Date').value).toEqual(utc('2025-02-01'));
    expect(cell(6, 'Original Risk Rating').value).toBe('Critical');
    expect(cell(7, 'Controls').value).toBe('AC-2, AC-2(1), SI-4(10)');
    expect(cell(7, 'Comments').value).toBe('Last reported FAIL by run a1b2c3d4e5f6');
    expect(cell(7, 'Planned Milestones').alignment).toMatchObject({ wrapText: true });
    expect(cell(8, 'Comments').value).toBe('Last reported WARN by run a1b2c3d4e5f6');
    expect(cell(8, 'Controls').type).toBe(ValueType.Null);
  });

  it('keeps text with newlines, quotes, ampersands, a leading = and 2 000 characters as plain strings', () => {
    const sheet = sheetOf(workbook, 'Open POA&M Items');
    const description = POAM_TEMPLATE_COLUMNS.indexOf('Weakness Description') + 1;
    const tricky = sheet.getRow(7).getCell(description);
    expect({ type: tricky.type, value: tricky.value, formula: tricky.formula }).toEqual({ type: ValueType.String, value: TRICKY, formula: undefined });
    const long = sheet.getRow(8).getCell(description);
    expect({ type: long.type, value: long.value }).toEqual({ type: ValueType.String, value: LONG });
  });

  it('lists only the closed items on the closed sheet, with their completion date', () => {
    const sheet = sheetOf(workbook, 'Closed POA&M Items');
    expect(sheet.rowCount).toBe(7);
    [CLOSED_FIRST, CLOSED_SECOND].forEach((item, i) => {
      poamTemplateRow(item).forEach((cell, column) => expectCell(sheet, 6 + i, column + 1, cell));
    });
    const statusDate = POAM_TEMPLATE_COLUMNS.indexOf('Status Date') + 1;
    const comments = POAM_TEMPLATE_COLUMNS.indexOf('Comments') + 1;
    expect([6, 7].map((r) => [sheet.getRow(r).getCell(1).value, sheet.getRow(r).getCell(statusDate).value, sheet.getRow(r).getCell(comments).value])).toEqual([
      ['POAM-KSI-MLA-01', utc('2025-02-20'), 'Closed 2025-02-20: KSI-MLA-01 passed a new assessment'],
      ['POAM-KSI-PIY-01', utc('2025-02-27'), 'Closed 2025-02-27: KSI-PIY-01 passed a new assessment'],
    ]);
  });

  it('writes both sheets with headers only when there are no items', async () => {
    const empty = await readBack(await new ExceljsPoamWorkbook().render([], INFO));
    expect(empty.worksheets.map((s) => [s.name, s.rowCount, rowText(s, 5), s.autoFilter])).toEqual([
      ['Open POA&M Items', 5, [...POAM_TEMPLATE_COLUMNS], 'A5:AE5'],
      ['Closed POA&M Items', 5, [...POAM_TEMPLATE_COLUMNS], 'A5:AE5'],
    ]);
  });

  it('cuts text beyond the 32 767 characters an Excel cell holds, and says so', async () => {
    const huge = anItem('KSI-BIG-01', { weakness_description: 'y'.repeat(40_000) });
    const sheet = sheetOf(await readBack(await new ExceljsPoamWorkbook().render([huge], INFO)), 'Open POA&M Items');
    const value = sheet.getRow(6).getCell(POAM_TEMPLATE_COLUMNS.indexOf('Weakness Description') + 1).value;
    expect(typeof value === 'string' && [value.length, value.endsWith('…[truncated]')]).toEqual([32_767, true]);
  });

  it('renders a realistic 163-item POA&M that reads back whole', async () => {
    const many = Array.from({ length: 163 }, (_, i) => {
      const ksi = `KSI-GEN-${String(i).padStart(3, '0')}`;
      return i % 5 === 0 ? anItem(ksi, { status: 'Closed', completion_date: '2025-02-20', last_status: 'PASS' }) : anItem(ksi, { overdue: i % 7 === 0 });
    });
    const back = await readBack(await new ExceljsPoamWorkbook().render(many, INFO));
    expect(back.worksheets.map((s) => s.rowCount - 5)).toEqual([130, 33]);
  });
});

describe('ExceljsPoamWorkbook.csv', () => {
  const csv = new ExceljsPoamWorkbook().csv(ITEMS);
  const lines = csv.split('\r\n');

  it('ends every record with CRLF and starts with the template headers plus Status', () => {
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(lines[0]).toBe(`${POAM_TEMPLATE_COLUMNS.join(',')},Status`);
  });

  it('lists the open items, then the closed ones, each in poam_id order, with dates as YYYY-MM-DD', () => {
    const records = csv.split(/\r\n(?=POAM-)/).slice(1);
    expect(records.map((r) => r.split(',')[0])).toEqual(['POAM-KSI-CNA-01', 'POAM-KSI-IAM-01', 'POAM-KSI-SVC-01', 'POAM-KSI-MLA-01', 'POAM-KSI-PIY-01']);
    expect(records[3].trimEnd().endsWith(',Closed')).toBe(true);
    expect(records[3]).toContain(',2025-02-20,No,');
    expect(records[0]).toContain(
      ',"1. Remediation plan agreed with iam-team (due 2025-02-24)\n2. KSI-CNA-01 passes a new assessment (due 2025-04-10)",,2025-02-02,No,',
    );
  });

  it('quotes fields with quotes, commas and newlines, and keeps formula-like text from running in Excel', () => {
    expect(csv).toContain(',"Line one\n""quoted"" & <tagged>\n=HYPERLINK(""http://evil.example"",""click"")",');
    const formula = new ExceljsPoamWorkbook().csv([
      anItem('KSI-X-01', { weakness_description: '=1+2', weakness_name: '@SUM(A1)', remediation_plan: 'a "b", c' }),
    ]);
    expect(formula).toContain(",'@SUM(A1),'=1+2,");
    expect(formula).toContain(',"a ""b"", c",');
  });

  it('writes only the header line when there are no items', () => {
    expect(new ExceljsPoamWorkbook().csv([])).toBe(`${POAM_TEMPLATE_COLUMNS.join(',')},Status\r\n`);
  });
});
