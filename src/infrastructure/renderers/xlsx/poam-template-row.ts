import { normalizeControlId } from '../../../domain/catalog/ksi-catalog';
import type { TrackedPoamItem } from '../../../domain/conmon/run-record';

/**
 * The columns of the FedRAMP POA&M Template (Rev 5), in its order and with its header texts. ISSOs paste rows
 * into that template, so the order and the texts are the template's, not ours.
 */
export const POAM_TEMPLATE_COLUMNS = [
  'POAM ID',
  'Controls',
  'Weakness Name',
  'Weakness Description',
  'Weakness Detector Source',
  'Weakness Source Identifier',
  'Asset Identifier',
  'Point of Contact',
  'Resources Required',
  'Overall Remediation Plan',
  'Original Detection Date',
  'Scheduled Completion Date',
  'Planned Milestones',
  'Milestone Changes',
  'Status Date',
  'Vendor Dependency',
  'Last Vendor Check-in Date',
  'Vendor Dependent Product Name',
  'Original Risk Rating',
  'Adjusted Risk Rating',
  'Risk Adjustment',
  'False Positive',
  'Operational Requirement',
  'Deviation Rationale',
  'Supporting Documents',
  'Comments',
  'Auto-Approve',
  'Binding Operational Directive 22-01 tracking',
  'Binding Operational Directive 22-01 Due Date',
  'CVE',
  'Service Name',
] as const;

export type PoamTemplateColumn = (typeof POAM_TEMPLATE_COLUMNS)[number];

/** A template cell: text ('' when the template cell stays empty), or a YYYY-MM-DD day a spreadsheet should hold as a date. */
export type PoamTemplateCell = string | { date: string };

/** `ac-2` → `AC-2`, `ac-2.1` → `AC-2(1)`: the template writes controls as NIST SP 800-53 prints them. Other text is kept. */
export function fedrampControlId(controlId: string): string {
  const id = normalizeControlId(controlId);
  if (id === undefined) return controlId;
  const [base, enhancement] = id.toUpperCase().split('.');
  return enhancement === undefined ? base : `${base}(${enhancement})`;
}

/** The template row of an item, one cell per POAM_TEMPLATE_COLUMNS entry, shared by the workbook and any flat export. */
export function poamTemplateRow(item: TrackedPoamItem): PoamTemplateCell[] {
  // A closed item's status date is the day it closed; status_date is the same day unless completion_date is missing.
  const closedOn = item.completion_date ?? item.status_date;
  const closed = item.status === 'Closed';
  // A record, not an array, so the compiler checks that every column has a value and the order stays the constant's.
  const cells: Record<PoamTemplateColumn, PoamTemplateCell> = {
    'POAM ID': item.poam_id,
    Controls: item.controls.map(fedrampControlId).join(', '),
    'Weakness Name': item.weakness_name,
    'Weakness Description': item.weakness_description,
    'Weakness Detector Source': item.weakness_source,
    'Weakness Source Identifier': item.ksi_id,
    'Asset Identifier': item.asset_identifier,
    'Point of Contact': item.point_of_contact,
    'Resources Required': '',
    'Overall Remediation Plan': item.remediation_plan,
    'Original Detection Date': { date: item.original_detection_date },
    'Scheduled Completion Date': { date: item.scheduled_completion_date },
    'Planned Milestones': item.milestones.map((m, i) => `${i + 1}. ${m.description} (due ${m.due})`).join('\n'),
    'Milestone Changes': '',
    'Status Date': { date: closed ? closedOn : item.status_date },
    'Vendor Dependency': 'No',
    'Last Vendor Check-in Date': '',
    'Vendor Dependent Product Name': '',
    'Original Risk Rating': item.risk_rating,
    // No deviation request exists for these items, so the adjusted rating is the original one.
    'Adjusted Risk Rating': item.risk_rating,
    'Risk Adjustment': 'No',
    'False Positive': 'No',
    'Operational Requirement': 'No',
    'Deviation Rationale': '',
    'Supporting Documents': '',
    Comments: closed
      ? `Closed ${closedOn}: ${item.ksi_id} passed a new assessment`
      : item.overdue
        ? `Overdue since ${item.scheduled_completion_date}`
        : `Last reported ${item.last_status} by run ${item.last_run.slice(0, 12)}`,
    'Auto-Approve': 'No',
    'Binding Operational Directive 22-01 tracking': '',
    'Binding Operational Directive 22-01 Due Date': '',
    CVE: '',
    'Service Name': '',
  };
  return POAM_TEMPLATE_COLUMNS.map((column) => cells[column]);
}
