import { inject, injectable } from 'tsyringe';
import type { Milestone } from '../../domain/artifacts/poam';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { isoDate } from '../../domain/artifacts/run-context';
import type { TrackedPoamItem } from '../../domain/conmon/run-record';
import type { RecomputedVulnerability } from '../../domain/agency/vulnerability-clock';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { jsonChunks } from '../../domain/encoding/json-chunks';
import { isPlainObject } from '../../domain/encoding/json-values';
import { InvalidInputError } from '../../domain/errors';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import { compareIds } from '../../domain/governance/governance-policy';
import { N_RISK } from '../../domain/vulnerabilities/poam-rows';
import { AGENCY_CONFIG, type AgencyConfig } from '../../ports/agency-config';
import { AGENCY_STORE, type AgencyStore } from '../../ports/agency-store';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { POAM_WORKBOOK, type PoamWorkbook } from '../../ports/poam-workbook';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { writePoamFile } from '../poam/write-poam-file';
import { providerClass, recomputedReports } from './diff-provider';
import { ProviderDocuments } from './provider-documents';
import { pulledProvider } from './review-ocr';

/** The `json` form of `svc agency poam`. */
export const AGENCY_POAM_SCHEMA = 'svc.agency-poam/v1';

export const AGENCY_POAM_FORMATS = ['xlsx', 'csv', 'json'] as const;
export type AgencyPoamFormat = (typeof AGENCY_POAM_FORMATS)[number];

/** A document a POA&M row rests on: where it came from and the SHA-256 of the bytes read. */
export interface PoamSource {
  url: string;
  sha256: string;
  /** When the agency first fetched these bytes: the detection date of an entry that gives none. */
  fetchedAt: string;
}

/** What the rows cite: the provider, its FedRAMP ID (when known) and the VDR and AVI they come from. */
export interface AgencyPoamContext {
  provider: string;
  fedrampId?: string;
  vdr?: PoamSource;
  avi?: PoamSource;
}

/** Dispositions that close an item (FedRAMP's finalDisposition); `Partially Mitigated` leaves it open. */
const CLOSING = new Set(['Remediated', 'Fully Mitigated', 'False Positive']);

