import { InvalidInputError } from '../../domain/errors';
import { currentDocuments, type AgencyPull, type PulledDocumentName } from '../../domain/agency/pulled-documents';
import type { AgencyStore } from '../../ports/agency-store';

/** The parsed JSON of stored bytes (the store checked them when they came; a broken one is named by its digest). */
export async function storedJson(store: AgencyStore, sha256: string): Promise<unknown> {
  const bytes = await store.readDocument(sha256);
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  } catch {
    throw new InvalidInputError('agency-document-not-json', `the agency store's document ${sha256} is not JSON; pull the provider again`);
  }
}

/**
 * One provider's documents as its pulls leave them (currentDocuments), parsed on demand and once: what `status`,
 * `diff`, `review`, `poam` and `notice` read. `upTo` stops at a pull (its seq), for the documents as they were then.
 */
export class ProviderDocuments {
  private readonly parsed = new Map<PulledDocumentName, Promise<unknown>>();
  private readonly current: ReturnType<typeof currentDocuments>;

  constructor(
    private readonly store: AgencyStore,
    readonly provider: string,
    readonly pulls: readonly AgencyPull[],
    upTo?: number,
  ) {
    this.current = currentDocuments(upTo === undefined ? pulls : pulls.filter((p) => p.seq <= upTo));
  }

  /** The newest pull considered (absent when the provider was never pulled). */
  get latest(): AgencyPull | undefined {
    return this.pulls.at(-1);
  }

  /** Where and when the document's current bytes came from; absent when no pull got it. */
  stored(name: PulledDocumentName) {
    return this.current.get(name);
  }

  /** The document's current JSON; undefined when no pull got it. */
  json(name: PulledDocumentName): Promise<unknown> {
    const current = this.current.get(name);
    if (current === undefined) return Promise.resolve(undefined);
    let parsed = this.parsed.get(name);
    if (parsed === undefined) this.parsed.set(name, (parsed = storedJson(this.store, current.stored.sha256)));
    return parsed;
  }
}
