import { inject, injectable } from 'tsyringe';
import { diffProvider, type DiffSide, type ProviderDiff } from '../../domain/agency/provider-diff';
import { PULLED_DOCUMENT_NAMES, type AgencyPull, type PulledDocumentName } from '../../domain/agency/pulled-documents';
import { recomputeVulnerabilities, type RecomputedVulnerability } from '../../domain/agency/vulnerability-clock';
import { classOf, ocrPeriod } from '../../domain/agency/provider-status';
import { InvalidInputError, UsageError } from '../../domain/errors';
import type { Cr26Class, Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { AGENCY_CONFIG, type AgencyConfig } from '../../ports/agency-config';
import { AGENCY_STORE, type AgencyStore } from '../../ports/agency-store';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { ProviderDocuments, storedJson } from './provider-documents';
import { pulledOcrs, pulledProvider } from './review-ocr';

/**
 * The certification class svc recomputes a provider's vulnerability clock for: `agency.providers[].class` of
 * svc.config.json (the marketplace's, as the agency knows it), else the trust center's own statement of it in its
 * public information (`trustCenter.certificationClass`, as svc-api serves it: FedRAMP's schemas carry no class).
 * InvalidInputError naming the setting when neither gives one.
 */
export async function providerClass(config: AgencyConfig, documents: ProviderDocuments): Promise<Cr26Class> {
  const provider = config.settings().providers.find((p) => p.name === documents.provider);
  const known = classOf(provider ?? { name: documents.provider, url: '', auth: { kind: 'none' } }, await documents.json('public')).class;
  if (known !== undefined) return known;
  throw new InvalidInputError(
    'agency-class-unknown',
    `provider "${documents.provider}": its certification class is unknown (FedRAMP's documents carry none and its trust center states none); set "class" (A, B, C or D) on it in agency.providers[] of ${config.file}`,
  );
}

/**
 * The VDR's and the AVI's vulnerabilities as documents stand, recomputed at `now` for the provider's class (never the
 * provider's own overdueStatus). The class is asked for only when there is a VDR or AVI to recompute.
 */
export async function recomputedReports(
  documents: ProviderDocuments,
  cls: () => Promise<Cr26Class>,
  rules: Pick<Cr26Rules, 'rules' | 'info'>,
  now: Date,
): Promise<{ vdr: RecomputedVulnerability[]; avi: RecomputedVulnerability[] }> {
  const vdr = await documents.json('vdr');
  const avi = await documents.json('avi');
  if (vdr === undefined && avi === undefined) return { vdr: [], avi: [] };
  const c = await cls();
  return { vdr: recomputeVulnerabilities(vdr, c, rules, now), avi: recomputeVulnerabilities(avi, c, rules, now) };
}

/** The documents `diff` compares, parsed. */
const COMPARED: PulledDocumentName[] = ['cpo', 'sdr', 'scn', 'incidents'];

export const DIFF_FORMATS = ['md', 'json'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

export interface DiffProviderInput {
  provider: string;
  /** `--from`: a pull's seq (`3`) or an OCR's reporting period end (`2026-09-30`); default the pull before `to`. */
  from?: string;
  /** `--to`: as `from`; default the newest pull. */
  to?: string;
}

/**
 * `svc agency diff <provider>` (DESIGN §14): what changed at a provider between two pulls, by default its last two
 * (domain/agency/provider-diff.ts). A pull is named by its seq or by an OCR's reporting period end: the pull that got
 * that OCR first, the provider's documents as they were when the OCR came. Each side's vulnerabilities are
 * recomputed at the end of its pull.
 */
@injectable()
export class DiffProvider {
  constructor(
    @inject(AGENCY_STORE) private readonly store: AgencyStore,
    @inject(AGENCY_CONFIG) private readonly config: AgencyConfig,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
  ) {}

  async execute(input: DiffProviderInput): Promise<ProviderDiff> {
    const pulls = await pulledProvider(this.store, input.provider);
    const to = input.to === undefined ? pulls.at(-1)! : await this.pick(pulls, input.to, '--to');
    const from = input.from === undefined ? pulls.filter((p) => p.seq < to.seq).at(-1) : await this.pick(pulls, input.from, '--from');
    if (from === undefined)
      throw new InvalidInputError(
        'agency-diff-one-pull',
        `provider "${input.provider}" has no pull before pull ${to.seq} to compare it with; run \`svc agency pull ${input.provider}\` again later, or give --from`,
      );
    if (from.seq >= to.seq)
      throw new UsageError('agency-diff-order', `--from names pull ${from.seq}, which is not before --to's pull ${to.seq}; give the older pull as --from`);
    const rules = this.rules.rules();
    let cls: Promise<Cr26Class> | undefined;
    const classOf = (docs: ProviderDocuments) => (cls ??= providerClass(this.config, docs));
    const side = async (pull: AgencyPull): Promise<DiffSide> => {
      const docs = new ProviderDocuments(this.store, input.provider, pulls, pull.seq);
      const period = ocrPeriod(await docs.json('ocr'));
      const documents: Partial<Record<PulledDocumentName, string>> = {};
      for (const name of PULLED_DOCUMENT_NAMES) {
        const stored = docs.stored(name);
        if (stored !== undefined) documents[name] = stored.stored.sha256;
      }
      const parsed: Partial<Record<PulledDocumentName, unknown>> = {};
      for (const name of COMPARED) parsed[name] = await docs.json(name);
      return {
        seq: pull.seq,
        pulledAt: pull.finished,
        ...(period === undefined ? {} : { ocrPeriodEnd: period.to }),
        documents,
        ...parsed,
        vulnerabilities: await recomputedReports(docs, () => classOf(docs), rules, new Date(pull.finished)),
      };
    };
    return diffProvider(input.provider, await side(from), await side(to));
  }

  /** The pull a `--from` / `--to` value names. */
  private async pick(pulls: readonly AgencyPull[], value: string, flag: string): Promise<AgencyPull> {
    const provider = pulls[0].provider;
    if (/^[1-9]\d{0,8}$/.test(value)) {
      const pull = pulls.find((p) => p.seq === Number(value));
      if (pull === undefined)
        throw new InvalidInputError(
          'agency-pull-unknown',
          `${flag} ${value}: provider "${provider}" has pulls 1 to ${pulls.at(-1)!.seq}; give one of them or an OCR period end`,
        );
      return pull;
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
      throw new UsageError('bad-pull', `${flag} ${value}: expected a pull number such as 3 or an OCR's reporting period end such as 2026-09-30`);
    // The first pull that got an OCR for the period (a later pull may confirm the same bytes, or a correction of them).
    const periods = new Map<string, string | undefined>();
    for (const pull of pulls) {
      const ocr = pull.documents.find((d) => d.name === 'ocr')?.stored;
      if (ocr === undefined) continue;
      if (!periods.has(ocr.sha256)) periods.set(ocr.sha256, ocrPeriod(await storedJson(this.store, ocr.sha256))?.to);
      if (periods.get(ocr.sha256) === value) return pull;
    }
    const ocrs = await pulledOcrs(this.store, pulls);
    throw new InvalidInputError(
      'agency-ocr-period-unknown',
      `${flag} ${value}: provider "${provider}" has no pulled OCR for the period ending ${value}; ${ocrs.length === 0 ? 'no pull has got an OCR' : `the periods pulled end ${ocrs.map((o) => o.periodEnd).join(', ')}`}`,
    );
  }
}
