import { aPull as pull } from '../../../support/agency-pulls';
import { agencyEvents, type AgencyEventsInput } from '../../../../src/domain/agency/agency-events';
import type { EventFacts } from '../../../../src/domain/agency/provider-status';
import { CONMON_EVENT_SCHEMA } from '../../../../src/domain/conmon/conmon-event';

const BASE = 'https://trust.acme.example';
const SHA = 'e'.repeat(64);
const NONE: EventFacts = { incidents: [], overdue: [] };
const input = (extra: Partial<AgencyEventsInput> & Pick<AgencyEventsInput, 'pull'>): AgencyEventsInput => ({
  after: NONE,
  pullSha256: SHA,
  uuid: (key) => `uuid(${key})`,
  ...extra,
});
/** The fields every event of pull `seq` of acme carries. */
const common = (seq: number, time: string) => ({
  schema: CONMON_EVENT_SCHEMA,
  time,
  run: { id: `agency/acme/${seq}`, seq, input: { name: BASE, sha256: SHA } },
  ksi_id: null,
  poam_id: null,
});

describe('agencyEvents: what a pull tells the SIEM sinks', () => {
  const after: EventFacts = {
    incidents: [
      { id: 'INC-1', reportType: 'Initial', rating: 3, nextReportDue: '2026-11-23T06:00:00Z' },
      { id: 'INC-2', reportType: 'Ongoing' },
    ],
    overdue: [{ id: 'VG-a', rating: 4 }, { id: 'VG-b' }],
    ocrPeriod: '2026-12-31',
  };

  it("nothing on a provider's first pull: nothing to compare with", () => {
    expect(agencyEvents(input({ pull: pull(1, '2026-11-20T06:00:00Z'), after }))).toEqual([]);
  });

  it('a new open incident, each vulnerability newly overdue and a new OCR, each keyed by what it is about', () => {
    const events = agencyEvents(input({ pull: pull(4, '2026-11-20T06:00:00Z'), before: NONE, after }));
    expect(events).toEqual([
      {
        ...common(4, '2026-11-20T06:00:00Z'),
        event_id: 'uuid(agency-event/acme/agency.incident/INC-1)',
        kind: 'agency.incident',
        severity: 'error',
        summary: 'acme: incident INC-1 affects the agency (Initial report, N3)',
        data: { provider: 'acme', incident: 'INC-1', report_type: 'Initial', rating: 3, next_report_due: '2026-11-23T06:00:00Z' },
      },
      {
        ...common(4, '2026-11-20T06:00:00Z'),
        event_id: 'uuid(agency-event/acme/agency.incident/INC-2)',
        kind: 'agency.incident',
        severity: 'error',
        summary: 'acme: incident INC-2 affects the agency (Ongoing report)',
        data: { provider: 'acme', incident: 'INC-2', report_type: 'Ongoing', rating: null, next_report_due: null },
      },
      {
        ...common(4, '2026-11-20T06:00:00Z'),
        event_id: 'uuid(agency-event/acme/agency.overdue/VG-a)',
        kind: 'agency.overdue',
        severity: 'warning',
        summary: 'acme: vulnerability VG-a (N4) is overdue, recomputed from the VDR',
        data: { provider: 'acme', vulnerability: 'VG-a', rating: 4 },
      },
      {
        ...common(4, '2026-11-20T06:00:00Z'),
        event_id: 'uuid(agency-event/acme/agency.overdue/VG-b)',
        kind: 'agency.overdue',
        severity: 'warning',
        summary: 'acme: vulnerability VG-b is overdue, recomputed from the VDR',
        data: { provider: 'acme', vulnerability: 'VG-b', rating: null },
      },
      {
        ...common(4, '2026-11-20T06:00:00Z'),
        event_id: 'uuid(agency-event/acme/agency.ocr-published/2026-12-31)',
        kind: 'agency.ocr-published',
        severity: 'notice',
        summary: 'acme: an OCR for the period ending 2026-12-31 is published',
        data: { provider: 'acme', period_end: '2026-12-31' },
      },
    ]);
  });

  it('nothing already known before: the same incidents, overdue vulnerabilities and OCR', () => {
    expect(agencyEvents(input({ pull: pull(5, '2026-11-21T06:00:00Z'), before: after, after }))).toEqual([]);
  });

  it('an OCR gone from the trust center is no event; only what is new after is told', () => {
    const before: EventFacts = { incidents: [after.incidents[0]!], overdue: [after.overdue[0]!], ocrPeriod: '2026-12-31' };
    const events = agencyEvents(input({ pull: pull(5, '2026-11-21T06:00:00Z'), before, after: { ...after, ocrPeriod: undefined } }));
    expect(events.map((e) => e.event_id)).toEqual(['uuid(agency-event/acme/agency.incident/INC-2)', 'uuid(agency-event/acme/agency.overdue/VG-b)']);
  });

  describe('a trust center unreachable', () => {
    const failed = pull(9, '2026-11-20T06:00:00Z', { outcome: 'failed', error: `${BASE}/fedramp/public: connect ECONNREFUSED` });

    it('for a day or more: one event keyed by the last pull that reached it and the days, whatever the facts', () => {
      const events = agencyEvents(input({ pull: failed, before: NONE, after, lastReached: pull(6, '2026-11-17T05:00:00Z') }));
      expect(events).toEqual([
        {
          ...common(9, '2026-11-20T06:00:00Z'),
          event_id: 'uuid(agency-event/acme/agency.unreachable/6/3)',
          kind: 'agency.unreachable',
          severity: 'error',
          summary: `acme: the trust center has been unreachable for 3 days (${BASE}/fedramp/public: connect ECONNREFUSED)`,
          data: { provider: 'acme', last_reached: '2026-11-17T05:00:00Z', days: 3, error: `${BASE}/fedramp/public: connect ECONNREFUSED` },
        },
      ]);
    });

    it('one day, without a reason recorded', () => {
      const [event] = agencyEvents(input({ pull: { ...failed, error: undefined }, lastReached: pull(6, '2026-11-19T06:00:00Z') }));
      expect([event?.event_id, event?.summary, event?.data]).toEqual([
        'uuid(agency-event/acme/agency.unreachable/6/1)',
        'acme: the trust center has been unreachable for 1 day (no document came)',
        { provider: 'acme', last_reached: '2026-11-19T06:00:00Z', days: 1, error: null },
      ]);
    });

    it('less than a day, or never reached: nothing', () => {
      expect(agencyEvents(input({ pull: failed, lastReached: pull(6, '2026-11-19T06:00:01Z') }))).toEqual([]);
      expect(agencyEvents(input({ pull: failed, before: NONE, after }))).toEqual([]);
    });

    it('a partial pull is no outage: its facts are compared', () => {
      const events = agencyEvents(input({ pull: { ...failed, outcome: 'partial' }, before: after, after, lastReached: pull(6, '2026-11-01T00:00:00Z') }));
      expect(events).toEqual([]);
    });
  });
});
