import { BaseCommand } from '../../base-command';
import { Flags } from '@oclif/core';
import { WriteIncidentReport, type WriteIncidentReportResult } from '../../../../application/fedramp/write-incident-report';
import { UsageError } from '../../../../domain/errors';
import { dueBasis, INCIDENT_REPORT_TYPES, timeframeWords, type IncidentReportType } from '../../../../domain/fedramp/incident';
import { parseNRating } from '../../../../domain/vulnerabilities/evaluation-policy';
import { outFileFlag, parseNow } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { digest } from '../../json-output';
import { helpText } from '../../help-text';

export default class FedrampIncident extends BaseCommand {
  static summary =
    'Write a FedRAMP incident report (initial, ongoing or final) from a flagged vulnerability group or from flags, with its due time, and record it.';
  static reads = "the run store's vulnerability groups and journal (--group, --tracking-id) and the report's flags";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> --type initial --group CVE-2026-1000 --out incident.json',
    '<%= config.bin %> <%= command.id %> --type initial --summary "Credential stuffing against the admin portal" --n 4 --occurred-at 2026-12-07T09:30:00Z --agency "Department of Examples" --draft',
    '<%= config.bin %> <%= command.id %> --type final --tracking-id INC-1f2e3d4c5b6a7980 --resolved-at 2026-12-09T17:00:00Z --lesson "rotate the WAF rules weekly" --out incident-final.json --json',
  ];
  static enableJsonFlag = true;
  static flags = {
    type: Flags.string({
      summary: 'Which report: initial (IEC-CSO-IIR), ongoing (IEC-CSO-OIR) or final (IEC-CSO-FIR).',
      options: [...INCIDENT_REPORT_TYPES],
      required: true,
    }),
    group: Flags.string({ summary: 'Vulnerability group the incident is: tracking id (VG-…) or finding id.', helpValue: '<id>' }),
    'tracking-id': Flags.string({
      summary: "The incident's tracking id, the same on all its reports (default: INC- and 16 hex digits from the group, or from --summary and --occurred-at).",
      helpValue: '<id>',
    }),
    summary: Flags.string({
      summary: "Description of the incident (default: from the group; for ongoing and final, the initial report's).",
      helpValue: '<text>',
    }),
    n: Flags.string({ summary: "Potential Agency Impact N-rating (IEC-CSO-EFI; default: the group's, else the last report's).", helpValue: '1-5|N1-N5' }),
    'occurred-at': Flags.string({
      summary: "When the incident started (timeline.startedAt); recorded as when it occurred, by default the group's first detection.",
      helpValue: '<time>',
    }),
    'resolved-at': Flags.string({ summary: 'When the incident was resolved and recovery completed (--type final).', helpValue: '<time>' }),
    agency: Flags.string({
      summary: "Likely affected agency (repeatable; default: fedramp.agencies' names, or the last report's).",
      helpValue: '<name>',
      multiple: true,
    }),
    lesson: Flags.string({ summary: 'A lesson learned (repeatable); the OCR lists them.', helpValue: '<text>', multiple: true }),
    draft: Flags.boolean({ summary: 'Write the report without recording it.' }),
    out: outFileFlag('File to write the report to; the Markdown twin goes beside it. Without it, the report is printed.'),
    schemas: Flags.string({
      summary: "Directory of FedRAMP's CR26 schemas; else SVC_FEDRAMP_SCHEMAS or fedramp_schemas in svc.config.json, else the newest set svc carries.",
      helpValue: '<dir>',
    }),
    class: profileFlags.class,
    now: { ...profileFlags.now, summary: 'Write (and record) the report at this time instead of now.' },
  };

  async run(): Promise<Record<string, unknown>> {
    const { flags } = await this.parse(FedrampIncident);
    const n = flags.n === undefined ? undefined : (parseNRating(flags.n) ?? refuse(`--n ${flags.n}: not an N-rating; write 1 to 5 or N1 to N5`));
    const occurredAt = parseNow(flags['occurred-at'], '--occurred-at');
    const resolvedAt = parseNow(flags['resolved-at'], '--resolved-at');
    // Not `flags` whole: its --type is the report's, not the certification type parseProfileFlags reads.
    const { class: cls, now } = parseProfileFlags({ class: flags.class, now: flags.now });
    const profile = { ...(cls === undefined ? {} : { class: cls }), ...(now === undefined ? {} : { now }) };
    const r = await this.resolve(WriteIncidentReport).execute({
      type: flags.type as IncidentReportType,
      ...(flags.group === undefined ? {} : { group: flags.group }),
      ...(flags['tracking-id'] === undefined ? {} : { trackingId: flags['tracking-id'] }),
      ...(flags.summary === undefined ? {} : { summary: flags.summary }),
      ...(n === undefined ? {} : { n }),
      ...(occurredAt === undefined ? {} : { occurredAt }),
      ...(resolvedAt === undefined ? {} : { resolvedAt }),
      ...(flags.agency === undefined ? {} : { agencies: flags.agency }),
      ...(flags.lesson === undefined ? {} : { lessons: flags.lesson }),
      draft: flags.draft,
      ...(flags.out === undefined ? {} : { out: flags.out }),
      ...(flags.schemas === undefined ? {} : { schemas: flags.schemas }),
      ...profile,
    });
    const lines = incidentLines(r);
    // Printed, the report is stdout; what svc says of it goes to stderr, so the JSON can be piped.
    if (r.written === undefined) {
      this.log(JSON.stringify(r.document, null, 2));
      for (const line of lines) this.logToStderr(line);
    } else for (const line of lines) this.log(line);
    return incidentJson(r);
  }
}

function refuse(message: string): never {
  throw new UsageError('bad-flag-value', message);
}

/** The human lines: the files written, the tracking id, the due time and its basis, the recording. */
function incidentLines(r: WriteIncidentReportResult): string[] {
  return [
    ...(r.written === undefined
      ? []
      : [
          `Incident report (${r.report_type}) written to ${r.written.json.path} (${digest(r.written.json.sha256)})`,
          `Markdown twin written to ${r.written.markdown.path}`,
        ]),
    `Tracking id: ${r.tracking_id}`,
    `Due: ${r.due.at} (${dueBasis(r.due)})`,
    ...(r.due.late ? [`Late: written at ${r.at}, after its due time`] : []),
    'journal_seq' in r.recorded ? `Recorded as journal entry ${r.recorded.journal_seq}` : 'Draft: not recorded',
    ...(r.validation.validated ? [] : [`Note: not validated against FedRAMP's incident report schema: ${r.validation.note}`]),
  ];
}

/** What --json prints (docs/cli.md: snake_case, `sha256:<hex>`); the report itself when it was not written to a file. */
function incidentJson(r: WriteIncidentReportResult): Record<string, unknown> {
  const { from, at, rule, n, timeframe, late, basis } = r.due;
  return {
    report_type: r.report_type,
    rule: r.rule,
    tracking_id: r.tracking_id,
    ...(r.group === undefined ? {} : { group: r.group }),
    due: { at, rule, class: r.due.class, n, timeframe: { ...timeframe, text: timeframeWords(timeframe) }, from, counted_from: basis, late },
    written_at: r.at,
    ...(r.written === undefined
      ? { document: r.document }
      : { out: r.written.json.path, sha256: digest(r.written.json.sha256), twin: r.written.markdown.path }),
    recorded: 'journal_seq' in r.recorded,
    ...('journal_seq' in r.recorded ? { journal_seq: r.recorded.journal_seq } : {}),
    validation: r.validation,
  };
}
