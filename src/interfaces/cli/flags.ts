import { Args, Flags } from '@oclif/core';
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
  summary: "Directory of NIST's OSCAL release schemas (1.1.3/, 1.2.1/); else SVC_OSCAL_SCHEMAS or oscal_schemas in svc.config.json.",
  helpValue: '<dir>',
});

export const baselineFlag = (summary: string) => Flags.string({ summary, options: ['low', 'moderate', 'high'] });

export const declaredVersionFlag = Flags.string({
  summary: 'oscal-version the document declares; it is valid against both releases.',
  options: ['1.1.3', '1.2.1'],
  default: '1.1.3',
});

export const nowFlag = Flags.string({ summary: 'Measure ages at this time instead of now (ISO-8601 with a zone).', helpValue: '<time>' });

/** `--now` (or another time flag) as a Date; a value that is not an ISO-8601 time with a zone is a usage error (exit 2). */
export function parseNow(value: string | undefined, flag = '--now'): Date | undefined {
  if (value === undefined) return undefined;
  const time = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) throw new UsageError('bad-time', `${flag} ${value}: expected an ISO-8601 time such as 2026-11-21T09:00:00Z or a date such as 2026-11-21`);
  return new Date(time);
}
