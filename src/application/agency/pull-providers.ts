import { inject, injectable } from 'tsyringe';
import { agencyEvents } from '../../domain/agency/agency-events';
import { eventFacts, ocrPeriodEnd, pullFacts, type EventFacts } from '../../domain/agency/provider-status';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import { SVC_UUID_NAMESPACE } from '../../domain/oscal/oscal-run';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { SECURITY_EVENT_SINKS, type DeliveryReport, type SecurityEventSinks } from '../../ports/security-event-sink';
import { UUIDS, type Uuids } from '../../ports/uuids';
import { sortFindings } from '../../domain/agency/verification';
import { ProviderDocuments, storedJson } from './provider-documents';
import { VerifyPull, type VerifyPullInput, type VerifyPullResult } from './verify-pull';
import { AppError, IntegrityError, UnavailableError, UsageError } from '../../domain/errors';
import { holdsRule } from '../../domain/fedramp/relied-rules';
import { packageFileMissing, verifyPackage, type PackageFiles } from '../fedramp/verify-package-directory';
import { SIGNER, type Signer } from '../../ports/signer';
import { isPlainObject } from '../../domain/encoding/json-values';
import type { AgencyProvider, PullSettings } from '../../domain/agency/providers';
import {
  PULLED_DOCUMENT_NAMES,
  PULLED_DOCUMENTS,
  type AgencyFinding,
  type AgencyPull,
  type Delivery,
  type PulledDocument,
  type PullFacts,
  type PulledDocumentName,
  type PublishedPackage,
  type StoredDocument,
  type TlsIdentity,
} from '../../domain/agency/pulled-documents';
import { AGENCY_CONFIG, type AgencyConfig } from '../../ports/agency-config';
import { AGENCY_STORE, type AgencyStore } from '../../ports/agency-store';
import { CLOCK, type Clock } from '../../ports/clock';
import { HASHING, type Hashing } from '../../ports/hashing';
import {
  TRUST_CENTER_CLIENT,
  TrustCenterFailure,
  type TrustCenterClient,
  type TrustCenterResponse,
  type TrustCenterSession,
} from '../../ports/trust-center-client';

/** The Origin svc sends with the public document's request, to see the CORS headers FRC-CSO-JSN asks of it. */
export const PULL_ORIGIN = 'https://agency-grc.invalid';

/** Evidence links checked per pull without --deep: the first, the middle and the last of the SDR's. */
export const EVIDENCE_SAMPLE = 3;

export interface PullProvidersInput {
  /** The providers to pull (default: every configured one). */
  names?: readonly string[];
  /** Check every evidence link of the SDR, not a sample. */
  deep?: boolean;
  /** Accept a trust center's new TLS certificate (after a renewal) instead of refusing the pull. */
  acceptIdentity?: readonly string[];
  /** Send the events here (sink specs); default conmon.sinks of svc.config.json. */
  sinks?: readonly string[];
  /** Told as each provider's pull is recorded, for a progress line. */
  onProvider?: (pull: AgencyPull, summary: string) => void;
}

export interface PullProvidersResult {
  pulls: AgencyPull[];
  /** The events of the pulls (none on a provider's first pull: nothing to compare with). */
  events: ConmonEvent[];
  deliveries: DeliveryReport[];
}

/** The repository type (case-insensitive) of the CPO's `additionalRepositories` entry where the provider publishes its signed package. */
export const PACKAGE_REPOSITORY_TYPE = 'Certification Package';

/** The codes of the findings about the published package: carried with its record when the package is not checked again. */
export const PACKAGE_FINDING_CODES: readonly string[] = ['package-invalid', 'package-elsewhere', 'package-unreachable'];

/** What checking the published package gave: its record (none when the CPO names no package) and its findings. */
interface PackageCheck {
  record?: PublishedPackage;
  findings: AgencyFinding[];
}

