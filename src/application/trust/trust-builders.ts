import type { Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { citing, holdsRule } from '../../domain/fedramp/relied-rules';
import { NotFoundError } from '../../domain/errors';
import { incidentAgencies, ocrForAudience, seesIncident, withheldIncident } from '../../domain/trust/audience';
import { publicInformation } from '../../domain/trust/public-information';
import { METRICS_RULE } from '../fedramp/cr26-assessment';
import type { TrustStoreState } from './store-state';
import { SNAPSHOTS_RULE, type BuildTrustDocumentInput, type TrustDocumentName } from './trust-documents';
import type { TrustParts } from './trust-parts';

/** What a document's builder is given: the shared parts, the store state, the request and the rules in use. */
export interface TrustBuild {
  parts: TrustParts;
  state: TrustStoreState;
  input: BuildTrustDocumentInput;
  rules: Cr26Rules;
}

/** How one document is built: its JSON, and for a page that lists rules and KSIs by id, FedRAMP's names of them. */
export interface TrustDocumentBuilder {
  json(build: TrustBuild): Promise<unknown>;
  names?(build: TrustBuild): Promise<ReadonlyMap<string, string>>;
}

/** FedRAMP's names of the rules and KSIs the SDR and its metrics list by id, for their pages. */
const sdrNames = async ({ parts, state }: TrustBuild) => {
  const { rules } = (await parts.sdr(state)).model.input;
  return new Map([...rules.rules, ...rules.ksis].map((r) => [r.id, r.name]));
};

const vulnerabilityReport = (name: 'vdr' | 'avi' | 'history'): TrustDocumentBuilder => ({
  json: async ({ parts, state }) => (await parts.vulnerabilityReports(state))[name],
});

/**
 * Every trust-center document's builder, by its name (DESIGN §12.7): the public information and the CPO from BuildCpo,
 * the SDR of the latest run and its metrics from SdrBuilder, the OCR as the latest recorded one (each audience its
 * incidents), the VDR, AVI and history from the vulnerability register, the SCNs and incidents as recorded, and the
 * OCR snapshots. A document with no data yet is NotFoundError: `no-ocr-recorded`, `no-run-recorded`, `no-ksi-metrics`.
 */
export const TRUST_DOCUMENT_BUILDERS: Record<TrustDocumentName, TrustDocumentBuilder> = {
  public: {
    json: async ({ parts, state, input, rules }) => {
      const built = await parts.cpoOf(state);
      return publicInformation(built.cpo.document, built.profile.class, input.listing, rules);
    },
  },
  cpo: { json: async ({ parts, state }) => (await parts.cpoOf(state)).cpo.document },
  sdr: { json: async ({ parts, state }) => (await parts.sdr(state)).model.document, names: sdrNames },
  metrics: {
    json: async ({ parts, state }) => {
      const { model } = await parts.sdr(state);
      const { profile } = model.input;
      const metrics = model.document.ksiMetrics;
      if (metrics === undefined && !holdsRule(model.input.rules, METRICS_RULE))
        throw new NotFoundError('no-ksi-metrics', `CR26 ${model.input.rules.info.version} holds no ${METRICS_RULE}: the SDR carries no KSI metrics under it`);
      if (metrics === undefined)
        throw new NotFoundError(
          'no-ksi-metrics',
          `the offering is ${profile.type} Class ${profile.class}: KSI metrics (${METRICS_RULE}) are kept for 20x offerings only`,
        );
      return {
        certificationPackageOverviewUri: profile.package_uri,
        ...(profile.fedramp_id === undefined ? {} : { fedRampPackageId: profile.fedramp_id }),
        certificationClass: profile.class,
        rule: METRICS_RULE,
        asOf: state.asOf,
        ksiMetrics: metrics,
      };
    },
    names: sdrNames,
  },
  ocr: {
    json: async ({ parts, state, input, rules }) => {
      const records = await parts.records(state);
      const latest = records.ocrs.at(-1);
      if (latest === undefined)
        throw new NotFoundError(
          'no-ocr-recorded',
          'no Ongoing Certification Report is recorded yet; the provider records one with svc fedramp ocr --to <period end>',
        );
      return ocrForAudience(latest.document, incidentAgencies(records.incidents), input.audience, withheldIncident(rules));
    },
  },
  vdr: vulnerabilityReport('vdr'),
  avi: vulnerabilityReport('avi'),
  history: vulnerabilityReport('history'),
  scn: { json: async ({ parts, state }) => (await parts.records(state)).scns.map((scn) => scn.document) },
  incidents: {
    json: async ({ parts, state, input }) =>
      (await parts.records(state)).incidents.filter((i) => seesIncident(input.audience, i.affected_agencies)).map((i) => i.document),
  },
  snapshots: { json: async ({ parts, state, rules }) => ({ ...citing(rules, SNAPSHOTS_RULE), snapshots: await parts.snapshots(state) }) },
};
