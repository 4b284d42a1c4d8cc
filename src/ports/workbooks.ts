import type { InjectionToken } from 'tsyringe';
import type { CrmModel } from '../domain/documents/crm';
import type { InventoryModel } from '../domain/documents/inventory';

/**
 * The .xlsx workbooks of `svc generate` beyond the POA&M: the same input gives the same bytes (zip entries are
 * stamped with the model's date, not the time of writing).
 */
export interface Workbooks {
  /** Customer responsibility matrix: a "CRM" sheet (one row per control) and a "Summary" sheet. */
  crm(model: CrmModel): Promise<Uint8Array>;
  /** FedRAMP Integrated Inventory Workbook: an "Inventory" sheet in the template's columns and a "Summary" sheet. */
  inventory(model: InventoryModel): Promise<Uint8Array>;
}

export const WORKBOOKS: InjectionToken<Workbooks> = Symbol('Workbooks');
