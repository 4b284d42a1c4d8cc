import type { InputRef } from '../artifacts/run-context';

export const CONMON_EVENT_SCHEMA = 'svc.conmon-event/v1';

/**
 * What changed; one event per change (docs/conmon.md lists the fields of each). The `agency.*` kinds are the agency
 * side's (`svc agency pull`, docs/agency.md): their `run` is the provider's pull.
 */
export const EVENT_KINDS = [
  'run.recorded',
  'poam.opened',
  'poam.closed',
  'poam.overdue',
  'poam.risk-changed',
  'drift.detected',
  'agency.incident',
  'agency.overdue',
  'agency.ocr-published',
  'agency.unreachable',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** RFC 5424 severity names; sinks map them to their own scales (syslog PRI, HEC fields). */
export type EventSeverity = 'critical' | 'error' | 'warning' | 'notice' | 'info';

/** RFC 5424 numeric severity of each name. */
export const SYSLOG_SEVERITY: Record<EventSeverity, number> = { critical: 2, error: 3, warning: 4, notice: 5, info: 6 };

/** A continuous-monitoring event, as stored with its run and sent to every sink. */
export interface ConmonEvent {
  schema: typeof CONMON_EVENT_SCHEMA;
  /** UUIDv5 of the run id, kind and subject: the same change always has the same id, so a SIEM can drop repeats. */
  event_id: string;
  kind: EventKind;
  /** The run's as-of time (ISO-8601 UTC). */
  time: string;
  severity: EventSeverity;
  run: { id: string; seq: number; input: InputRef };
  ksi_id: string | null;
  poam_id: string | null;
  /** One line a person reads in the SIEM. */
  summary: string;
  /** Kind-specific facts (status, dates, drift class, counts). */
  data: Record<string, unknown>;
}