/** What a pull found beyond the documents themselves (evidence links), for verification to merge. */
interface Fetched {
  documents: PulledDocument[];
  /** The JSON of the documents fetched anew this pull (the others are read from the store when verified). */
  parsed: Map<PulledDocumentName, unknown>;
  tls?: TlsIdentity;
  error?: string;
  findings: AgencyFinding[];
  /** The published package as checked this pull; absent when it was not (the CPO unchanged without --deep, no answer). */
  package?: PackageCheck;
}

/**
 * `svc agency pull` (DESIGN §14): every certification document of each provider's trust center, conditionally
 * (If-None-Match with the ETag of the bytes held), a bounded number of providers at once, each stored content-addressed
 * with when, from where, the HTTP validators and the TLS identity seen. One provider failing (down, slow, garbage, a
 * changed TLS identity) is recorded for that provider and never replaces its good documents or stops the others.
 */
@injectable()
export class PullProviders {
  constructor(
    @inject(AGENCY_CONFIG) private readonly config: AgencyConfig,
    @inject(AGENCY_STORE) private readonly store: AgencyStore,
    @inject(TRUST_CENTER_CLIENT) private readonly client: TrustCenterClient,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(RUN_SETTINGS) private readonly runSettings: RunSettings,
    @inject(SECURITY_EVENT_SINKS) private readonly sinks: SecurityEventSinks,
    @inject(UUIDS) private readonly uuids: Uuids,
    @inject(SIGNER) private readonly signer: Signer,
    private readonly verifier: VerifyPull,
  ) {}

