import type { Cr26Class, Cr26Rules } from '../fedramp/cr26-rules';
import { ksiStatuses, type ProviderStatus } from './provider-status';
import type { AgencyPull, PulledDocumentName } from './pulled-documents';
import { recomputeVulnerabilities } from './vulnerability-clock';

/**
 * `svc agency report`'s page (DESIGN §14): the portfolio as `svc agency status` judges it, each provider's trend over
 * its pulls, and what needs action. The model holds what the page shows; the renderer only lays it out and escapes
 * every string (each one a provider wrote is hostile until shown as text).
 */
export interface PortfolioModel {
  title: string;
  tool: { name: string; version: string };
  /** When the page was made (ISO-8601 UTC, seconds). */
  generatedAt: string;
  /** The time the rows and the newest trend points were judged at (ISO-8601 UTC). */
  now: string;
  /** The CR26 rules version the rows were judged by (`CR26 2026.10.05.01`). */
  rules: string;
  /** The agency's name from `agency.name`, when configured. */
  agency?: string;
  /** One per provider, in the configuration's order. */
  providers: PortfolioProvider[];
  /** Providers with something to act on. */
  needingAction: number;
}

/** One provider of the portfolio: its `svc agency status` row, unchanged, and its trend over its pulls. */
export interface PortfolioProvider {
  status: ProviderStatus;
  /** One point per pull, oldest first (empty when never pulled). */
  trend: TrendPoint[];
}

/**
 * What the agency knew of a provider after one pull: the documents current then (a failed pull carries the previous
 * ones forward, as currentDocuments does), judged at the time the pull finished.
 */
export interface TrendPoint {
  seq: number;
  /** When the pull finished (ISO-8601 UTC). */
  at: string;
  outcome: AgencyPull['outcome'];
  /** KSIs of the SDR whose `ksiImplementationStatus` is `Implemented`, and KSIs listed; absent without an SDR. */
  ksis?: { implemented: number; listed: number };
  /**
   * Open vulnerabilities of the VDR (neither remediated nor false positives) and those overdue, recomputed at `at` with
   * the PAIN timeframes of the provider's class; absent without a VDR or a class.
   */
  vulnerabilities?: { open: number; overdue: number };
}

/** The documents a trend point reads. */
export const TREND_DOCUMENTS = ['sdr', 'vdr'] as const satisfies readonly PulledDocumentName[];

/** Every distinct SHA-256 of the SDRs and VDRs `pulls` brought, each once: what providerTrend needs parsed. */
export function trendDocumentShas(pulls: readonly AgencyPull[]): string[] {
  const shas = new Set<string>();
  for (const pull of pulls)
    for (const d of pull.documents) if ((TREND_DOCUMENTS as readonly string[]).includes(d.name) && d.stored !== undefined) shas.add(d.stored.sha256);
  return [...shas];
}

/** KSIs of an SDR implemented and listed (`keySecurityIndicators[].ksiImplementationStatus`); absent when it lists none. */
export function ksiCounts(sdr: unknown): TrendPoint['ksis'] {
  const statuses = ksiStatuses(sdr);
  if (statuses.size === 0) return undefined;
  return { implemented: [...statuses.values()].filter((s) => s === 'Implemented').length, listed: statuses.size };
}

/**
 * Open and overdue vulnerabilities of a VDR recomputed at `at` for class `cls`, counted as `svc agency status` counts
 * them: every entry neither remediated nor a false positive is open. Throws InvalidInputError `no-timeframe` when the
 * rules data lacks a timeframe the clock needs.
 */
export function vulnerabilityCounts(vdr: unknown, cls: Cr26Class, rules: Pick<Cr26Rules, 'rules' | 'info'>, at: Date): TrendPoint['vulnerabilities'] {
  const open = recomputeVulnerabilities(vdr, cls, rules, at).filter((v) => !v.remediated && v.disposition !== 'False Positive');
  return { open: open.length, overdue: open.filter((v) => v.overdue).length };
}

/** What providerTrend reads: the provider's pulls, its SDRs and VDRs parsed by SHA-256, its class and the rules. */
export interface ProviderTrendInput {
  /** Oldest first. */
  pulls: readonly AgencyPull[];
  /** Every SHA-256 trendDocumentShas names, parsed; a digest missing here counts as no document. */
  documents: ReadonlyMap<string, unknown>;
  /** The class `svc agency status` judged the provider by; without one, no vulnerability is counted. */
  cls?: Cr26Class;
  rules: Pick<Cr26Rules, 'rules' | 'info'>;
}

/** One trend point per pull, oldest first: the SDR's KSIs implemented and the VDR's open and overdue vulnerabilities then. */
export function providerTrend(input: ProviderTrendInput): TrendPoint[] {
  const current: Partial<Record<(typeof TREND_DOCUMENTS)[number], string>> = {};
  const ksis = new Map<string, TrendPoint['ksis']>();
  return input.pulls.map((pull) => {
    for (const d of pull.documents) if ((d.name === 'sdr' || d.name === 'vdr') && d.stored !== undefined) current[d.name] = d.stored.sha256;
    const sdr = current.sdr === undefined ? undefined : input.documents.get(current.sdr);
    const vdr = current.vdr === undefined ? undefined : input.documents.get(current.vdr);
    if (current.sdr !== undefined && !ksis.has(current.sdr)) ksis.set(current.sdr, ksiCounts(sdr));
    const k = current.sdr === undefined ? undefined : ksis.get(current.sdr);
    const v = vdr === undefined || input.cls === undefined ? undefined : vulnerabilityCounts(vdr, input.cls, input.rules, new Date(pull.finished));
    return {
      seq: pull.seq,
      at: pull.finished,
      outcome: pull.outcome,
      ...(k === undefined ? {} : { ksis: k }),
      ...(v === undefined ? {} : { vulnerabilities: v }),
    };
  });
}

/** The page's title: the agency's portfolio, named when the agency is. */
export function portfolioTitle(agency: string | undefined): string {
  return agency === undefined ? 'Agency portfolio' : `Portfolio of ${agency}`;
}
