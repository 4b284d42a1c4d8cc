import type { Job } from './job';
import { InvalidInputError } from '../errors';
import { visibleText } from '../encoding/control-characters';
import { CONFIG_PATH_FIX, checkEmittedValue, checkJobValues, dispatchArgs, jobLabel, platformFields } from './schedule-fields';

/**
 * crontab(5) lines, one per job: its five fields, then `svc orchestrator dispatch <job> --config <file>`, quoted
 * for /bin/sh, with `%` escaped (cron turns a bare one into a newline). CRON_TZ=UTC: schedules are in UTC.
 * A value with a control character, or with `\%` (cron reads the backslash as escaping the `%`, so no escape can
 * keep both), is refused (InvalidInputError, exit 3).
 */
export function crontabLines(jobs: readonly Job[], svc: readonly string[], configFile: string): string {
  const lines = jobs.map((job) => {
    checkJobValues(job);
    checkCronValue(job, 'the config path', configFile, CONFIG_PATH_FIX);
    for (const word of svc) checkCronValue(job, 'the svc executable (--svc)', word, 'give --svc a path without control characters or a backslash before %');
    const f = platformFields(job);
    const command = dispatchArgs(svc, job, configFile).map(shellQuote).join(' ').replace(/%/g, '\\%');
    return `${f.minute} ${f.hour} ${f.dayOfMonth} ${f.month} ${f.dayOfWeek} ${command}`;
  });
  return [`# svc orchestrator jobs of ${configFile}`, 'CRON_TZ=UTC', ...lines, ''].join('\n');
}

/** A word for /bin/sh: as is when it has no special characters, else in single quotes. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function checkCronValue(job: Job, field: string, value: string, fix: string): void {
  checkEmittedValue(job, field, value, fix);
  if (value.includes('\\%')) {
    throw new InvalidInputError(
      'schedule-unsafe-value',
      `job ${jobLabel(job)}: ${field} ${visibleText(value)} has a backslash before %, which cron cannot write (it would take the backslash as escaping the %); ${fix}`,
    );
  }
}
