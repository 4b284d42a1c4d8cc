import type { InjectionToken } from 'tsyringe';
import type { AgencyPull, AgencyReview } from '../domain/agency/pulled-documents';

/**
 * What the agency side keeps (DESIGN §14): each provider's pulls (what came, when, from where, what verification
 * found) and the agency's OCR reviews, over content-addressed document bytes, so a document unchanged since the last
 * pull costs nothing to keep. File store under the svc home by default.
 */
export interface AgencyStore {
  /** Stores bytes under their SHA-256 (idempotent); resolves the hex digest. */
  putDocument(bytes: Uint8Array): Promise<string>;
  /** The bytes stored under `sha256`; NotFoundError when none are. */
  readDocument(sha256: string): Promise<Uint8Array>;
  /** Records a pull as the provider's next (seq assigned here), atomically; resolves it as recorded. */
  appendPull(pull: Omit<AgencyPull, 'seq'>): Promise<AgencyPull>;
  /** The provider's pulls, oldest first (`last`: only the newest n). */
  pulls(provider: string, options?: { last?: number }): Promise<AgencyPull[]>;
  /** Every provider with at least one pull or review. */
  providers(): Promise<string[]>;
  /** Records a review, atomically. */
  appendReview(review: AgencyReview): Promise<void>;
  /** The provider's reviews, oldest first. */
  reviews(provider: string): Promise<AgencyReview[]>;
}

export const AGENCY_STORE: InjectionToken<AgencyStore> = Symbol('AgencyStore');