  async execute(input: PullProvidersInput = {}): Promise<PullProvidersResult> {
    const settings = this.config.settings();
    const providers = selectProviders(settings.providers, input.names, this.config.file);
    const accept = new Set(input.acceptIdentity ?? []);
    for (const name of accept)
      if (!providers.some((p) => p.name === name)) throw new UsageError('agency-unknown-provider', `--accept-identity ${name}: not a provider of this pull`);
    const specs = input.sinks !== undefined && input.sinks.length > 0 ? input.sinks : this.runSettings.conmon.sinks;
    const destinations = this.sinks.open(specs);
    const pulls: AgencyPull[] = new Array(providers.length);
    const events: ConmonEvent[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < providers.length; i = next++) {
        const provider = providers[i]!;
        const [previous] = await this.store.pulls(provider.name, { last: 1 });
        let pull: AgencyPull;
        try {
          pull = await this.pullOne(provider, settings.pull, previous, { deep: input.deep === true, acceptIdentity: accept.has(provider.name) });
        } catch (error) {
          // A provider whose pull could not be made (its stored bytes damaged, a document too odd to verify) is reported
          // for itself: its failure is recorded and the others go on. A bug still stops the command.
          if (!(error instanceof AppError)) throw error;
          pull = await this.recordFailure(provider, previous, error.message);
        }
        pulls[i] = pull;
        if (destinations.length > 0) events.push(...(await this.eventsOf(provider, settings.name, pull, previous)));
        input.onProvider?.(pull, pullSummary(pull));
      }
    };
    await Promise.all(Array.from({ length: Math.min(settings.pull.concurrency, providers.length) }, worker));
    const deliveries = events.length === 0 ? [] : await Promise.all(destinations.map((sink) => sink.deliver(events)));
    return { pulls, events, deliveries };
  }

  /** The events of a pull against the one before (agency-events.ts), read only when a sink is to be told. */
  private async eventsOf(provider: AgencyProvider, agencyName: string | undefined, pull: AgencyPull, previous: AgencyPull | undefined): Promise<ConmonEvent[]> {
    const rules = this.rules.rules();
    const facts = async (p: AgencyPull): Promise<EventFacts> => {
      const documents = new ProviderDocuments(this.store, provider.name, [p]);
      const parsed: Partial<Record<PulledDocumentName, unknown>> = {};
      for (const name of ['public', 'vdr', 'incidents', 'ocr'] as const) parsed[name] = await documents.json(name);
      return eventFacts({
        provider,
        ...(agencyName === undefined ? {} : { agencyName }),
        documents: parsed,
        ...(documents.stored('incidents') === undefined ? {} : { incidentsFetchedAt: documents.stored('incidents')!.stored.fetchedAt }),
        rules,
        now: new Date(p.finished),
      });
    };
    const history = pull.outcome === 'failed' ? await this.store.pulls(provider.name) : [];
    const lastReached = history.findLast((p) => p.outcome !== 'failed');
    return agencyEvents({
      pull,
      ...(previous === undefined || pull.outcome === 'failed' ? {} : { before: await facts(previous) }),
      after: pull.outcome === 'failed' ? { incidents: [], overdue: [] } : await facts(pull),
      ...(lastReached === undefined ? {} : { lastReached }),
      pullSha256: this.hashing.sha256(this.hashing.canonicalize(pull)),
      uuid: (key) => this.uuids.v5(SVC_UUID_NAMESPACE, key),
    });
  }

  private async pullOne(
    provider: AgencyProvider,
    settings: PullSettings,
    previous: AgencyPull | undefined,
    options: { deep: boolean; acceptIdentity: boolean },
  ): Promise<AgencyPull> {
    const started = this.clock.now().toISOString();
    const fetched = await this.fetchAll(provider, settings, previous, options);
    const outcomes = fetched.documents.map((d) => d.outcome);
    const outcome = outcomes.every((o) => o === 'failed') ? 'failed' : outcomes.includes('failed') ? 'partial' : 'ok';
    const tls = fetched.error !== undefined && previous?.tls !== undefined ? previous.tls : (fetched.tls ?? previous?.tls);
    // A failed pull leaves the documents held as current: they are judged again at its time, so what was wrong with them stays said.
    const verified = fetched.documents.some((d) => d.stored !== undefined) ? await this.verify(provider, fetched, previous) : { schemas: [], findings: [] };
    // Not checked this pull: what the last check found stands.
    const published = fetched.package ?? {
      ...(previous?.package === undefined ? {} : { record: previous.package }),
      findings: (previous?.findings ?? []).filter((f) => PACKAGE_FINDING_CODES.includes(f.code)),
    };
    return this.store.appendPull({
      provider: provider.name,
      started,
      finished: this.clock.now().toISOString(),
      url: provider.url,
      ...(provider.fedrampId === undefined ? {} : { fedrampId: provider.fedrampId }),
      ...(tls === undefined ? {} : { tls }),
      outcome,
      ...(fetched.error === undefined ? {} : { error: fetched.error }),
      documents: fetched.documents,
      schemas: verified.schemas,
      findings: sortFindings([...verified.findings, ...fetched.findings, ...published.findings]),
      ...(published.record === undefined ? {} : { package: published.record }),
      facts: await this.factsOf(fetched, previous),
    });
  }

  /**
   * The facts status and diff read (PullFacts): from the JSON fetched this pull, else the previous pull's for the same
   * bytes, else read from the store once (a record written before svc kept them).
   */
  private async factsOf(fetched: Fetched, previous: AgencyPull | undefined): Promise<PullFacts> {
    const fact = async <T>(name: PulledDocumentName, kept: T | undefined, make: (json: unknown) => T | undefined): Promise<T | undefined> => {
      const stored = fetched.documents.find((d) => d.name === name)?.stored;
      if (stored === undefined) return undefined;
      if (fetched.parsed.has(name)) return make(fetched.parsed.get(name));
      if (kept !== undefined && previous?.documents.find((d) => d.name === name)?.stored?.sha256 === stored.sha256) return kept;
      return make(await storedJson(this.store, stored.sha256));
    };
    const ksiStatuses = await fact('sdr', previous?.facts?.ksiStatuses, (sdr) => pullFacts(sdr, undefined).ksiStatuses);
    const ocrPeriod = await fact('ocr', previous?.facts?.ocrPeriodEnd, ocrPeriodEnd);
    return { ...(ocrPeriod === undefined ? {} : { ocrPeriodEnd: ocrPeriod }), ...(ksiStatuses === undefined ? {} : { ksiStatuses }) };
  }

  /** A pull that could not be made, recorded as failed with every document's bytes carried. */
  private recordFailure(provider: AgencyProvider, previous: AgencyPull | undefined, error: string): Promise<AgencyPull> {
    const now = this.clock.now().toISOString();
    const held = new Map((previous?.documents ?? []).map((d) => [d.name, d.stored]));
    return this.store.appendPull({
      provider: provider.name,
      started: now,
      finished: now,
      url: provider.url,
      ...(provider.fedrampId === undefined ? {} : { fedrampId: provider.fedrampId }),
      ...(previous?.tls === undefined ? {} : { tls: previous.tls }),
      outcome: 'failed',
      error,
      documents: PULLED_DOCUMENT_NAMES.map((name) => carried({ name, url: urlOf(provider, name), outcome: 'failed', error, attempts: 0 }, held.get(name))),
      schemas: previous?.schemas ?? [],
      // Not judged again (the pull could not be made): what the previous pull found about the bytes carried still holds.
      findings: previous?.findings ?? [],
      ...(previous?.facts === undefined ? {} : { facts: previous.facts }),
      ...(previous?.package === undefined ? {} : { package: previous.package }),
    });
  }

  /** The pull's current documents checked against FedRAMP's schemas and the rules (VerifyPull), at the pull's time. */
  private async verify(provider: AgencyProvider, fetched: Fetched, previous: AgencyPull | undefined): Promise<VerifyPullResult> {
    const documents: VerifyPullInput['documents'] = {};
    for (const d of fetched.documents) {
      if (d.stored === undefined) continue;
      const sha256 = d.stored.sha256;
      // Bytes held from before are read only if a check needs them (VerifyPull).
      documents[d.name] = { json: fetched.parsed.has(d.name) ? fetched.parsed.get(d.name) : () => storedJson(this.store, sha256), stored: d.stored };
    }
    return this.verifier.verify({
      provider,
      documents,
      now: this.clock.now(),
      ...(previous === undefined ? {} : { previous }),
    });
  }

  private async fetchAll(
    provider: AgencyProvider,
    settings: PullSettings,
    previous: AgencyPull | undefined,
    options: { deep: boolean; acceptIdentity: boolean },
  ): Promise<Fetched> {
    const held = new Map<PulledDocumentName, StoredDocument>();
    for (const d of previous?.documents ?? []) if (d.stored !== undefined) held.set(d.name, d.stored);
    const failAll = (error: string, attempts: number, documents: PulledDocument[] = []): Fetched => ({
      documents: PULLED_DOCUMENT_NAMES.map(
        (name) => documents.find((d) => d.name === name) ?? carried({ name, url: urlOf(provider, name), outcome: 'failed', error, attempts }, held.get(name)),
      ),
      error,
      parsed: new Map(),
      findings: [],
    });
    let session: TrustCenterSession;
    try {
      session = this.client.open(provider, settings);
    } catch (error) {
      if (error instanceof TrustCenterFailure) return failAll(error.message, 0);
      throw error;
    }
    try {
      // The open document first: it shows the TLS identity before anything of the agency's is sent, and a changed
      // identity is refused before its bytes are stored.
      const trusted = previous?.tls;
      const changed = (seen: TlsIdentity | undefined): string | undefined =>
        seen !== undefined && trusted !== undefined && seen.fingerprint256 !== trusted.fingerprint256 && !options.acceptIdentity
          ? `${provider.url}: the trust center's TLS identity changed (certificate SHA-256 ${trusted.fingerprint256} at pull ${previous!.seq}, now ${seen.fingerprint256}, issued by ${seen.issuer}); if the provider renewed its certificate, run svc agency pull ${provider.name} --accept-identity ${provider.name}`
          : undefined;
      const first = await this.fetchDocument(session, provider, 'public', held.get('public'), changed);
      if (first.refused !== undefined) return failAll(first.refused, first.document.attempts);
      // Without an answer to the open document the identity is unknown: nothing of the agency's is asked.
      if (first.failure !== undefined) return failAll(first.failure.message, first.document.attempts, [first.document]);
      const seen = first.tls;
      // Every later answer must come from the certificate the open document showed (a connection may be re-made).
      const same = (tls: TlsIdentity | undefined): string | undefined =>
        seen !== undefined && tls !== undefined && tls.fingerprint256 !== seen.fingerprint256
          ? `${provider.url}: answered with another TLS certificate (SHA-256 ${tls.fingerprint256}) than the public information's (${seen.fingerprint256}) within one pull; nothing of it is kept`
          : undefined;
      const rest = await Promise.all(
        PULLED_DOCUMENT_NAMES.filter((name) => name !== 'public').map((name) => this.fetchDocument(session, provider, name, held.get(name), same)),
      );
      const documents = [first.document, ...rest.map((r) => r.document)];
      const parsed = new Map([first, ...rest].flatMap((r) => (r.json === undefined ? [] : [[r.document.name, r.json] as const])));
      // A sample of the links when the SDR changed; every link with --deep, changed or not.
      const sdr = documents.find((d) => d.name === 'sdr')?.stored;
      const links = parsed.get('sdr') ?? (options.deep && sdr !== undefined ? await storedJson(this.store, sdr.sha256) : undefined);
      const findings = await this.checkEvidenceLinks(session, provider, links, options.deep);
      // The signed package the CPO publishes, when the CPO changed; every pull with --deep.
      const cpo = documents.find((d) => d.name === 'cpo')?.stored;
      const overview = parsed.get('cpo') ?? (options.deep && cpo !== undefined ? await storedJson(this.store, cpo.sha256) : undefined);
      const published = overview === undefined ? undefined : await this.checkPackage(session, provider, overview);
      return { documents, parsed, ...(seen === undefined ? {} : { tls: seen }), findings, ...(published === undefined ? {} : { package: published }) };
    } finally {
      session.close();
    }
  }

  private async fetchDocument(
    session: TrustCenterSession,
    provider: AgencyProvider,
    name: PulledDocumentName,
    held: StoredDocument | undefined,
    refuse?: (tls: TlsIdentity | undefined) => string | undefined,
  ): Promise<{ document: PulledDocument; tls?: TlsIdentity; failure?: TrustCenterFailure; json?: unknown; refused?: string }> {
    const url = urlOf(provider, name);
    let response: TrustCenterResponse;
    try {
      response = await session.get({ url, ...(held?.etag === undefined ? {} : { etag: held.etag }), ...(name === 'public' ? { origin: PULL_ORIGIN } : {}) });
    } catch (error) {
      if (!(error instanceof TrustCenterFailure)) throw error;
      return { document: carried({ name, url, outcome: 'failed', error: error.message, attempts: error.attempts }, held), failure: error };
    }
    const base = { name, url, status: response.status, attempts: response.attempts };
    const tls = response.tls === undefined ? {} : { tls: response.tls };
    const refused = refuse?.(response.tls);
    if (refused !== undefined) return { document: carried({ ...base, outcome: 'failed', error: refused }, held), ...tls, refused };
    if (response.status === 304) {
      if (held !== undefined) return { document: { ...base, outcome: 'unchanged', stored: held }, ...tls };
      return { document: { ...base, outcome: 'failed', error: `${url}: 304 Not Modified to a request without If-None-Match` }, ...tls };
    }
    if (response.status === 401 || response.status === 403)
      return { document: carried({ ...base, outcome: 'denied', error: `${url}: ${response.status} ${problemDetail(response)}` }, held), ...tls };
    if (response.status === 404) return { document: carried({ ...base, outcome: 'absent' }, held), ...tls };
    if (response.status !== 200) return { document: carried({ ...base, outcome: 'failed', error: `${url}: HTTP ${response.status}` }, held), ...tls };
    const parsed = parseJson(response.body);
    if ('problem' in parsed) return { document: carried({ ...base, outcome: 'failed', error: `${url}: ${parsed.problem}` }, held), ...tls };
    const sha256 = await this.store.putDocument(response.body);
    const stored: StoredDocument = {
      sha256,
      bytes: response.body.byteLength,
      url,
      fetchedAt: this.clock.now().toISOString(),
      ...(response.headers.etag === undefined ? {} : { etag: response.headers.etag }),
      ...(response.headers['last-modified'] === undefined ? {} : { lastModified: response.headers['last-modified'] }),
      delivery: deliveryOf(response),
    };
    return { document: { ...base, outcome: 'fetched', stored }, ...tls, json: parsed.json };
  }

  /**
   * The SDR's evidence links under the trust center's base: a sample (the first, middle and last), or all with --deep.
   * A link must answer 200, and where its last segment is a SHA-256 (svc-api's /fedramp/evidence/{sha256}) the bytes
   * must hash to it. Links elsewhere are not fetched with the agency's credentials.
   */
  private async checkEvidenceLinks(session: TrustCenterSession, provider: AgencyProvider, sdr: unknown, deep: boolean): Promise<AgencyFinding[]> {
    if (sdr === undefined) return [];
    const sample = evidenceSample(sdr, `${provider.url}/`, deep);
    const findings: AgencyFinding[] = [];
    for (const link of sample) {
      const problem = await this.evidenceProblem(session, link.url);
      if (problem !== undefined)
        findings.push({
          level: 'action',
          rule: 'svc:evidence-links',
          code: 'evidence-link-broken',
          document: 'sdr',
          at: link.at,
          message: `${link.url}: ${problem}`,
        });
    }
    return findings;
  }

  /**
   * The certification package the CPO publishes (packageRepository), fetched through the trust center's session and
   * verified in memory as `svc ir validate` verifies a package directory (verifyPackage): the envelope's signature with
   * the key it carries, then every file the signed statement and the manifest name against its SHA-256. A package on
   * another origin than the trust center's is not fetched (the agency's credentials go to the trust center only): a
   * notice. One that cannot be fetched is a notice; one that does not verify an action naming the first mismatch.
   */
  private async checkPackage(session: TrustCenterSession, provider: AgencyProvider, cpo: unknown): Promise<PackageCheck> {
    const url = packageRepository(cpo);
    if (url === undefined) return { findings: [] };
    const rules = this.rules.rules();
    const rule = holdsRule(rules, PACKAGE_RULE) ? PACKAGE_RULE : 'svc:package';
    const at = url.at;
    const finding = (level: AgencyFinding['level'], code: string, message: string): AgencyFinding => ({ level, rule, code, document: 'cpo', at, message });
    const origin = originOf(url.url);
    if (origin === undefined || origin !== originOf(provider.url)) {
      const error = `${url.url}: the certification package is not on the trust center's origin (${originOf(provider.url) ?? provider.url}); not fetched, so the agency's credentials go nowhere else: download it and run svc ir validate on its directory`;
      return { record: { url: url.url, verified: false, files: 0, error }, findings: [finding('notice', 'package-elsewhere', error)] };
    }
    let read = 0;
    const files: PackageFiles = {
      base: url.url,
      read: async (name) => {
        const fileUrl = `${url.url}/${encodeURIComponent(name)}`;
        let response: TrustCenterResponse;
        try {
          response = await session.get({ url: fileUrl });
        } catch (error) {
          if (error instanceof TrustCenterFailure) throw new UnavailableError('package-unreachable', error.message);
          throw error;
        }
        if (response.status === 404) throw packageFileMissing(url.url, name);
        if (response.status !== 200)
          throw new UnavailableError(
            'package-unreachable',
            `${fileUrl}: HTTP ${response.status}${response.status === 401 || response.status === 403 ? ` ${problemDetail(response)}` : ''}`,
          );
        read += 1;
        return { text: new TextDecoder().decode(response.body), sha256: this.hashing.sha256(response.body), bytes: response.body.byteLength };
      },
    };
    try {
      const verified = await verifyPackage(files, this.hashing, this.signer);
      return { record: { url: url.url, verified: true, files: verified.files, keyid: verified.keyid }, findings: [] };
    } catch (error) {
      const invalid = error instanceof IntegrityError;
      if (!invalid && !(error instanceof UnavailableError && error.code === 'package-unreachable')) throw error;
      const message = invalid
        ? error.message
        : `${(error as Error).message}; the certification package at ${url.url} could not be read, so it was not verified`;
      return {
        record: { url: url.url, verified: false, files: read, error: message },
        findings: [invalid ? finding('action', 'package-invalid', message) : finding('notice', 'package-unreachable', message)],
      };
    }
  }

  private async evidenceProblem(session: TrustCenterSession, url: string): Promise<string | undefined> {
    try {
      const response = await session.get({ url });
      if (response.status !== 200) return `HTTP ${response.status}`;
      const named = /\/([0-9a-f]{64})$/.exec(url)?.[1];
      if (named !== undefined && this.hashing.sha256(response.body) !== named)
        return `the bytes served hash to ${this.hashing.sha256(response.body)}, not the SHA-256 the link names`;
      return undefined;
    } catch (error) {
      if (error instanceof TrustCenterFailure) return error.message;
      throw error;
    }
  }
}

