import { inject, injectable } from 'tsyringe';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import { evidenceCadence } from '../../domain/fedramp/evidence-cadence';
import { requireProfileKeys, type FedrampType } from '../../domain/fedramp/profile';
import { assessCr26Freshness, cr26FreshnessText, hasStaleCr26Evidence, type Cr26FreshnessReport } from '../../domain/freshness/cr26-freshness';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { RunLoader } from '../shared/run-loader';
import { profileWith } from '../fedramp/fedramp-documents';

export interface CheckCr26FreshnessInput {
  input: string;
  /** `--class`, over the profile's `class`. */
  class?: Cr26Class;
  /** `--type`, over the profile's `type`. */
  type?: FedrampType;
  /** The time to measure ages at (default: the clock). */
  now?: Date;
}

export interface CheckCr26FreshnessResult {
  input: string;
  report: Cr26FreshnessReport;
  /** Some evidence is stale or undated (under a MUST or a SHOULD): `svc ir freshness` exits 1. */
  stale: boolean;
  text: string;
}

/**
 * Age of each result's evidence against the CR26 cadence of the profile's type and class (`svc ir freshness --class`,
 * DESIGN §12.1): machine-based evidence by VDR-TFR-MVX (20x) or VDR-TFR-MVF (Rev5), non-machine by VDR-TFR-NMV.
 */
@injectable()
export class CheckCr26Freshness {
  constructor(
    private readonly runs: RunLoader,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(FEDRAMP_RULES_SOURCE) private readonly source: FedrampRulesSource,
    @inject(FEDRAMP_PROFILE) private readonly settings: FedrampProfileSettings,
  ) {}

  async execute(input: CheckCr26FreshnessInput): Promise<CheckCr26FreshnessResult> {
    const profile = requireProfileKeys(profileWith(this.settings, input), ['type', 'class'], 'svc ir freshness --class', { type: '--type', class: '--class' });
    const rules = this.source.rules();
    const machine = evidenceCadence(rules, profile.type, profile.class, 'machine');
    const nonMachine = evidenceCadence(rules, profile.type, profile.class, 'non-machine');
    const run = await this.runs.load({ input: input.input });
    const names = new Map(rules.ksis.map((k) => [k.id, k.name]));
    const name = (id: string) => names.get(id) ?? names.get(rules.aliases[id] ?? '');
    const report = assessCr26Freshness(
      run.results.map((r) => r.item),
      run.context.generatedAt,
      input.now ?? this.clock.now(),
      { version: rules.info.version, type: profile.type, class: profile.class, machine, nonMachine },
      name,
    );
    return { input: input.input, report, stale: hasStaleCr26Evidence(report), text: cr26FreshnessText(report, input.input) };
  }
}
