import type { InjectionToken } from 'tsyringe';
import type { TrackedPoamItem } from '../domain/conmon/run-record';

export interface PoamWorkbookInfo {
  /** System or tenant the items belong to (the template's "CSP" / "System Name" cells). */
  system: string;
  /** YYYY-MM-DD of the export. */
  date: string;
  tool: { name: string; version: string };
}

/** The FedRAMP POA&M template as an .xlsx workbook: an "Open POA&M Items" and a "Closed POA&M Items" sheet. */
export interface PoamWorkbook {
  render(items: readonly TrackedPoamItem[], info: PoamWorkbookInfo): Promise<Uint8Array>;
  /** The same rows as RFC 4180 CSV (CRLF, a header line of the template's columns, a Status column last). */
  csv(items: readonly TrackedPoamItem[]): string;
}

export const POAM_WORKBOOK: InjectionToken<PoamWorkbook> = Symbol('PoamWorkbook');