/** The rule a provider's certification package answers to, where the rules release holds it. */
const PACKAGE_RULE = 'FRC-CSO-PKG';

/**
 * The base URL of the signed certification package a CPO publishes, with its JSON path: the first repository of
 * `serviceProperties.additionalRepositories` (FedRAMP's `$defs/repository`) whose `repositoryType` holds
 * PACKAGE_REPOSITORY_TYPE (case-insensitive), its `url` without a trailing slash; undefined when none does.
 */
export function packageRepository(cpo: unknown): { url: string; at: string } | undefined {
  const properties = isPlainObject(cpo) && isPlainObject(cpo.serviceProperties) ? cpo.serviceProperties : undefined;
  const repositories = properties !== undefined && Array.isArray(properties.additionalRepositories) ? properties.additionalRepositories : [];
  const wanted = PACKAGE_REPOSITORY_TYPE.toLowerCase();
  for (const [i, r] of repositories.entries()) {
    if (!isPlainObject(r) || typeof r.url !== 'string' || !Array.isArray(r.repositoryType)) continue;
    if (r.repositoryType.some((t) => typeof t === 'string' && t.trim().toLowerCase() === wanted))
      return { url: r.url.replace(/\/+$/, ''), at: `$.serviceProperties.additionalRepositories[${i}].url` };
  }
  return undefined;
}

