import { CONMON_EVENT_SCHEMA, type ConmonEvent, type EventKind, type EventSeverity } from '../conmon/conmon-event';
import { DAY_MS } from '../encoding/iso-time';
import type { EventFacts } from './provider-status';
import type { AgencyPull } from './pulled-documents';

export interface AgencyEventsInput {
  pull: AgencyPull;
  /** The facts before this pull (the previous pull's documents at its time); absent on a provider's first pull. */
  before?: EventFacts;
  after: EventFacts;
  /** The newest pull before this one that reached the trust center. */
  lastReached?: AgencyPull;
  /** The hex SHA-256 naming this pull (of its record). */
  pullSha256: string;
  uuid: (key: string) => string;
}

/**
 * The events of one provider's pull for the SIEM sinks `conmon` uses (DESIGN §14): a new open incident affecting the
 * agency, a vulnerability that went overdue (recomputed), an OCR published, and the trust center unreachable for a day
 * or more. Each keyed so the same change always has the same event_id (a SIEM drops repeats): an outage by the pull it
 * began after, so it is told once per day it lasts.
 */
export function agencyEvents(input: AgencyEventsInput): ConmonEvent[] {
  const { pull, before, after } = input;
  const run = { id: `agency/${pull.provider}/${pull.seq}`, seq: pull.seq, input: { name: pull.url, sha256: input.pullSha256 } };
  const event = (kind: EventKind, subject: string, severity: EventSeverity, summary: string, data: Record<string, unknown>): ConmonEvent => ({
    schema: CONMON_EVENT_SCHEMA,
    event_id: input.uuid(`agency-event/${pull.provider}/${kind}/${subject}`),
    kind,
    time: pull.finished,
    severity,
    run,
    ksi_id: null,
    poam_id: null,
    summary,
    data: { provider: pull.provider, ...data },
  });
  const events: ConmonEvent[] = [];
  if (pull.outcome === 'failed') {
    const since = input.lastReached === undefined ? undefined : Date.parse(input.lastReached.finished);
    const days = since === undefined ? 0 : Math.floor((Date.parse(pull.finished) - since) / DAY_MS);
    if (days >= 1)
      events.push(
        event(
          'agency.unreachable',
          `${input.lastReached!.seq}/${days}`,
          'error',
          `${pull.provider}: the trust center has been unreachable for ${days} day${days === 1 ? '' : 's'} (${pull.error ?? 'no document came'})`,
          {
            last_reached: input.lastReached!.finished,
            days,
            error: pull.error ?? null,
          },
        ),
      );
    return events;
  }
  if (before === undefined) return events;
  const had = new Set(before.incidents.map((i) => i.id));
  for (const i of after.incidents)
    if (!had.has(i.id))
      events.push(
        event(
          'agency.incident',
          i.id,
          'error',
          `${pull.provider}: incident ${i.id} affects the agency (${i.reportType} report${i.rating === undefined ? '' : `, N${i.rating}`})`,
          {
            incident: i.id,
            report_type: i.reportType,
            rating: i.rating ?? null,
            next_report_due: i.nextReportDue ?? null,
          },
        ),
      );
  const late = new Set(before.overdue.map((v) => v.id));
  for (const v of after.overdue)
    if (!late.has(v.id))
      events.push(
        event(
          'agency.overdue',
          v.id,
          'warning',
          `${pull.provider}: vulnerability ${v.id}${v.rating === undefined ? '' : ` (N${v.rating})`} is overdue, recomputed from the VDR`,
          {
            vulnerability: v.id,
            rating: v.rating ?? null,
          },
        ),
      );
  if (after.ocrPeriod !== undefined && after.ocrPeriod !== before.ocrPeriod)
    events.push(
      event('agency.ocr-published', after.ocrPeriod, 'notice', `${pull.provider}: an OCR for the period ending ${after.ocrPeriod} is published`, {
        period_end: after.ocrPeriod,
      }),
    );
  return events;
}
