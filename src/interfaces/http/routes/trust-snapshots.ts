import type { DependencyContainer, InjectionToken } from 'tsyringe';
import { BuildTrustDocument, type BuildTrustDocumentInput, type TrustRepresentation } from '../../../application/trust/build-trust-document';
import { SnapshotDocuments, type SnapshotLimits } from '../../../application/trust/snapshot-documents';
import type { SnapshotBounds } from '../../../application/trust/snapshot-store';
import { UnavailableError } from '../../../domain/errors';
import { snapshotContainer } from '../container';
import { HttpProblem } from '../responses/problem-details';

/** Test seam: limits of the `?snapshot=` work other than SNAPSHOT_LIMITS_DEFAULT, registered in the API's container. */
export const SNAPSHOT_LIMITS: InjectionToken<Partial<SnapshotLimits>> = Symbol('SnapshotLimits');

/**
 * The documents of OCR snapshots (`?snapshot=`) for the trust routes: SnapshotDocuments (built once per
 * representation, kept byte-bounded, a few builds at a time, a bounded queue), each snapshot's documents built by a
 * BuildTrustDocument over the store as it stood then (snapshotContainer). A full queue is 503 `busy` with Retry-After.
 */
export class SnapshotBuilders {
  readonly documents: SnapshotDocuments;

  constructor(container: DependencyContainer) {
    const limits = container.isRegistered(SNAPSHOT_LIMITS, true) ? container.resolve(SNAPSHOT_LIMITS) : {};
    this.documents = new SnapshotDocuments((bounds) => snapshotContainer(container, bounds).resolve(BuildTrustDocument), limits);
  }

  /** What builds the documents of the snapshot that stops at `bounds`. */
  of(bounds: SnapshotBounds): { execute(input: BuildTrustDocumentInput): Promise<TrustRepresentation> } {
    return {
      execute: (input) =>
        this.documents.execute(bounds, input).catch((error: unknown) => {
          throw busyProblem(error, this.documents.limits.retryAfterSeconds);
        }),
    };
  }
}

/** UnavailableError `busy` (BuildSlots' full queue) as the 503 problem with Retry-After; any other error as it is. */
export function busyProblem(error: unknown, retryAfterSeconds: number): unknown {
  return error instanceof UnavailableError && error.code === 'busy' ? new HttpProblem(503, 'busy', error.message, { 'Retry-After': String(retryAfterSeconds) }) : error;
}
