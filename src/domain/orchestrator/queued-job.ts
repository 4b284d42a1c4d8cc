import type { ContentDigest } from '../evidence/content-digest';
import { describe, isPlainObject } from '../encoding/json-values';
import type { OrchestratorConfig } from './job';
import { printable } from '../encoding/control-characters';

/** A request to run a job, as `svc orchestrator dispatch` puts it on the shared queue. */
export interface QueuedJob {
  job: string;
  /** The config file the job was dispatched from (absolute). */
  config: string;
  /** configDigest of that config as the dispatch read it. */
  digest: string;
}

/** SHA-256 of the validated config's canonical JSON: its path and its jobs, paths resolved. */
export function configDigest(config: OrchestratorConfig, digest: ContentDigest): string {
  return digest.sha256(digest.canonicalize({ file: config.file, jobs: config.jobs }));
}

export type QueuedJobCheck = { ok: true; request: QueuedJob } | { ok: false; job: string; problem: string };

/**
 * Whether a worker started with `config` (of digest `digest`) may run a queue row. Anyone who can write to the
 * queue's table could name any config, whose `command` the worker would run, so a worker runs only the jobs of its
 * own config, as it read it at start: another path, another digest or a row of another shape is refused.
 */
export function checkQueuedJob(row: unknown, config: OrchestratorConfig, digest: string): QueuedJobCheck {
  const fields = isPlainObject(row) ? row : {};
  const job = typeof fields.job === 'string' ? printable(fields.job) : '(unnamed)';
  const refuse = (problem: string): QueuedJobCheck => ({ ok: false, job, problem: `job ${job}: refused: ${problem}` });
  if (typeof fields.job !== 'string' || typeof fields.config !== 'string' || typeof fields.digest !== 'string') {
    return refuse(`the queued request ${describe(row)} does not name a job, a config and its digest; dispatch the job again with this version of svc`);
  }
  if (fields.config !== config.file) {
    return refuse(
      `it was dispatched from the config ${printable(fields.config)}, and this worker runs only the jobs of ${printable(config.file)}; run a worker with --config ${printable(fields.config)} for that config`,
    );
  }
  if (fields.digest !== digest) {
    return refuse(
      `${printable(config.file)} is not the config it was dispatched with (digest ${printable(fields.digest).slice(0, 12)}, this worker's ${digest.slice(0, 12)}); restart the worker so it reads the config as it is now, then dispatch again`,
    );
  }
  return { ok: true, request: { job: fields.job, config: fields.config, digest: fields.digest } };
}
