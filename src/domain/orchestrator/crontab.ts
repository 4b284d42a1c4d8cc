import type { Job } from './job';
import { dispatchArgs, platformFields } from './schedule-fields';

/**
 * crontab(5) lines, one per job: its five fields, then `svc orchestrator dispatch <job> --config <file>`, quoted
 * for /bin/sh, with `%` escaped (cron turns a bare one into a newline). CRON_TZ=UTC: schedules are in UTC.
 */
export function crontabLines(jobs: readonly Job[], svc: readonly string[], configFile: string): string {
  const lines = jobs.map((job) => {
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
