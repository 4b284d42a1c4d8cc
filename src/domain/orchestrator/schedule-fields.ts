import { InvalidInputError } from '../errors';
import type { Job } from './job';

/** The five fields of a cron line, as crontab, Kubernetes and Windows Task Scheduler understand them. */
export interface CronFields {
  minute: string;
  hour: string;
  dayOfMonth: string;
  month: string;
  dayOfWeek: string;
}

/**
 * The job's schedule as five fields. A 6-field schedule (seconds first) is for the foreground scheduler only: the
 * platforms' schedulers count in minutes, so handing one over is refused (InvalidInputError, exit 3).
 */
export function platformFields(job: Job): CronFields {
  const fields = job.schedule.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw new InvalidInputError(
      'schedule-not-expressible',
      `job ${job.name}: schedule "${job.schedule}" has a seconds field, which crontab, Kubernetes and Windows Task Scheduler cannot express; give it 5 fields, or run it with svc orchestrator schedule`,
    );
  }
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields;
  return { minute, hour, dayOfMonth, month, dayOfWeek };
}

/** The `svc orchestrator dispatch` call every emitted entry makes: the svc command, then the job and its config. */
export function dispatchArgs(svc: readonly string[], job: Job, configFile: string): string[] {
  return [...svc, 'orchestrator', 'dispatch', job.name, '--config', configFile];
}
