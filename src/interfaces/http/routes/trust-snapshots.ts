import type { InjectionToken } from 'tsyringe';
import type { SnapshotLimits } from '../../../application/trust/snapshot-documents';
import { UnavailableError } from '../../../domain/errors';
import { HttpProblem } from '../responses/problem-details';

/** Test seam: limits of the `?snapshot=` work other than SNAPSHOT_LIMITS_DEFAULT, registered in the API's container. */
export const SNAPSHOT_LIMITS: InjectionToken<Partial<SnapshotLimits>> = Symbol('SnapshotLimits');

/** UnavailableError `busy` (BuildSlots' full queue) as the 503 problem with Retry-After; any other error as it is. */
export function busyProblem(error: unknown, retryAfterSeconds: number): unknown {
  return error instanceof UnavailableError && error.code === 'busy'
    ? new HttpProblem(503, 'busy', error.message, { 'Retry-After': String(retryAfterSeconds) })
    : error;
}
