import { injectable } from 'tsyringe';
import type { RunSummary } from '../../domain/conmon/run-record';
import { sourceKey, sourceStaleness, type SourceStaleness } from '../../domain/conmon/run-sources';
import { isoSeconds } from '../../domain/encoding/iso-time';
import type { ApplicabilityProfile } from '../../domain/fedramp/applicability';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import type { EvidenceCadence } from '../../domain/fedramp/evidence-cadence';
import type { FedrampType } from '../../domain/fedramp/profile';
import { judgeReadiness, type ReadinessApart, type ReadinessCounts, type ReadinessItem } from '../../domain/fedramp/readiness';
import { judgeRules } from '../../domain/fedramp/rule-judgments';
import { missingReliedRules, type ReliedRule } from '../../domain/fedramp/relied-rules';
import { freshnessOf } from '../../domain/fedramp/run-facts';
import { applicabilityProfile, Cr26Assessment, judgmentFacts } from './cr26-assessment';
import { VulnerabilityRegister, vulnerabilityFacts } from '../vulnerabilities/vulnerability-register';
import { OngoingJournal } from './ongoing-journal';
import { SCN_KIND } from '../../domain/fedramp/ongoing-records';
import { scnWarnings, withScnWarnings } from '../../domain/fedramp/scn';

export interface CheckFedrampReadinessInput {
  class?: Cr26Class;
  type?: FedrampType;
  now?: Date;
}

export interface CheckFedrampReadinessResult {
  /** The profile judged; `defaults` names the keys the profile left to PROFILE_DEFAULTS. */
  profile: ApplicabilityProfile & { defaults: ('path' | 'status')[] };
  now: string;
  rules_version: string;
  /**
   * The store's state judged: the newest run, the results of all, and each source's latest run (docs/conmon.md,
   * "Sources"), with its date; null when none is recorded.
   */
  run: { seq: number; id: string; as_of: string; results: number; sources: ReadinessSource[] } | null;
  /** Where the run store is. */
  store: string;
  rules: ReadinessItem[];
  ksis: ReadinessItem[];
  recommended: ReadinessApart[];
  optional: ReadinessApart[];
  counts: { rules: ReadinessCounts; ksis: ReadinessCounts };
  /** Ids of the MUSTs in force not met (or without a statement): any, and the command exits 1. */
  must_not_met: string[];
  /** The rules svc relies on that the release does not hold, and what svc does instead (absent when it holds them all). */
  missing_rules?: ReliedRule[];
}

/** One source's latest run in the state; `stale` when its next run was due before `now` (sourceStaleness). */
export interface ReadinessSource {
  source: string;
  seq: number;
  as_of: string;
  results: number;
  stale?: SourceStaleness;
}

/** The profile keys readiness reads (type and class always): none more. */
const READINESS_KEYS = [] as const;

/**
 * `svc fedramp readiness` (DESIGN §12.3): every applicable CR26 rule and KSI, judged at `now` from the run store's
 * latest run, svc's own judgments and the provider's statements (domain/fedramp/readiness.ts says how).
 */
@injectable()
export class CheckFedrampReadiness {
  constructor(
    private readonly cr26: Cr26Assessment,
    private readonly register: VulnerabilityRegister,
    private readonly journal: OngoingJournal,
  ) {}

  async execute(input: CheckFedrampReadinessInput): Promise<CheckFedrampReadinessResult> {
    const scope = this.cr26.scope(input, READINESS_KEYS, 'svc fedramp readiness');
    const statements = await this.cr26.statements(scope);
    const state = await this.cr26.state();
    const latest = state?.newest;
    const { picture, results } = await this.cr26.storedPicture(scope, state?.runs ?? []);
    const asOf = latest?.as_of ?? isoSeconds(scope.now);
    const vulnerabilities = vulnerabilityFacts(await this.register.judge({ class: scope.profile.class, now: scope.now }, 'svc fedramp readiness'));
    const { ocrs } = await this.journal.read();
    const judgments = judgeRules(
      judgmentFacts(scope, picture, { results, asOf }, statements, { ...(vulnerabilities === undefined ? {} : { vulnerabilities }), ocrs }),
    );
    const evaluation = picture.facts.tally.evaluation();
    const readiness = judgeReadiness({
      found: scope.found,
      ...(latest === undefined ? {} : { run: { seq: latest.seq, asOf, results } }),
      store: this.cr26.storeLocation,
      judgments,
      statements: { ...(scope.profile.statements === undefined ? {} : { file: statements.file }), byId: statements.byId },
      ksis: evaluation.ksis.map((k) => ({
        id: k.id,
        ...(k.status === undefined ? {} : { status: k.status }),
        results: { pass: k.tally.pass, fail: k.tally.fail, other: k.tally.other },
        freshness: freshnessOf(picture.facts, k.tally.indices),
        methods: k.methods,
        ...(k.methodsRequired === undefined ? {} : { methodsRequired: k.methodsRequired }),
        ...(picture.history.has(k.id) ? { history: picture.history.get(k.id) } : {}),
      })),
      cadences: scope.cadences,
    });
    // A recorded SCN's notice whose day has passed is a reminder on its rule: svc cannot know whether it was sent.
    const reminders = scnWarnings(await this.journal.entries(SCN_KIND), scope.rules, scope.now, scope.profile.class);
    const profile = applicabilityProfile(scope.profile);
    const missing = missingReliedRules(scope.rules);
    return {
      profile: { ...profile, defaults: (['path', 'status'] as const).filter((key) => scope.profile[key] === undefined) },
      now: isoSeconds(scope.now),
      rules_version: scope.rules.info.version,
      run:
        latest === undefined
          ? null
          : {
              seq: latest.seq,
              id: latest.id,
              as_of: latest.as_of,
              results,
              sources: (state?.runs ?? []).map((r) => readinessSource(r, scope.cadences.machine, scope.now)),
            },
      store: this.cr26.storeLocation,
      rules: withScnWarnings(readiness.rules, reminders),
      ksis: readiness.ksis,
      recommended: readiness.recommended,
      optional: readiness.optional,
      counts: readiness.counts,
      must_not_met: readiness.mustNotMet,
      ...(missing.length === 0 ? {} : { missing_rules: missing }),
    };
  }
}

/** A source of the state as readiness lists it, stale by the machine-based cadence of the profile's type and class (never, without one). */
function readinessSource(run: RunSummary, cadence: EvidenceCadence | undefined, now: Date): ReadinessSource {
  const stale = cadence === undefined ? undefined : sourceStaleness(run.as_of, cadence, now);
  return { source: sourceKey(run.source), seq: run.seq, as_of: run.as_of, results: run.counts.results, ...(stale === undefined ? {} : { stale }) };
}
