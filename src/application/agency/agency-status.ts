import { inject, injectable } from 'tsyringe';
import { keptKsiStatuses, ksiStatuses, ocrPeriodEnd, providerStatus, type ProviderStatus } from '../../domain/agency/provider-status';
import type { AgencyPull, AgencyReview, PulledDocumentName } from '../../domain/agency/pulled-documents';
import { AGENCY_CONFIG, type AgencyConfig } from '../../ports/agency-config';
import { AGENCY_STORE, type AgencyStore } from '../../ports/agency-store';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { SIGNER, type Signer } from '../../ports/signer';
import { selectProviders } from './pull-providers';
import { ProviderDocuments, storedJson } from './provider-documents';
import { reviewProblem } from './review-ocr';

export interface AgencyStatusInput {
  names?: readonly string[];
  /** Judge at this time instead of now. */
  now?: Date;
}

export interface AgencyStatusResult {
  now: string;
  /** The CR26 rules version the rows were judged by. */
  rules: string;
  providers: ProviderStatus[];
  /** Rows with something to act on. */
  needingAction: number;
}

/** The documents a status row reads. */
const READ: readonly PulledDocumentName[] = ['public', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'incidents', 'scn'];

/**
 * `svc agency status` (DESIGN §14): one row per provider, from its newest pull, its reviews and the rules data, one
 * provider at a time so memory holds one provider's documents. Overdue vulnerabilities are recomputed from the VDR,
 * never taken from the provider.
 */
@injectable()
export class AgencyStatus {
  constructor(
    @inject(AGENCY_CONFIG) private readonly config: AgencyConfig,
    @inject(AGENCY_STORE) private readonly store: AgencyStore,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rulesSource: FedrampRulesSource,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(SIGNER) private readonly signer: Signer,
    @inject(HASHING) private readonly hashing: Hashing,
  ) {}

  async execute(input: AgencyStatusInput = {}): Promise<AgencyStatusResult> {
    const settings = this.config.settings();
    const providers = selectProviders(settings.providers, input.names, this.config.file);
    const rules = this.rulesSource.rules();
    const now = input.now ?? this.clock.now();
    const rows: ProviderStatus[] = [];
    for (const provider of providers) {
      const pulls = await this.store.pulls(provider.name);
      const latest = pulls.at(-1);
      const current = new ProviderDocuments(this.store, provider.name, latest === undefined ? [] : [latest]);
      const documents: Partial<Record<PulledDocumentName, unknown>> = {};
      // The SDR's statuses are kept with the pull (PullFacts): its SDR is parsed only for a record written before that.
      for (const name of READ) {
        if (name === 'sdr' && latest?.facts?.ksiStatuses !== undefined) continue;
        const json = await current.json(name);
        if (json !== undefined) documents[name] = json;
      }
      const reviews: AgencyReview[] = [];
      const unverifiedReviews: { ocrPeriodEnd: string; problem: string }[] = [];
      for (const review of await this.store.reviews(provider.name)) {
        const problem = reviewProblem(review, this.signer, (text) => this.hashing.sha256(text));
        if (problem === undefined) reviews.push(review);
        else unverifiedReviews.push({ ocrPeriodEnd: review.ocrPeriodEnd, problem });
      }
      rows.push(
        providerStatus({
          provider,
          ...(settings.name === undefined ? {} : { agencyName: settings.name }),
          ...(latest === undefined ? {} : { latest }),
          ...optional(
            'lastReached',
            pulls.findLast((p) => p.outcome !== 'failed'),
          ),
          documents,
          ...optional('incidentsFetchedAt', current.stored('incidents')?.stored.fetchedAt),
          ocrPeriods: await this.ocrPeriods(pulls),
          reviews,
          ...(unverifiedReviews.length === 0 ? {} : { unverifiedReviews }),
          ksiBaseline: await this.ksiBaseline(pulls, reviews.at(-1)?.ocrSha256, current.stored('sdr')?.stored.sha256),
          rules,
          now,
        }),
      );
    }
    return { now: now.toISOString(), rules: `CR26 ${rules.info.version}`, providers: rows, needingAction: rows.filter((r) => r.actions.length > 0).length };
  }

  /** Every OCR period end the provider's pulls brought, oldest first: kept with each pull, else each distinct OCR read once. */
  private async ocrPeriods(pulls: readonly AgencyPull[]): Promise<string[]> {
    const periods = new Set(pulls.flatMap((p) => (p.facts?.ocrPeriodEnd === undefined ? [] : [p.facts.ocrPeriodEnd])));
    const unkept = pulls.filter((p) => p.facts === undefined);
    const shas = new Set(unkept.flatMap((p) => p.documents.filter((d) => d.name === 'ocr' && d.stored !== undefined).map((d) => d.stored!.sha256)));
    for (const sha of shas) {
      const end = ocrPeriodEnd(await storedJson(this.store, sha));
      if (end !== undefined) periods.add(end);
    }
    return [...periods].sort();
  }

  /**
   * The KSI statuses to compare the current SDR with: the SDR current when the reviewed OCR was first pulled, else
   * (never reviewed) the first pull's SDR. Empty when that is the current SDR itself (nothing changed).
   */
  private async ksiBaseline(
    pulls: readonly AgencyPull[],
    reviewedOcr: string | undefined,
    currentSdr: string | undefined,
  ): Promise<Map<string, string | undefined>> {
    const at = reviewedOcr === undefined ? pulls[0] : pulls.find((p) => p.documents.some((d) => d.name === 'ocr' && d.stored?.sha256 === reviewedOcr));
    const sha = at?.documents.find((d) => d.name === 'sdr')?.stored?.sha256;
    if (sha === undefined || sha === currentSdr) return new Map();
    const kept = at?.facts?.ksiStatuses;
    return kept === undefined ? ksiStatuses(await storedJson(this.store, sha)) : keptKsiStatuses(kept);
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