/** `scheme://host[:port]` of an http(s) URL, or undefined when it is none. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The configured providers named (every one when none is), or a usage error naming the unknown ones. */
export function selectProviders(providers: readonly AgencyProvider[], names: readonly string[] | undefined, file: string): AgencyProvider[] {
  if (providers.length === 0)
    throw new UsageError('agency-no-providers', `${file}: agency.providers names no provider; add one with svc agency add <name> --url <trust center>`);
  if (names === undefined || names.length === 0) return [...providers];
  const unknown = names.filter((n) => !providers.some((p) => p.name === n));
  if (unknown.length > 0)
    throw new UsageError(
      'agency-unknown-provider',
      `${unknown.join(', ')}: not ${unknown.length === 1 ? 'a provider' : 'providers'} of ${file} (known: ${providers.map((p) => p.name).join(', ')}); add one with svc agency add`,
    );
  return providers.filter((p) => names.includes(p.name));
}

/** The document's URL under the provider's base. */
export function urlOf(provider: AgencyProvider, name: PulledDocumentName): string {
  return `${provider.url}${PULLED_DOCUMENTS[name].path}`;
}

/** The outcome with the bytes held carried forward: a failure never replaces good data. */
function carried(document: PulledDocument, held: StoredDocument | undefined): PulledDocument {
  return held === undefined ? document : { ...document, stored: held };
}