/** The raw vulnerability detail (and, for an accepted one, its acceptance rationale) at a recomputed entry's path. */
function rawEntry(document: unknown, at: string): { detail: Record<string, unknown>; rationale?: string } {
  const m = /^(\w+)\[(\d+)\](\.vulnerabilityDetail)?$/.exec(at);
  const list = m !== null && isPlainObject(document) ? document[m[1]] : undefined;
  const entry = Array.isArray(list) ? list[Number(m![2])] : undefined;
  if (!isPlainObject(entry)) return { detail: {} };
  if (m![3] === undefined) return { detail: entry };
  return {
    detail: isPlainObject(entry.vulnerabilityDetail) ? entry.vulnerabilityDetail : {},
    ...(typeof entry.acceptanceRationale === 'string' ? { rationale: entry.acceptanceRationale } : {}),
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * A provider's vulnerability as the agency's POA&M item (VER-AGM-MAP): POA&M ID and weakness source identifier the
 * provider's tracking id; controls RA-5; the detector source cites the provider, its FedRAMP ID and the SHA-256 of the
 * report the row comes from; the asset is the provider's offering; closed when the provider gives a final disposition
 * of Remediated, Fully Mitigated or False Positive; scheduled completion, milestones and overdue as svc recomputes them
 * (vulnerability-clock.ts), never the provider's overdueStatus (with no due time, VER-TFR-MAV's acceptance, else the
 * detection date; with no detection time, the day the agency first fetched the report); risk N_RISK of the N-rating (Moderate while unrated);
 * the remediation plan the acceptance (the AVI's rationale, or VER-TFR-MAV's), the disposition, or what is due by when.
 */
export function agencyPoamItem(
  v: RecomputedVulnerability,
  raw: { detail: Record<string, unknown>; rationale?: string },
  source: PoamSource,
  c: AgencyPoamContext,
): TrackedPoamItem {
  const description = text(raw.detail.vulnerabilityDescription) ?? 'No description given.';
  const who = `${c.provider}${c.fedrampId === undefined ? '' : ` (FedRAMP ID ${c.fedrampId})`}`;
  const document = v.accepted ? 'AVI' : 'VDR';
  const closed = v.disposition !== undefined && CLOSING.has(v.disposition);
  const rated = v.rating === undefined ? 'not rated' : `N${v.rating}`;
  const evaluated =
    v.evaluatedAt === undefined
      ? 'Not evaluated yet.'
      : `Evaluated ${v.evaluatedAt}: ${v.irv === undefined ? 'internet reachability not given' : v.irv ? 'internet-reachable' : 'not internet-reachable'}, ${v.lev === undefined ? 'exploitability not given' : v.lev ? 'likely exploitable' : 'not likely exploitable'}, ${rated}.`;
  const parts = [description, evaluated];
  if (v.overdue) parts.push(`Overdue as svc recomputes it: ${v.reasons.join('; ')}.`);
  if (v.disagrees) parts.push(`The provider reports it as ${v.providerSaysOverdue ? 'overdue' : 'not overdue'}.`);
  parts.push(`From ${who}'s ${document} ${v.at}, SHA-256 ${source.sha256}.`);
  const milestones: Milestone[] =
    v.due === undefined
      ? []
      : [{ description: `${v.due.rule === 'VER-TFR-EVU' ? 'Evaluation' : `N${v.rating} mitigated or remediated`} (${v.due.rule})`, due: isoDate(v.due.at) }];
  const plan = closed
    ? `${v.disposition} (the provider's final disposition).`
    : v.accepted
      ? `Risk accepted by the provider${raw.rationale === undefined ? '' : `: ${raw.rationale}`}.`
      : v.acceptedByRule !== undefined
        ? `An accepted vulnerability under VER-TFR-MAV since ${v.acceptedByRule}; the provider lists it as open.`
        : v.due === undefined
          ? `No timeframe applies at ${rated}; the provider fully mitigates or remediates it, else it becomes accepted (VER-TFR-MAV).`
          : `The provider ${v.due.rule === 'VER-TFR-EVU' ? 'evaluates it' : 'mitigates or remediates it'} by ${v.due.at} (${v.due.rule}).`;
  // The template's dates are required cells: an entry without a detection time is dated by when the agency got the report.
  const detected = isoDate(v.detectedAt ?? source.fetchedAt);
  const times = [v.detectedAt ?? source.fetchedAt, v.evaluatedAt, v.ratedAt]
    .filter((t): t is string => t !== undefined)
    .map(isoDate)
    .sort();
  const item: TrackedPoamItem = {
    asset_identifier: who,
    controls: ['ra-5'],
    ksi_id: v.id,
    last_run: source.sha256,
    last_status: closed ? 'PASS' : 'FAIL',
    milestones,
    original_detection_date: detected,
    overdue: !closed && v.overdue,
    poam_id: v.id,
    point_of_contact: c.provider,
    remediation_plan: plan,
    risk_rating: v.rating === undefined ? 'Moderate' : N_RISK[v.rating],
    scheduled_completion_date: isoDate(v.due?.at ?? v.acceptedByRule ?? detected),
    status: closed ? 'Closed' : 'Open',
    status_date: times.at(-1)!,
    weakness_description: parts.join(' '),
    weakness_name: `${v.id} ${description.replace(/\s+/g, ' ').trim().slice(0, 120)}`,
    weakness_source: `${who} ${document} ${source.sha256}`,
  };
  return item;
}

export interface AgencyPoamInput {
  provider: string;
  format: AgencyPoamFormat;
  out: string;
  /** `--now`: recompute the clocks at this time instead of the clock's. */
  now?: Date;
}

export interface AgencyPoamResult {
  provider: string;
  fedrampId?: string;
  class: Cr26Class;
  now: string;
  format: AgencyPoamFormat;
  out: string;
  file: WrittenFile;
  vdr?: PoamSource;
  avi?: PoamSource;
  rows: number;
  open: number;
  overdue: number;
}

/**
 * `svc agency poam <provider>` (VER-AGM-MAP, DESIGN §14): the agency's POA&M items from the provider's current VDR
 * and AVI (an id in both is the AVI's, accepted), recomputed at `now` for its class (agencyPoamItem), written by the
 * existing POA&M writers: the FedRAMP POA&M template as .xlsx or CSV, or `json` (svc.agency-poam/v1).
 */
@injectable()
export class AgencyPoam {
  constructor(
    @inject(AGENCY_STORE) private readonly store: AgencyStore,
    @inject(AGENCY_CONFIG) private readonly config: AgencyConfig,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(POAM_WORKBOOK) private readonly workbook: PoamWorkbook,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(input: AgencyPoamInput): Promise<AgencyPoamResult> {
    const pulls = await pulledProvider(this.store, input.provider);
    const docs = new ProviderDocuments(this.store, input.provider, pulls);
    const source = (name: 'vdr' | 'avi'): PoamSource | undefined => {
      const current = docs.stored(name);
      return current === undefined ? undefined : { url: current.stored.url, sha256: current.stored.sha256, fetchedAt: current.stored.fetchedAt };
    };
    const vdr = source('vdr');
    const avi = source('avi');
    if (vdr === undefined && avi === undefined)
      throw new InvalidInputError(
        'agency-vdr-not-pulled',
        `provider "${input.provider}": no pull has got its VDR or AVI; run \`svc agency pull ${input.provider}\` (its trust center must grant the agency /fedramp/vdr)`,
      );
    const now = input.now ?? this.clock.now();
    const cls = await providerClass(this.config, docs);
    const reports = await recomputedReports(docs, async () => cls, this.rules.rules(), now);
    const cpo = await docs.json('cpo');
    const cpoId = isPlainObject(cpo) && isPlainObject(cpo.serviceIdentification) ? text(cpo.serviceIdentification.fedRampPackageId) : undefined;
    const fedrampId = this.config.settings().providers.find((p) => p.name === input.provider)?.fedrampId ?? cpoId;
    const context: AgencyPoamContext = {
      provider: input.provider,
      ...(fedrampId === undefined ? {} : { fedrampId }),
      ...(vdr === undefined ? {} : { vdr }),
      ...(avi === undefined ? {} : { avi }),
    };
    const byId = new Map<string, TrackedPoamItem>();
    const vdrJson = await docs.json('vdr');
    const aviJson = await docs.json('avi');
    for (const v of reports.vdr) byId.set(v.id, agencyPoamItem(v, rawEntry(vdrJson, v.at), vdr!, context));
    for (const v of reports.avi) byId.set(v.id, agencyPoamItem(v, rawEntry(aviJson, v.at), avi!, context));
    const items = [...byId.values()].sort((a, b) => compareIds(a.poam_id, b.poam_id));
    const at = isoSeconds(now);
    const file = await writePoamFile(
      { writer: this.writer, workbook: this.workbook },
      input.out,
      input.format,
      items,
      () => ({ system: `${input.provider}${fedrampId === undefined ? '' : ` (${fedrampId})`}`, date: isoDate(at), tool: this.settings.tool }),
      (s) => {
        for (const chunk of jsonChunks({ ...context, class: cls, now: at, rows: items, schema: AGENCY_POAM_SCHEMA }, 'canonical')) s.write(chunk);
      },
    );
    return {
      provider: input.provider,
      ...(fedrampId === undefined ? {} : { fedrampId }),
      class: cls,
      now: at,
      format: input.format,
      out: input.out,
      file,
      ...(vdr === undefined ? {} : { vdr }),
      ...(avi === undefined ? {} : { avi }),
      rows: items.length,
      open: items.filter((i) => i.status === 'Open').length,
      overdue: items.filter((i) => i.overdue).length,
    };
  }
}
