import { inject, injectable } from 'tsyringe';
import { NotFoundError } from '../../domain/errors';
import { AUDIENCE_DOCUMENTS, audienceKey } from '../../domain/trust/audience';
import { trustPage, type TrustPageFact } from '../../domain/trust/trust-page';
import { citedTitle } from '../../domain/fedramp/relied-rules';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { TRUST_PAGES, type TrustPages } from '../../ports/trust-pages';
import type { SnapshotBounds } from './snapshot-store';
import { StoreState, type TrustStoreState } from './store-state';
import { TRUST_DOCUMENT_BUILDERS } from './trust-builders';
import {
  SNAPSHOTS_RULE,
  TRUST_DOCUMENT_INFO,
  trustDocumentTitle,
  type BuildTrustDocumentInput,
  type TrustDocumentName,
  type TrustFormat,
  type TrustSnapshot,
} from './trust-documents';
import { TrustParts } from './trust-parts';

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

/**
 * A trust-center document (DESIGN §12.7) as JSON (RFC 8785 canonical, the document exactly as FedRAMP's schema has it)
 * or as the human-readable page made from the same JSON (CDS-CSO-CBF): each document by its builder
 * (TRUST_DOCUMENT_BUILDERS), from the parts every document shares (TrustParts). Documents are as of the store's last
 * write (StoreState; a snapshot's container binds a FrozenStoreState), and built once per store state: until something
 * is recorded, every request gets the same bytes, and one instance keeps them for the life of the process.
 *
 * Throws NotFoundError `no-ocr-recorded` for the OCR before one is recorded, `no-run-recorded` for the SDR before a run is; a profile key a document needs and lacks,
 * or a profile whose CPO FedRAMP's schema rejects, is a ConfigError `invalid-config` naming svc.config.json and the key
 * (the server's configuration, not the caller's request, is at fault).
 */
@injectable()
export class BuildTrustDocument {
  constructor(
    private readonly state: StoreState,
    private readonly parts: TrustParts,
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(TRUST_PAGES) private readonly pages: TrustPages,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rulesSource: FedrampRulesSource,
  ) {}

  async execute(input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    return this.representation(await this.current(), input);
  }

  /** The OCR snapshots recorded (CDS-CSO-HAD), oldest first. */
  async snapshots(): Promise<TrustSnapshot[]> {
    return this.parts.snapshots(await this.current());
  }

  /**
   * Where the snapshot of the OCR whose period ends `periodEnd` stops: the OCR recorded last for that period end.
   * NotFoundError `no-such-snapshot` when none was.
   */
  async snapshotBounds(periodEnd: string): Promise<SnapshotBounds> {
    const found = (await this.snapshots()).filter((s) => s.snapshot === periodEnd).at(-1);
    if (found === undefined)
      throw new NotFoundError(
        'no-such-snapshot',
        `no Ongoing Certification Report with the period ending ${periodEnd} is recorded, so there is no snapshot of it; GET /fedramp/snapshots lists the snapshots`,
      );
    return { ...(found.runSeq === undefined ? {} : { run_seq: found.runSeq }), journal_seq: found.journalSeq };
  }

  /** The store's state, advanced past the due times that have passed since the last write (StoreState.current). */
  private current(): Promise<TrustStoreState> {
    return this.state.current((state) => this.parts.nextChange(state));
  }

  /**
   * One representation, built once per store state under a key made of everything that decides its bytes: the
   * document, the format and, for AUDIENCE_DOCUMENTS, the audience (a snapshot has an instance of its own). The page
   * is made from the JSON representation of the same key, so it can never show another audience's JSON.
   */
  private representation(state: TrustStoreState, input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    return this.parts.once(state, representationKey(input), () => (input.format === 'json' ? this.json(state, input) : this.html(state, input)));
  }

  private async json(state: TrustStoreState, input: BuildTrustDocumentInput): Promise<TrustRepresentation> {
    const document = await TRUST_DOCUMENT_BUILDERS[input.document].json({ parts: this.parts, state, input, rules: this.rulesSource.rules() });
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
      ...(input.snapshot === undefined
        ? []
        : [
            { label: 'Snapshot', value: citedTitle(rules, `as of the Ongoing Certification Report for the period ending ${input.snapshot}`, [SNAPSHOTS_RULE]) },
          ]),
      { label: 'As of', value: state.asOf },
      ...(input.document === 'public'
        ? []
        : [{ label: 'Run store', value: `${state.run === undefined ? 'no run recorded' : `run ${state.run.seq}`}, journal entry ${state.journal.seq}` }]),
      { label: 'JSON (same data)', value: `sha256:${json.sha256}`, code: true },
    ];
    const title = trustDocumentTitle(input.document, rules);
    const { item } = TRUST_DOCUMENT_INFO[input.document];
    const names = await TRUST_DOCUMENT_BUILDERS[input.document].names?.({ parts: this.parts, state, input, rules });
    const page = trustPage({
      title,
      facts,
      document,
      ...(item === undefined ? {} : { item }),
      ...(names === undefined ? {} : { names: new Map(names) }),
      generatedAt: state.asOf,
      tool: this.settings.tool,
    });
    const body = new TextEncoder().encode(this.pages.page(page));
    return { document: input.document, format: 'html', mediaType: 'text/html; charset=utf-8', body, sha256: this.hashing.sha256(body), state };
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
