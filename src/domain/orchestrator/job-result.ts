import { AppError, type ErrorKind } from '../errors';

/** The pipeline's stages, in order. */
export const JOB_STAGES = ['command', 'adapter', 'bundle', 'conmon'] as const;
export type JobStage = (typeof JOB_STAGES)[number];

/** A job's last result (`<svc home>/orchestrator/<job>.json`), replaced atomically after each dispatch. */
export interface JobResult {
  started: string;
  finished: string;
  status: 'ok' | 'failed';
  /** The stage that failed, or the last stage run. */
  stage: JobStage;
  error?: string;
  /** The run store's sequence number of the run (when outputs.store). */
  run_seq?: number;
}

/**
 * A job stopped at a stage. It keeps the kind (so the exit code) and the code of the error that stopped it, and
 * says which job and stage: `job m365-daily failed at stage adapter: <the error's message>`.
 */
export class JobFailedError extends AppError {
  readonly kind: ErrorKind;

  constructor(job: string, stage: JobStage, cause: AppError) {
    super(cause.code, `job ${job} failed at stage ${stage}: ${cause.message}`, { cause });
    this.kind = cause.kind;
  }
}