function deliveryOf(response: TrustCenterResponse): Delivery {
  const h = response.headers;
  return {
    ...(h['content-type'] === undefined ? {} : { contentType: h['content-type'] }),
    nosniff: (h['x-content-type-options'] ?? '').toLowerCase() === 'nosniff',
    ...(h['access-control-allow-origin'] === undefined ? {} : { cors: h['access-control-allow-origin'] }),
  };
}

/** The body's JSON, or why it is none. */
function parseJson(body: Uint8Array): { json: unknown } | { problem: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { problem: 'the body is not UTF-8 text' };
  }
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `the body is not JSON (${(error as Error).message})` };
  }
}

/** The `detail` of a problem+json answer, else its title, else nothing. */
function problemDetail(response: TrustCenterResponse): string {
  try {
    const body = JSON.parse(Buffer.from(response.body).toString('utf8')) as unknown;
    if (isPlainObject(body) && typeof body.detail === 'string') return body.detail.slice(0, 300);
    if (isPlainObject(body) && typeof body.title === 'string') return body.title.slice(0, 300);
  } catch {
    // not JSON: the status says it
  }
  return response.status === 401 ? 'Unauthorized' : 'Forbidden';
}

/** Every `evidenceLocation` of an SDR's KSIs, with its JSON path. */
export function evidenceLinks(sdr: unknown): { url: string; at: string }[] {
  if (!isPlainObject(sdr) || !Array.isArray(sdr.keySecurityIndicators)) return [];
  return sdr.keySecurityIndicators.flatMap((ksi, i) =>
    isPlainObject(ksi) && Array.isArray(ksi.ksiEvidence)
      ? ksi.ksiEvidence.flatMap((e, j) =>
          isPlainObject(e) && typeof e.evidenceLocation === 'string'
            ? [{ url: e.evidenceLocation, at: `$.keySecurityIndicators[${i}].ksiEvidence[${j}].evidenceLocation` }]
            : [],
        )
      : [],
  );
}

