import { InvalidInputError } from '../errors';
import type { Job } from './job';
import { CONFIG_PATH_FIX, checkEmittedValue, checkJobValues, dispatchArgs, platformFields, type CronFields } from './schedule-fields';

export const TASK_NAMESPACE = 'http://schemas.microsoft.com/windows/2004/02/mit/task';
/** Task Scheduler accepts at most 48 triggers per task. */
const MAX_TRIGGERS = 48;
/** Any past day will do: triggers fire from their start boundary on. */
const START_DAY = '2026-01-01';
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_ABBREVIATIONS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * A Task Scheduler 1.2 task running `svc orchestrator dispatch <job>` (`schtasks /create /xml`). Daily and weekly
 * times become CalendarTriggers, every N minutes or hours a TimeTrigger with a Repetition; any other schedule is
 * refused (InvalidInputError, exit 3). IgnoreNew: no second instance while a run is going. Times are UTC.
 */
export function windowsTaskXml(job: Job, svc: readonly string[], configFile: string): string {
  checkJobValues(job);
  checkEmittedValue(job, 'the config path', configFile, CONFIG_PATH_FIX);
  for (const word of svc) checkEmittedValue(job, 'the svc executable (--svc)', word, 'give --svc a path without control characters');
  const [program, ...args] = dispatchArgs(svc, job, configFile);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Task version="1.2" xmlns="${TASK_NAMESPACE}">`,
    '  <RegistrationInfo>',
    `    <Description>${escapeXml(`svc orchestrator job ${job.name} (${job.schedule} UTC)`)}</Description>`,
    `    <URI>${escapeXml(`\\svc\\${job.name}`)}</URI>`,
    '  </RegistrationInfo>',
    '  <Triggers>',
    ...triggers(job, platformFields(job)).map((line) => `    ${line}`),
    '  </Triggers>',
    '  <Settings>',
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '    <StartWhenAvailable>true</StartWhenAvailable>',
    '    <Enabled>true</Enabled>',
    '  </Settings>',
    '  <Actions Context="Author">',
    '    <Exec>',
    `      <Command>${escapeXml(program)}</Command>`,
    `      <Arguments>${escapeXml(args.map(windowsQuote).join(' '))}</Arguments>`,
    '    </Exec>',
    '  </Actions>',
    '</Task>',
    '',
  ].join('\n');
}

function triggers(job: Job, f: CronFields): string[] {
  const minutes = numbers(f.minute, 0, 59);
  const hours = numbers(f.hour, 0, 23);
  const everyDay = f.dayOfMonth === '*' && f.month === '*';
  if (minutes && hours && everyDay) {
    const days =
      f.dayOfWeek === '*'
        ? undefined
        : numbers(
            f.dayOfWeek.toLowerCase().replace(/[a-z]{3}/g, (d) => String(DAY_ABBREVIATIONS.indexOf(d))),
            0,
            7,
          );
    if (f.dayOfWeek === '*' || days) {
      const times = hours.flatMap((h) => minutes.map((m) => `${pad(h)}:${pad(m)}`));
      if (times.length > MAX_TRIGGERS) refuse(job, `it fires at ${times.length} times a day, more than the ${MAX_TRIGGERS} triggers a task may have`);
      const schedule = days
        ? `<ScheduleByWeek><WeeksInterval>1</WeeksInterval><DaysOfWeek>${[...new Set(days.map((d) => d % 7))]
            .sort()
            .map((d) => `<${DAY_NAMES[d]} />`)
            .join('')}</DaysOfWeek></ScheduleByWeek>`
        : '<ScheduleByDay><DaysInterval>1</DaysInterval></ScheduleByDay>';
      return times.map(
        (time) => `<CalendarTrigger><StartBoundary>${START_DAY}T${time}:00Z</StartBoundary><Enabled>true</Enabled>${schedule}</CalendarTrigger>`,
      );
    }
  }
  const every = (field: string, unit: number) =>
    field === '*' ? 1 : /^\*\/\d+$/.test(field) && unit % Number(field.slice(2)) === 0 ? Number(field.slice(2)) : undefined;
  if (everyDay && f.dayOfWeek === '*') {
    const perMinutes = every(f.minute, 60);
    if (perMinutes !== undefined && f.hour === '*') return [repeating('00:00', `PT${perMinutes}M`)];
    const perHours = every(f.hour, 24);
    if (perHours !== undefined && minutes?.length === 1) return [repeating(`00:${pad(minutes[0])}`, `PT${perHours}H`)];
  }
  return refuse(job, 'only daily or weekly times and every N minutes or hours map to Task Scheduler triggers');
}

function repeating(time: string, interval: string): string {
  return `<TimeTrigger><Repetition><Interval>${interval}</Interval><StopAtDurationEnd>false</StopAtDurationEnd></Repetition><StartBoundary>${START_DAY}T${time}:00Z</StartBoundary><Enabled>true</Enabled></TimeTrigger>`;
}

function refuse(job: Job, why: string): never {
  throw new InvalidInputError(
    'schedule-not-expressible',
    `job ${job.name}: schedule "${job.schedule}" cannot be a Windows Task Scheduler trigger: ${why}; emit crontab or k8s for it, or change the schedule`,
  );
}

/** A field of single values and ranges (`1,3-5`) within bounds, expanded; undefined for steps, `*` and the rest. */
function numbers(field: string, min: number, max: number): number[] | undefined {
  const values: number[] = [];
  for (const part of field.split(',')) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) return undefined;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from < min || to > max || from > to) return undefined;
    for (let v = from; v <= to; v += 1) values.push(v);
  }
  return values;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** An argument as the Windows C runtime splits a command line: quoted when it has a space or a quote. */
function windowsQuote(arg: string): string {
  return arg !== '' && !/[\s"]/.test(arg) ? arg : `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
