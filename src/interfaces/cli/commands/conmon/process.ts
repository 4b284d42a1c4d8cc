import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { ProcessRun, type ProcessRunResult } from '../../../../application/conmon/process-run';
import { UnavailableError } from '../../../../domain/errors';
import { nowFlag, parseNow } from '../../flags';
import { digest, digested } from '../../json-output';
import { plural } from '../../../../domain/encoding/plural';
import { helpText } from '../../help-text';

export default class ConmonProcess extends BaseCommand {
  static summary = 'Record a run in the run store, move the POA&M lifecycle on (opened, still open, closed, overdue) and send SIEM events.';
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> fixtures/sample-baseline.json --sink ndjson:out/events.ndjson',
    'SVC_SINK_TOKEN=... <%= config.bin %> <%= command.id %> today.json --sink https://splunk.example:8088/services/collector/event --sink syslog+tcp://siem.example:6514',
    '<%= config.bin %> <%= command.id %> today.json --now 2026-12-01T06:00:00Z --json',
  ];
  static enableJsonFlag = true;
  static strict = false;
  static args = {
    input: Args.string({
      required: true,
      description:
        'Normalized reports, evidence-bundle.json files or auditor bundle directories (one or more: each the latest part of its source, all recorded in one store transaction, or none)',
    }),
  };
  static flags = {
    sink: Flags.string({ summary: 'Send events here (repeatable); default: conmon.sinks in svc.config.json.', helpValue: '<spec>', multiple: true }),
    key: Flags.string({ summary: "PEM private key that signs the run's SAR (EC P-256, Ed25519 or RSA ≥ 2048 bits).", helpValue: '<pem>' }),
    source: Flags.string({
      summary: 'Name of the source the report is the latest part of (default: its scanner and tenant); one input only.',
      helpValue: '<name>',
    }),
    now: {
      ...nowFlag,
      summary: 'Record the run at this time instead of now (ISO-8601 with a zone, or a date); also its as-of time when the report has no generated_at.',
    },
  };

  async run(): Promise<ProcessRunResult | ProcessRunResult[]> {
    const { argv, flags } = await this.parse(ConmonProcess);
    const inputs = argv as string[];
    const now = parseNow(flags.now);
    // In the order given, in one store transaction: all are recorded, or none.
    const results = await this.resolve(ProcessRun).executeAll({
      inputs,
      sinks: flags.sink,
      key: flags.key,
      source: flags.source,
      ...(now === undefined ? {} : { now }),
    });
    const created = results.find((r) => r.key?.kind === 'development' && r.key.created)?.key;
    if (created !== undefined) {
      this.warning(
        `no signing key given (--key or SVC_SIGNING_KEY): created the development key ${created.path}, which signs the SAR of each recorded run; use your own key for a real assessment`,
      );
    }
    for (const [k, result] of results.entries()) this.show(inputs[k], result);
    const undelivered = results.filter((r) => r.deliveries.some((d) => d.error !== undefined));
    if (undelivered.length > 0) {
      const sinks = [...new Set(undelivered.flatMap((r) => r.deliveries.filter((d) => d.error !== undefined).map((d) => d.sink)))].join(', ');
      const runs = undelivered.map((r) => r.run.seq);
      const events = undelivered.reduce((n, r) => n + r.events, 0);
      throw new UnavailableError(
        'sink-failed',
        `${sinks}: could not deliver the ${plural(events, 'event')} of ${runs.length === 1 ? 'run' : 'runs'} ${runs.join(', ')}; the ${runs.length === 1 ? 'run is' : 'runs are'} recorded in ${results[0].store}. Fix the sink and run the same command again to send them`,
      );
    }
    const json = results.map(({ run, ...rest }) => ({ ...rest, run: { ...run, input: digested(run.input), merkle_root: digest(run.merkle_root) } }));
    return json.length === 1 ? json[0] : json;
  }

  private show(input: string, result: ProcessRunResult): void {
    if (result.lostDetections) {
      this.warning(
        `${input}: its source ${result.source} is an svc adapter's, which always writes vulnerabilities[], and it has none: something on the way dropped the detections (a bundle of svc before 0.6?); record the adapter's report itself (docs/conmon.md, "Sources")`,
      );
    }
    const { run, drift } = result;
    this.print(
      [
        `Recording ${input} in ${result.store} ...`,
        `${result.recorded ? 'Recorded' : 'Already recorded'} run ${run.seq}: ${run.id.slice(0, 12)} (as of ${run.as_of})`,
        `Source: ${result.source}`,
        `KSIs: ${run.counts.results} (PASS ${run.counts.pass}, WARN ${run.counts.warn}, FAIL ${run.counts.fail})`,
        `POA&M: ${run.poam.open} open (${run.poam.opened} opened, ${run.poam.closed_now} closed, ${run.poam.overdue} overdue)`,
        `Drift: ${plural(drift.P1 + drift.P2 + drift.P3 + drift.P4, 'finding')} (P1 ${drift.P1}, P2 ${drift.P2}, P3 ${drift.P3}, P4 ${drift.P4})`,
        `Events: ${result.events}`,
        ...result.deliveries.map((d) =>
          d.error === undefined ? `- ${d.sink}: delivered ${d.delivered}` : `- ${d.sink}: failed after ${plural(d.attempts, 'attempt')}: ${d.error}`,
        ),
        ...(result.pruned === undefined
          ? []
          : [
              `Pruned: ${plural(result.pruned.runs, 'run')} as of before ${result.pruned.before} (conmon.retention.keep_days ${result.pruned.keep_days}, journal entry ${result.pruned.journal_seq}): ${plural(result.pruned.documents, 'document')}, ${result.pruned.bytes} bytes removed; their summaries, chain links, POA&M state, events and KSI counts are kept`,
            ]),
      ].join('\n'),
    );
  }
}