/**
 * The evidence links under `base` to check: every one when `all`, else the first, the middle and the last. Counted
 * first and only those made (an SDR of 46 KSIs × 1,000 entries would otherwise make 46,000 paths to keep three).
 */
export function evidenceSample(sdr: unknown, base: string, all: boolean): { url: string; at: string }[] {
  if (all) return evidenceLinks(sdr).filter((l) => l.url.startsWith(base));
  const ksis = isPlainObject(sdr) && Array.isArray(sdr.keySecurityIndicators) ? sdr.keySecurityIndicators : [];
  const each = (visit: (url: string, i: number, j: number) => void) =>
    ksis.forEach((ksi, i) => {
      if (isPlainObject(ksi) && Array.isArray(ksi.ksiEvidence))
        ksi.ksiEvidence.forEach((e, j) => {
          if (isPlainObject(e) && typeof e.evidenceLocation === 'string' && e.evidenceLocation.startsWith(base)) visit(e.evidenceLocation, i, j);
        });
    });
  let count = 0;
  each(() => count++);
  const picked = new Set(count <= EVIDENCE_SAMPLE ? Array.from({ length: count }, (_, k) => k) : [0, Math.floor(count / 2), count - 1]);
  const sample: { url: string; at: string }[] = [];
  let k = 0;
  each((url, i, j) => {
    if (picked.has(k++)) sample.push({ url, at: `$.keySecurityIndicators[${i}].ksiEvidence[${j}].evidenceLocation` });
  });
  return sample;
}

/** The progress line of one provider: `acme: 11 documents (3 fetched, 8 unchanged) in 0.4 s`, or what failed. */
export function pullSummary(pull: AgencyPull): string {
  const counts = new Map<string, number>();
  for (const d of pull.documents) counts.set(d.outcome, (counts.get(d.outcome) ?? 0) + 1);
  const parts = ['fetched', 'unchanged', 'absent', 'denied', 'failed'].flatMap((o) => (counts.has(o) ? [`${counts.get(o)} ${o}`] : []));
  const seconds = ((Date.parse(pull.finished) - Date.parse(pull.started)) / 1000).toFixed(1);
  if (pull.outcome === 'failed')
    return `${pull.provider}: pull ${pull.seq} failed: ${pull.error ?? pull.documents.find((d) => d.error)?.error ?? 'no document came'}`;
  return `${pull.provider}: pull ${pull.seq}, ${pull.documents.length} documents (${parts.join(', ')}) in ${seconds} s`;
}
