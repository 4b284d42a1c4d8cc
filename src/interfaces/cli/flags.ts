import { Args, Flags } from '@oclif/core';
import { FIRST_DAY, isCalendarDay, LAST_DAY, withinSupportedDays } from '../../domain/encoding/iso-time';
import { UsageError } from '../../domain/errors';

/** Shared arguments and flags; commands take them from here so each means the same everywhere. */
export const reportArg = Args.string({ required: true, description: 'Normalized report: a JSON array of KSI results or {"results": [...]}' });

export const officialCatalogFlag = Flags.string({
  summary: 'FedRAMP FRMR release whose official KSI ids (KSI-IAM-MFA, KSI-IAM-01) the report may use.',
  helpValue: '<frmr.json>',
});

export const outFileFlag = (summary: string, required = false) =>
  required ? Flags.string({ summary, helpValue: '<file>', required: true }) : Flags.string({ summary, helpValue: '<file>' });

/** Input of the OSCAL commands: a report or a bundle. */
export const runInputArg = Args.string({ required: true, description: 'Normalized report, evidence-bundle.json, or auditor bundle directory' });

export const schemasFlag = Flags.string({
  summary:
    "Directory of NIST's OSCAL release schemas (1.1.3/, 1.2.1/); else SVC_OSCAL_SCHEMAS or oscal_schemas in svc.config.json, else NIST's release schemas svc carries (docs/schemas.md).",
  helpValue: '<dir>',
});

export const baselineFlag = (summary: string) => Flags.string({ summary, options: ['low', 'moderate', 'high'] });

export const declaredVersionFlag = Flags.string({
  summary: 'oscal-version the document declares; it is valid against both releases.',
  options: ['1.1.3', '1.2.1'],
  default: '1.1.3',
});

export const nowFlag = Flags.string({ summary: 'Measure ages at this time instead of now (ISO-8601 with a zone).', helpValue: '<time>' });

const TIME = /^(\d{4}-\d{2}-\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

/**
 * `--now` (or another time flag) as a Date. A value that is not an ISO-8601 time with a zone (or a date, its midnight
 * UTC), a day that is not on the calendar (2027-02-29), or a time outside the days svc counts in (FIRST_DAY through
 * LAST_DAY) is a usage error (exit 2) naming the flag.
 */
export function parseNow(value: string | undefined, flag = '--now'): Date | undefined {
  if (value === undefined) return undefined;
  const match = TIME.exec(value);
  const time = match === null ? NaN : Date.parse(value);
  if (Number.isNaN(time))
    throw new UsageError('bad-time', `${flag} ${value}: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21`);
  if (!isCalendarDay(match![1])) throw notOnCalendar(flag, value);
  if (!withinSupportedDays(time)) throw outsideDays(flag, value);
  return new Date(time);
}

/** A `YYYY-MM-DD` flag (`--from`, `--to` of an OCR period): a usage error (exit 2) for anything else, as parseNow. */
export function parseDay(value: string, flag: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new UsageError('bad-time', `${flag} ${value}: expected a date such as 2026-11-30`);
  if (!isCalendarDay(value)) throw notOnCalendar(flag, value);
  if (!withinSupportedDays(Date.parse(`${value}T00:00:00Z`))) throw outsideDays(flag, value);
  return value;
}

function notOnCalendar(flag: string, value: string): UsageError {
  return new UsageError('bad-time', `${flag} ${value}: not a day of the calendar; write a date such as 2026-11-21`);
}

function outsideDays(flag: string, value: string): UsageError {
  return new UsageError('bad-time', `${flag} ${value}: outside the days svc counts in; write a date from ${FIRST_DAY} through ${LAST_DAY} (UTC)`);
}
