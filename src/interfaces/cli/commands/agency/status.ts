import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { AgencyStatus, type AgencyStatusResult } from '../../../../application/agency/agency-status';
import type { ProviderStatus } from '../../../../domain/agency/provider-status';
import { parseNow } from '../../flags';
import { profileFlags } from '../../fedramp-flags';

export default class AgencyStatusCommand extends BaseCommand {
  static summary = 'One row per provider: what changed, what is due or overdue, what the agency must act on; exit 1 when something is open.';
  static description =
    "From each provider's newest pull, the agency's reviews and the rules data: class, type, FedRAMP ID, last pull, last OCR and whether it is reviewed, next OCR due, open and overdue vulnerabilities by N-rating (recomputed from the VDR with the class's PAIN timeframes, never the provider's own overdue), accepted vulnerabilities, open incidents affecting the agency and their next report due, SCNs, KSIs whose status changed since the last review, documents invalid or stale, and what verification found. Exit 1 when any provider has something to act on, for a cron job or a CI gate.";
  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> acme --json',
    '<%= config.bin %> <%= command.id %> --now 2027-01-15',
  ];
  static enableJsonFlag = true;
  static strict = false;
  static args = { provider: Args.string({ description: 'Providers to show (default: every one configured)' }) };
  static flags = { now: { ...profileFlags.now, summary: 'Judge what is due and overdue at this time instead of now (ISO-8601 with a zone, or a date).' } };

  async run(): Promise<AgencyStatusResult> {
    const { argv, flags } = await this.parse(AgencyStatusCommand);
    const now = parseNow(flags.now, '--now');
    const r = await this.resolve(AgencyStatus).execute({ names: argv as string[], ...(now === undefined ? {} : { now }) });
    this.log(
      `Agency status at ${r.now} (${r.rules}): ${r.providers.length} provider${r.providers.length === 1 ? '' : 's'}, ${r.needingAction} with something to act on`,
    );
    for (const row of r.providers) this.print(statusBlock(row).join('\n'));
    this.exitWithFindings(r.needingAction > 0);
    return r;
  }
}

/** One provider's lines of `svc agency status`. */
export function statusBlock(row: ProviderStatus): string[] {
  const counts = (c: Record<string, number>) =>
    Object.entries(c)
      .map(([n, k]) => `${n} ${k}`)
      .join(', ') || 'none';
  const head = [row.fedrampId, row.class === undefined ? 'class unknown' : `Class ${row.class}`, row.type].filter((x) => x !== undefined).join(', ');
  const pulled = row.lastPull === undefined ? 'never pulled' : `pulled ${row.lastPull.finished} (pull ${row.lastPull.seq}, ${row.lastPull.outcome})`;
  const ocr =
    row.lastOcr === undefined ? 'OCR: none pulled' : `OCR: period ending ${row.lastOcr.periodEnd}, ${row.lastOcr.reviewed ? 'reviewed' : 'not reviewed'}`;
  const v = row.vulnerabilities;
  return [
    '',
    `${row.provider} (${head}): ${pulled}`,
    `  ${ocr}; next OCR due ${row.nextOcrDue ?? 'not stated'}`,
    `  Vulnerabilities: ${v === undefined ? (row.class === undefined ? 'not judged (no class: svc agency add --class)' : 'no VDR pulled') : `open ${counts(v.open)}; overdue ${counts(v.overdue)}; accepted ${v.accepted}`}`,
    `  Incidents open: ${row.incidents.length} · SCNs: ${row.scns.count}${row.scns.latestPlannedCompletion === undefined ? '' : ` (latest planned completion ${row.scns.latestPlannedCompletion})`} · KSI changes since last review: ${row.ksiChanges.length} · invalid: ${row.documents.invalid.join(', ') || 'none'} · stale: ${row.documents.stale.join(', ') || 'none'}`,
    ...(row.package === undefined
      ? []
      : [
          `  Package: ${row.package.verified ? `verified, ${row.package.files} files signed by ${row.package.keyid ?? 'an unnamed key'}` : `not verified (${row.package.error ?? 'not checked'})`} at ${row.package.url}`,
        ]),
    ...(row.actions.length === 0 ? ['  Nothing to act on'] : ['  Act on:', ...row.actions.map((a) => `  - ${a}`)]),
    ...(row.notes.length === 0 ? [] : ['  Notes:', ...row.notes.map((n) => `  - ${n}`)]),
  ];
}
