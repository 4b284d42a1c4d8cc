import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { WriteScn, type WriteScnResult } from '../../../../application/fedramp/write-scn';
import { noticeCounting } from '../../../../domain/fedramp/scn';
import { outFileFlag, parseNow } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { plural } from '../../../../domain/encoding/plural';
import { helpText } from '../../help-text';

const day = (summary: string) => Flags.string({ summary, helpValue: '<date>' });
const text = (summary: string) => Flags.string({ summary, helpValue: '<text>' });

export default class FedrampScn extends BaseCommand {
  static summary = "Write a Significant Change Notification (SCN) in FedRAMP's schema with its notice dates in business days, and record it.";
  static reads = 'its flags and the fedramp profile of svc.config.json; --drift names a drift report';
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> --type transformative --summary "Move the workloads to Kubernetes" --start 2027-01-04 --finish 2027-01-14 --out scn.json',
    '<%= config.bin %> ir drift-detect last-week.json today.json --json > drift.json && <%= config.bin %> <%= command.id %> --type adaptive --summary "New MFA provider" --finish 2026-12-18 --drift drift.json',
    '<%= config.bin %> <%= command.id %> --type transformative --summary "Datacenter migration" --verified 2027-02-09 --draft --json',
  ];
  static enableJsonFlag = true;
  static flags = {
    type: Flags.string({
      summary: 'The significant change type (SCN-CSO-EVA); routine recurring changes are not notified.',
      helpValue: 'adaptive|transformative',
      required: true,
    }),
    summary: Flags.string({ summary: 'Short description of the change (changeDescription).', helpValue: '<text>', required: true }),
    start: day('First day changes are made to the system (plannedStart); dates the notices before it.'),
    finish: day('Day the change is finished (plannedCompletion); dates the notices after finishing.'),
    verified: day('Day the verification, assessment and/or validation of a transformative change completes; dates SCN-TRF-NAV.'),
    drift: Flags.string({
      summary: 'The --json output of svc ir drift-detect or svc substrate drift: the KSIs and controls the change touches.',
      helpValue: '<report.json>',
    }),
    explanation: text('Why the change has this type (changeTypeExplanation).'),
    reason: text('Reason for the change (reason).'),
    'customer-impact': text('Customer impact, including changes to services and customer configuration responsibilities (customerImpact).'),
    'impact-analysis': text('The business or security impact analysis, or its URI (impactAnalysis).'),
    assessor: text('Name of the assessor involved, if any (assessorName).'),
    vulnerability: text('The vulnerability driving the change, if any (relatedVulnerability).'),
    out: outFileFlag('File to write the SCN to (default scn-<date of --now>.json); the Markdown twin goes beside it.'),
    draft: Flags.boolean({ summary: 'Write the SCN without recording it in the run store.' }),
    schemas: Flags.string({
      summary: "Directory of FedRAMP's CR26 schemas; else SVC_FEDRAMP_SCHEMAS or fedramp_schemas in svc.config.json, else the newest set svc carries.",
      helpValue: '<dir>',
    }),
    class: profileFlags.class,
    now: {
      ...profileFlags.now,
      summary: 'Record the SCN at this time instead of now, and judge which notice days have passed (ISO-8601 with a zone, or a date).',
    },
  };

  async run(): Promise<WriteScnResult> {
    const { flags } = await this.parse(FedrampScn);
    for (const flag of ['start', 'finish', 'verified'] as const) parseNow(flags[flag], `--${flag}`);
    const statements = {
      explanation: flags.explanation,
      reason: flags.reason,
      customerImpact: flags['customer-impact'],
      impactAnalysis: flags['impact-analysis'],
      assessor: flags.assessor,
      vulnerability: flags.vulnerability,
    };
    const r = await this.resolve(WriteScn).execute({
      type: flags.type,
      summary: flags.summary,
      dates: { start: flags.start, finish: flags.finish, verified: flags.verified },
      statements: Object.fromEntries(Object.entries(statements).filter(([, v]) => v !== undefined)),
      ...(flags.drift === undefined ? {} : { drift: flags.drift }),
      ...(flags.out === undefined ? {} : { out: flags.out }),
      draft: flags.draft,
      ...(flags.schemas === undefined ? {} : { schemas: flags.schemas }),
      ...parseProfileFlags({ class: flags.class, now: flags.now }),
    });
    this.log(`SCN (${r.type}) written to ${r.out} (${r.sha256})`);
    this.log(`Markdown twin written to ${r.markdown}`);
    for (const n of r.notices) this.log(`- ${n.notice} (${n.rule}): by ${n.date} (${noticeCounting(n)})${r.passed.includes(n.rule) ? ', already passed' : ''}`);
    for (const n of r.undated) this.log(`Not dated: ${n.notice} (${n.rule}): give ${n.flag}`);
    if (r.drift !== undefined) {
      const touched =
        r.drift.kind === 'substrate drift'
          ? 'no KSIs or controls (a substrate report names configuration resources)'
          : `KSIs ${r.ksis.join(', ') || 'none'}; ${plural(r.controls.length, 'control')}`;
      this.log(`Drift: ${r.drift.file} (svc ${r.drift.kind}, ${plural(r.drift.changes, 'change')}): ${touched}`);
    }
    if (r.validated.note !== undefined) this.log(`Note: ${r.out} was not validated against FedRAMP's SCN schema: ${r.validated.note}`);
    this.log(r.recorded === undefined ? 'Draft: not recorded' : `Recorded as journal entry ${r.recorded.seq}`);
    return r;
  }
}
