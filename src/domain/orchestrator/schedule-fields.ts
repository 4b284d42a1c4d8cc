import { controlCharacterIn, printable, visibleText } from '../encoding/control-characters';
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

/**
 * Every value an emitter writes into a schedule keeps to its place: one with a control character is refused
 * (InvalidInputError `schedule-unsafe-value`, exit 3), naming the job, the field and the fix.
 */
export function checkEmittedValue(job: Job, field: string, value: string, fix: string): void {
  const control = controlCharacterIn(value);
  if (control !== undefined) {
    throw new InvalidInputError(
      'schedule-unsafe-value',
      `job ${jobLabel(job)}: ${field} ${visibleText(value)} holds the control character ${control}, which would break the emitted schedule; ${fix}`,
    );
  }
}

/** The job's name for a message. */
export function jobLabel(job: Job): string {
  return printable(job.name);
}

/** The values every emitter writes: the job's name and schedule (both also checked when the config is read). */
export function checkJobValues(job: Job): void {
  checkEmittedValue(job, 'name', job.name, 'use 1 to 63 lowercase letters, digits and hyphens');
  checkEmittedValue(job, 'schedule', job.schedule, 'separate the cron fields with spaces');
}

/** What to do about a config path an emitter cannot write. */
export const CONFIG_PATH_FIX = 'move or rename the config to a path without control characters and pass it with --config';
