import { Args, Flags } from '@oclif/core';

/** Shared arguments and flags; commands take them from here so each means the same everywhere. */
export const reportArg = Args.string({ required: true, description: 'Normalized report: a JSON array of KSI results or {"results": [...]}' });

export const officialCatalogFlag = Flags.string({
  summary: 'FedRAMP FRMR release whose official KSI ids (KSI-IAM-MFA, KSI-IAM-01) the report may use.',
  helpValue: '<frmr.json>',
});

export const outFileFlag = (summary: string, required = false) =>
  required ? Flags.string({ summary, helpValue: '<file>', required: true }) : Flags.string({ summary, helpValue: '<file>' });
