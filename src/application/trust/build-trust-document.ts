import { inject, injectable } from 'tsyringe';
import { CR26_DOCUMENTS, type Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
import { ConfigError, InvalidInputError, NotFoundError } from '../../domain/errors';
import { OCR_KIND } from '../../domain/fedramp/ongoing-records';
import { requireProfileKeys } from '../../domain/fedramp/profile';
import { PUBLIC_RULE, publicInformation, type TrustCenterListing } from '../../domain/trust/public-information';
import { AUDIENCE_DOCUMENTS, audienceKey, incidentAgencies, ocrForAudience, seesIncident, withheldIncident, type IncidentAudience } from '../../domain/trust/audience';
import { trustPage, type TrustPageFact } from '../../domain/trust/trust-page';
import { currentVulnerabilityReports } from '../../domain/vulnerabilities/vulnerability-reports';
import { FedrampShapes } from '../fedramp/fedramp-documents';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { TRUST_PAGES, type TrustPages } from '../../ports/trust-pages';
import { BuildCpo, type BuildCpoResult } from '../fedramp/build-cpo';
import { SdrBuilder, type BuiltSdr } from '../fedramp/sdr-builder';
import { OngoingJournal, type OngoingRecords } from '../fedramp/ongoing-journal';
import { registerOffers, VulnerabilityRegister, type Register } from '../vulnerabilities/vulnerability-register';
import { SnapshotStore, type SnapshotBounds } from './snapshot-store';
import { StoreState, type TrustStoreState } from './store-state';
import type { Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { citedTitle, citing, holdsRule, reliedRule } from '../../domain/fedramp/relied-rules';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { METRICS_RULE } from '../fedramp/cr26-assessment';

/** The rule the snapshots answer (cited only where the release in use holds it). */
const SNAPSHOTS_RULE = reliedRule('CDS-CSO-HAD');

/** The documents of the trust center (DESIGN §12.7), by the name of their route (`/fedramp/<name>`). */
export const TRUST_DOCUMENTS = ['public', 'cpo', 'sdr', 'ocr', 'vdr', 'avi', 'history', 'scn', 'metrics', 'incidents', 'snapshots'] as const;
export type TrustDocumentName = (typeof TRUST_DOCUMENTS)[number];

/** The documents `?snapshot=` serves as they were at an OCR (CDS-CSO-HAD): all but the public information and the list of snapshots. */
export const SNAPSHOT_DOCUMENTS = TRUST_DOCUMENTS.filter((d) => d !== 'public' && d !== 'snapshots');

/**
 * Each document's title, FedRAMP's schema it (or, for a list, each item) is valid against, and what a list's items are
 * called on its page. The metrics are the SDR's `ksiMetrics`; the snapshots are svc's own list.
 */
export const TRUST_DOCUMENT_INFO: Record<TrustDocumentName, { title: string; rules?: readonly string[]; schema?: Cr26DocumentType; item?: string }> = {
  public: { title: 'Public Information', rules: [PUBLIC_RULE], schema: 'cpo' },
  cpo: { title: CR26_DOCUMENTS.cpo.title, schema: 'cpo' },
  sdr: { title: CR26_DOCUMENTS.sdr.title, schema: 'sdr' },
  ocr: { title: CR26_DOCUMENTS.ocr.title, schema: 'ocr' },
  vdr: { title: CR26_DOCUMENTS.vdr.title, schema: 'vdr' },
  avi: { title: CR26_DOCUMENTS.avi.title, schema: 'avi' },
  history: { title: CR26_DOCUMENTS.history.title, schema: 'history' },
  scn: { title: 'Significant Change Notifications', schema: 'scn', item: 'Notification' },
  metrics: { title: 'Key Security Indicator Metrics', rules: [METRICS_RULE] },
  incidents: { title: 'Incident Reports', schema: 'incident', item: 'Incident report' },
  snapshots: { title: 'Snapshots of the Certification Data', rules: [SNAPSHOTS_RULE] },
};

/** A document's title, citing its rules the release in use holds: `Public Information (CDS-CSO-PUB)`. */
export function trustDocumentTitle(name: TrustDocumentName, rules: Pick<Cr26Rules, 'rules'>): string {
  const info = TRUST_DOCUMENT_INFO[name];
  return citedTitle(rules, info.title, info.rules ?? []);
}

export type { IncidentAudience } from '../../domain/trust/audience';

/** One OCR's snapshot, as /fedramp/snapshots lists it. */
export interface TrustSnapshot {
  /** YYYY-MM-DD: the OCR's period end, what `?snapshot=` names. */
  snapshot: string;
  period: { from: string; to: string };
  recordedAt: string;
  nextReportDate: string;
  /** The latest run then (absent when none was recorded) and the OCR's journal entry: where the snapshot stops. */
  runSeq?: number;
  journalSeq: number;
  /** The routes that serve the snapshot. */
  documents: string[];
}

export type TrustFormat = 'json' | 'html';

export interface BuildTrustDocumentInput {
  document: TrustDocumentName;
  format: TrustFormat;
  /** The routes and authentication methods /fedramp/public lists: the same for the life of the process. */
  listing: TrustCenterListing;
  /** For `incidents` and `ocr` (AUDIENCE_DOCUMENTS, domain/trust/audience.ts): whose incidents they show (default: none). */
  audience?: IncidentAudience;
  /** The OCR period end a snapshot's page names (this instance then reads a SnapshotStore). */
  snapshot?: string;
}

/** One representation of a document, as bytes: served as they are, with their SHA-256 as ETag and Content-Digest. */
export interface TrustRepresentation {
  document: TrustDocumentName;
  format: TrustFormat;
  mediaType: string;
  body: Uint8Array;
  /** Lowercase hex SHA-256 of `body`. */
  sha256: string;
  /** The store state it was built from. */
  state: TrustStoreState;
}

/** The svc command the documents and messages name as their source. */
const SOURCE = 'trust center (svc-api)';

/**
 * A trust-center document (DESIGN §12.7) as JSON (RFC 8785 canonical, the document exactly as FedRAMP's schema has it)
 * or as the human-readable page made from the same JSON (CDS-CSO-CBF), built from the run store and the offering's
 * profile with the use cases the CLI uses: the CPO by BuildCpo, the SDR of the latest run by SdrBuilder, the OCR as the latest recorded one, the VDR, AVI and
 * history from the vulnerability register, the SCNs as recorded. Documents are as of the store's last write
 * (StoreState), and built once per store state: until something is recorded, every request gets the same bytes, and
 * one instance keeps them for the life of the process.
 *
 * Throws NotFoundError `no-ocr-recorded` for the OCR before one is recorded, `no-run-recorded` for the SDR before a run is; a profile key a document needs and lacks,
 * or a profile whose CPO FedRAMP's schema rejects, is a ConfigError `invalid-config` naming svc.config.json and the key
 * (the server's configuration, not the caller's request, is at fault).
 */
@injectable()
export class BuildTrustDocument {
  private built: { key: string; parts: Map<string, Promise<unknown>> } = { key: '', parts: new Map() };

  constructor(
    private readonly state: StoreState,
    private readonly cpo: BuildCpo,
    private readonly sdr: SdrBuilder,
    private readonly journal: OngoingJournal,
    private readonly register: VulnerabilityRegister,
    private readonly shapes: FedrampShapes,
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
    @inject(RUN_STORE) private readonly store: RunStore,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(TRUST_PAGES) private readonly pages: TrustPages,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rulesSource: FedrampRulesSource,
  ) {}

  async execute(input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    return this.representation(await this.current(), input);
  }

  /**
   * One representation, built once per store state under a key made of everything that decides its bytes: the
   * document, the format and, for AUDIENCE_DOCUMENTS, the audience (a snapshot has an instance of its own). The page
   * is made from the JSON representation of the same key, so it can never show another audience's JSON.
   */
  private representation(state: TrustStoreState, input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    return this.once(state, representationKey(input), () => (input.format === 'json' ? this.json(state, input) : this.html(state, input)));
  }

  /** The OCR snapshots recorded (CDS-CSO-HAD), oldest first. */
  async snapshots(): Promise<TrustSnapshot[]> {
    return this.snapshotsOf(await this.current());
  }

  /**
   * Where the snapshot of the OCR whose period ends `periodEnd` stops: the OCR recorded last for that period end.
   * NotFoundError `no-such-snapshot` when none was.
   */
  async snapshotBounds(periodEnd: string): Promise<SnapshotBounds> {
    const found = (await this.snapshots()).filter((s) => s.snapshot === periodEnd).at(-1);
    if (found === undefined) throw new NotFoundError('no-such-snapshot', `no Ongoing Certification Report with the period ending ${periodEnd} is recorded, so there is no snapshot of it; GET /fedramp/snapshots lists the snapshots`);
    return { ...(found.runSeq === undefined ? {} : { run_seq: found.runSeq }), journal_seq: found.journalSeq };
  }

  /**
   * The store's state, advanced past the due times that have passed since the last write (StoreState.current); a
   * snapshot's store never changes, and neither do its documents.
   */
  private current(): Promise<TrustStoreState> {
    return this.store instanceof SnapshotStore ? this.state.current() : this.state.current((state) => this.nextChange(state));
  }

  /** When the register's judgments next change by time alone; none when the register cannot be judged (its routes say why). */
  private nextChange(state: TrustStoreState): Promise<number | undefined> {
    return this.judged(state).then(
      (register) => this.register.nextChange(register),
      () => undefined,
    );
  }

  /**
   * `make()` once per store state and part: a new state drops what the last one built. A failure is kept only when it
   * is NotFoundError (the store holds no OCR, which only a write changes); anything else is tried again next time.
   */
  private once<T>(state: TrustStoreState, part: string, make: () => Promise<T>): Promise<T> {
    if (this.built.key !== state.key) this.built = { key: state.key, parts: new Map() };
    const parts = this.built.parts;
    let hit = parts.get(part) as Promise<T> | undefined;
    if (hit === undefined) {
      hit = make().catch((error: unknown) => {
        if (!(error instanceof NotFoundError) && parts.get(part) === hit) parts.delete(part);
        throw serverConfiguration(error);
      });
      parts.set(part, hit);
    }
    return hit;
  }

  private async json(state: TrustStoreState, input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    const document = await this.document(state, input);
    const body = new TextEncoder().encode(this.hashing.canonicalize(document));
    return { document: input.document, format: 'json', mediaType: 'application/json', body, sha256: this.hashing.sha256(body), state };
  }

  private async html(state: TrustStoreState, input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    const json = await this.representation(state, { ...input, format: 'json' });
    // The page shows the JSON representation's own data (plain arrays where the SDR streams its evidence), built once.
    const document: unknown = JSON.parse(new TextDecoder().decode(json.body));
    const { profile } = this.profile;
    const rules = this.rulesSource.rules();
    const facts: TrustPageFact[] = [
      ...(profile.fedramp_id === undefined ? [] : [{ label: 'FedRAMP ID', value: profile.fedramp_id, code: true }]),
      ...(profile.package_uri === undefined ? [] : [{ label: 'Certification Package Overview', value: profile.package_uri }]),
      ...(input.snapshot === undefined ? [] : [{ label: 'Snapshot', value: citedTitle(rules, `as of the Ongoing Certification Report for the period ending ${input.snapshot}`, [SNAPSHOTS_RULE]) }]),
      { label: 'As of', value: state.asOf },
      ...(input.document === 'public' ? [] : [{ label: 'Run store', value: `${state.run === undefined ? 'no run recorded' : `run ${state.run.seq}`}, journal entry ${state.journal.seq}` }]),
      { label: 'JSON (same data)', value: `sha256:${json.sha256}`, code: true },
    ];
    const title = trustDocumentTitle(input.document, rules);
    const { item } = TRUST_DOCUMENT_INFO[input.document];
    const names = await this.names(state, input.document);
    const page = trustPage({ title, facts, document, ...(item === undefined ? {} : { item }), ...(names === undefined ? {} : { names }), generatedAt: state.asOf, tool: this.settings.tool });
    const body = new TextEncoder().encode(this.pages.page(page));
    return { document: input.document, format: 'html', mediaType: 'text/html; charset=utf-8', body, sha256: this.hashing.sha256(body), state };
  }

  /** FedRAMP's names of the rules and KSIs the SDR and its metrics list by id, for their pages. */
  private async names(state: TrustStoreState, document: TrustDocumentName): Promise<Map<string, string> | undefined> {
    if (document !== 'sdr' && document !== 'metrics') return undefined;
    const { rules } = (await this.builtSdr(state)).model.input;
    return new Map([...rules.rules, ...rules.ksis].map((r) => [r.id, r.name]));
  }

  /** The JSON document itself. */
  private async document(state: TrustStoreState, input: BuildTrustDocumentInput): Promise<unknown> {
    switch (input.document) {
      case 'public': {
        const built = await this.builtCpo(state);
        return publicInformation(built.cpo.document, built.profile.class, input.listing, this.rulesSource.rules());
      }
      case 'cpo':
        return (await this.builtCpo(state)).cpo.document;
      case 'sdr':
        return (await this.builtSdr(state)).model.document;
      case 'metrics': {
        const { model } = await this.builtSdr(state);
        const { profile } = model.input;
        const metrics = model.document.ksiMetrics;
        if (metrics === undefined && !holdsRule(model.input.rules, METRICS_RULE)) throw new NotFoundError('no-ksi-metrics', `CR26 ${model.input.rules.info.version} holds no ${METRICS_RULE}: the SDR carries no KSI metrics under it`);
        if (metrics === undefined) throw new NotFoundError('no-ksi-metrics', `the offering is ${profile.type} Class ${profile.class}: KSI metrics (${METRICS_RULE}) are kept for 20x offerings only`);
        return { certificationPackageOverviewUri: profile.package_uri, ...(profile.fedramp_id === undefined ? {} : { fedRampPackageId: profile.fedramp_id }), certificationClass: profile.class, rule: METRICS_RULE, asOf: state.asOf, ksiMetrics: metrics };
      }
      case 'incidents': {
        const { incidents } = await this.records(state);
        return incidents.filter((i) => seesIncident(input.audience, i.affected_agencies)).map((i) => i.document);
      }
      case 'snapshots':
        return { ...citing(this.rulesSource.rules(), SNAPSHOTS_RULE), snapshots: await this.snapshotsOf(state) };
      case 'ocr': {
        const records = await this.records(state);
        const latest = records.ocrs.at(-1);
        if (latest === undefined) throw new NotFoundError('no-ocr-recorded', 'no Ongoing Certification Report is recorded yet; the provider records one with svc fedramp ocr --to <period end>');
        return ocrForAudience(latest.document, incidentAgencies(records.incidents), input.audience, withheldIncident(this.rulesSource.rules()));
      }
      case 'scn':
        return (await this.records(state)).scns.map((scn) => scn.document);
      default:
        return (await this.vulnerabilityReports(state))[input.document];
    }
  }

  private async builtSdr(state: TrustStoreState): Promise<BuiltSdr> {
    const built = await this.once(state, 'sdr.built', () => this.sdr.buildLatest({ now: new Date(state.asOf) }, { command: `svc ${SOURCE}`, jsonName: 'sdr.json' }));
    if (built === undefined) throw new NotFoundError('no-run-recorded', 'no run is recorded yet, so there is no Security Decision Record; the provider records one with svc conmon process <report>');
    return built;
  }

  private snapshotsOf(state: TrustStoreState): Promise<TrustSnapshot[]> {
    return this.once(state, 'snapshots', async () =>
      (await this.journal.entries(OCR_KIND)).map(({ seq, recorded_at, record }) => ({
        snapshot: record.period.to,
        period: record.period,
        recordedAt: recorded_at,
        nextReportDate: record.next_report_date,
        ...(record.snapshot.run_seq === undefined ? {} : { runSeq: record.snapshot.run_seq }),
        journalSeq: seq,
        documents: SNAPSHOT_DOCUMENTS.map((d) => `/fedramp/${d}?snapshot=${record.period.to}`),
      })),
    );
  }

  private builtCpo(state: TrustStoreState): Promise<BuildCpoResult> {
    return this.once(state, 'cpo.built', () => this.cpo.execute({ now: new Date(state.asOf), command: SOURCE }));
  }

  private records(state: TrustStoreState): Promise<OngoingRecords> {
    return this.once(state, 'journal', () => this.journal.read());
  }

  /** The VDR, AVI and history as of the store state, from the register judged then, as `fedramp package` builds them. */
  private vulnerabilityReports(state: TrustStoreState): Promise<ReturnType<typeof currentVulnerabilityReports>> {
    return this.once(state, 'vulnerabilities', async () => {
      const { package_uri } = requireProfileKeys(this.profile, ['class', 'package_uri'], `svc ${SOURCE}`);
      const register = await this.judged(state);
      return currentVulnerabilityReports({ packageUri: package_uri, groups: register.groups, now: register.now, offers: registerOffers(register, await this.shapes.of()) });
    });
  }

  /** The vulnerability register judged as of the state. */
  private judged(state: TrustStoreState): Promise<Register> {
    return this.once(state, 'register', () => this.register.judge({ now: new Date(state.asOf) }, `svc ${SOURCE}`));
  }
}

/**
 * The cache key of a representation: the document, the audience where it decides the content (AUDIENCE_DOCUMENTS),
 * and the format. Every cache of trust-center bytes keys by it (a snapshot's adds the snapshot), so none can serve one
 * audience what it built for another.
 */
export function representationKey(input: BuildTrustDocumentInput): string {
  const audience = AUDIENCE_DOCUMENTS.includes(input.document) ? `[${audienceKey(input.audience)}]` : '';
  return `${input.document}${audience}.${input.format}`;
}

/** A profile the documents cannot be built from is the server's configuration error (500), not the caller's (400). */
function serverConfiguration(error: unknown): unknown {
  return error instanceof InvalidInputError && error.code === 'invalid-config' ? new ConfigError(error.code, error.message, { cause: error }) : error;
}
