import { createHash } from 'node:crypto';
import { NotFoundError } from '../../src/domain/errors';
import type { AgencyPull, AgencyReview } from '../../src/domain/agency/pulled-documents';
import type { AgencyStore } from '../../src/ports/agency-store';

/** The agency store in memory, for unit tests of the agency use cases. */
export class InMemoryAgencyStore implements AgencyStore {
  readonly documents = new Map<string, Uint8Array>();
  readonly pullsByProvider = new Map<string, AgencyPull[]>();
  readonly reviewsByProvider = new Map<string, AgencyReview[]>();

  async putDocument(bytes: Uint8Array): Promise<string> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    this.documents.set(sha256, Uint8Array.from(bytes));
    return sha256;
  }

  async readDocument(sha256: string): Promise<Uint8Array> {
    const bytes = this.documents.get(sha256);
    if (bytes === undefined) throw new NotFoundError('agency-document-missing', `no document ${sha256} in the agency store`);
    return bytes;
  }

  async appendPull(pull: Omit<AgencyPull, 'seq'>): Promise<AgencyPull> {
    const list = this.pullsByProvider.get(pull.provider) ?? [];
    const recorded = structuredClone({ ...pull, seq: list.length + 1 }) as AgencyPull;
    list.push(recorded);
    this.pullsByProvider.set(pull.provider, list);
    return structuredClone(recorded);
  }

  async pulls(provider: string, options: { last?: number } = {}): Promise<AgencyPull[]> {
    const list = this.pullsByProvider.get(provider) ?? [];
    return structuredClone(options.last === undefined ? list : list.slice(-options.last));
  }

  async providers(): Promise<string[]> {
    return [...new Set([...this.pullsByProvider.keys(), ...this.reviewsByProvider.keys()])].sort();
  }

  async appendReview(review: AgencyReview): Promise<void> {
    this.reviewsByProvider.set(review.provider, [...(this.reviewsByProvider.get(review.provider) ?? []), structuredClone(review)]);
  }

  async reviews(provider: string): Promise<AgencyReview[]> {
    return structuredClone(this.reviewsByProvider.get(provider) ?? []);
  }
}
