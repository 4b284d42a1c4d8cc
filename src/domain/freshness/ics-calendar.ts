import { printableText } from '../encoding/printable-text';
import { schedule, type FreshnessEntry, type FreshnessReport } from './freshness';
import { plural } from '../encoding/plural';

export interface CalendarInfo {
  /** What the schedule is for (the tenant, else the input name); it names the calendar. */
  scope: string;
  /** A stable key of the scope (hex), part of every UID, so re-importing the schedule updates its events. */
  scopeKey: string;
  tool: { name: string; version: string };
}

/**
 * The schedule as an RFC 5545 calendar that Outlook, Google Calendar and Thunderbird import: one all-day VEVENT per
 * due date listing the KSIs whose evidence falls due that day, with their owners, and a reminder the day before.
 * UIDs are `<date>-<scopeKey>@<tool>`: the same schedule regenerated gives the same events. DTSTAMP is `now`.
 * Lines end in CRLF and are folded at 75 octets without splitting a UTF-8 character.
 */
export function scheduleCalendar(report: FreshnessReport, info: CalendarInfo): string {
  const byDate = new Map<string, FreshnessEntry[]>();
  for (const entry of schedule(report)) {
    const date = (entry.due_at ?? report.now).slice(0, 10);
    byDate.set(date, [...(byDate.get(date) ?? []), entry]);
  }
  const stamp = basic(report.now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${info.tool.name}//${info.tool.name} ${info.tool.version}//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(`FedRAMP evidence due: ${info.scope}`)}`,
  ];
  for (const [date, entries] of byDate) {
    const ids = entries.map((e) => e.ksi_id);
    const summary = `FedRAMP evidence due: ${plural(ids.length, 'KSI')} (${ids.length > 3 ? `${ids.slice(0, 3).join(', ')}, …` : ids.join(', ')})`;
    const description = [
      `Collect new evidence for ${info.scope} and rerun the assessment before the end of ${date} (UTC).`,
      '',
      ...entries.map((e) => `${e.ksi_id} ${e.title}: every ${e.frequency_days} days, last observed ${e.observed_at ?? 'never'}, owner ${e.owner}`),
    ].join('\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${date}-${info.scopeKey}@${info.tool.name}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${date.replace(/-/g, '')}`,
      `DTEND;VALUE=DATE:${nextDay(date)}`,
      `SUMMARY:${text(summary)}`,
      `DESCRIPTION:${text(description)}`,
      'CATEGORIES:FedRAMP,Continuous Monitoring',
      'TRANSP:TRANSPARENT',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      `DESCRIPTION:${text(summary)}`,
      'TRIGGER:-P1D',
      'END:VALARM',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

/**
 * RFC 5545 §3.3.11 TEXT: control characters written out as printableText writes them (TEXT allows none but tab; a line
 * break, CRLF or LF, stays one), then backslash, semicolon, comma and newline escaped.
 */
function text(value: string): string {
  return printableText(value.replace(/\r\n/g, '\n')).replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
}

/** `20261121T000000Z`. */
function basic(iso: string): string {
  return `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}

const encoder = new TextEncoder();

/** RFC 5545 §3.1: lines longer than 75 octets continue on lines starting with one space. */
function fold(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    const limit = parts.length === 0 ? 75 : 74; // continuation lines spend one octet on the leading space
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
