import { BaseCommand } from '../../base-command';
import { Args, Flags } from '@oclif/core';
import { EvaluateVulnerability, type EvaluateVulnerabilityResult } from '../../../../application/vulnerabilities/evaluate-vulnerability';
import { UsageError } from '../../../../domain/errors';
import { parseNRating } from '../../../../domain/vulnerabilities/evaluation-policy';
import { parseNow } from '../../flags';
import { parseProfileFlags, profileFlags } from '../../fedramp-flags';
import { helpText } from '../../help-text';

const yesNo = (flag: string, value: string | undefined): boolean | undefined => {
  if (value === undefined) return undefined;
  if (/^(yes|y|true)$/i.test(value)) return true;
  if (/^(no|n|false)$/i.test(value)) return false;
  throw new UsageError('bad-flag-value', `--${flag} ${value}: write yes or no`);
};
const rating = (flag: string, value: string | undefined) =>
  value === undefined
    ? undefined
    : (parseNRating(value, 0) ?? refuse(`--${flag} ${value}: not an N-rating; write 0 to 5 or N0 to N5 (N0 where the CR26 release in use offers it)`));
function refuse(message: string): never {
  throw new UsageError('bad-flag-value', message);
}

export default class VulnEvaluate extends BaseCommand {
  static summary =
    "Record a person's evaluation of a vulnerability group in the run store's journal: IRV, LEV, N-rating, false positive, mitigation, next reduction, acceptance.";
  static description = helpText(__filename);
  static examples = [
    '<%= config.bin %> <%= command.id %> CVE-2024-3094 --irv yes --lev yes --n 4 --reason "public API image; exploit in the wild"',
    '<%= config.bin %> <%= command.id %> VG-1f2e3d4c5b6a7980 --mitigated partial --n 3 --next-reduction-at 2027-01-15 --next-reduction-n 2 --reason "WAF rule blocks the vector"',
    '<%= config.bin %> <%= command.id %> CVE-2023-4863 --accept --reason "no vendor fix; isolated network" --by ciso@example.com',
  ];
  static enableJsonFlag = true;
  static args = { group: Args.string({ required: true, description: 'Tracking id (VG-…) or finding id (CVE, plugin or rule id) of the group' }) };
  static flags = {
    irv: Flags.string({ summary: 'Internet-reachable (VER-EVA-EIR).', helpValue: 'yes|no' }),
    lev: Flags.string({ summary: 'Likely exploitable (VER-EVA-ELX).', helpValue: 'yes|no' }),
    n: Flags.string({ summary: 'Potential Agency Impact N-rating (VER-EVA-EPA).', helpValue: '0-5|N0-N5' }),
    reason: Flags.string({ summary: 'Why: kept with the evaluation (the acceptance rationale with --accept).', required: true, helpValue: '<text>' }),
    by: Flags.string({ summary: 'Who evaluated (default: $USER).', helpValue: '<name>' }),
    'false-positive': Flags.boolean({ summary: 'It is a false positive (VER-EVA-EFP).' }),
    mitigated: Flags.string({ summary: 'A mitigation applied now.', options: ['partial', 'full'] }),
    'next-reduction-at': Flags.string({ summary: 'When the next N-rating reduction is projected.', helpValue: '<time>' }),
    'next-reduction-n': Flags.string({ summary: 'The N-rating it is projected to reach.', helpValue: '0-5|N0-N5' }),
    accept: Flags.boolean({ summary: 'Accept it: it is not, or will not be, fully mitigated or remediated within 192 days (VER-TFR-MAV).' }),
    class: profileFlags.class,
    now: { ...profileFlags.now, summary: 'Record the evaluation at this time instead of now.' },
  };

  async run(): Promise<EvaluateVulnerabilityResult> {
    const { args, flags } = await this.parse(VulnEvaluate);
    const at = parseNow(flags['next-reduction-at'], '--next-reduction-at');
    const target = rating('next-reduction-n', flags['next-reduction-n']);
    if ((at === undefined) !== (target === undefined)) refuse('--next-reduction-at and --next-reduction-n go together: give both');
    const r = await this.resolve(EvaluateVulnerability).execute({
      group: args.group,
      // --by as given (an empty one is refused); else the login name, when the environment has a non-blank one.
      by: flags.by ?? [process.env.USER, process.env.USERNAME].find((name) => name !== undefined && name.trim() !== '') ?? 'unknown',
      reason: flags.reason,
      ...(yesNo('irv', flags.irv) === undefined ? {} : { irv: yesNo('irv', flags.irv) }),
      ...(yesNo('lev', flags.lev) === undefined ? {} : { lev: yesNo('lev', flags.lev) }),
      ...(flags.n === undefined ? {} : { n: rating('n', flags.n) }),
      falsePositive: flags['false-positive'],
      ...(flags.mitigated === undefined ? {} : { mitigated: flags.mitigated as 'partial' | 'full' }),
      ...(at !== undefined && target !== undefined ? { nextReduction: { at, n: target } } : {}),
      accept: flags.accept,
      ...parseProfileFlags(flags),
    });
    const v = r.vulnerability;
    this.log(`Recorded evaluation ${r.journal_seq} of ${r.id} (${r.finding_id}) by ${r.evaluation.by} at ${r.evaluation.at}`);
    this.log(
      `State: ${v.state}${v.current_n === undefined ? '' : `, N${v.current_n}`}${v.irv === undefined ? '' : `, ${v.irv ? 'internet-reachable' : 'not internet-reachable'}`}${v.lev === undefined ? '' : `, ${v.lev ? 'likely exploitable' : 'not likely exploitable'}`}`,
    );
    this.log(v.overdue.is ? `Overdue: ${v.overdue.reasons.join('; ')}` : v.next_due === undefined ? `Nothing due: ${v.state}` : `Due: ${v.next_due}`);
    return r;
  }
}
