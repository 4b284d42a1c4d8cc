import { isIsoTime, isPlainObject } from '../encoding/json-values';
import { InvalidInputError } from '../errors';

/**
 * One request for FedRAMP Certification Data at the trust center (CDS-TRC-ACL), as the API logs it: who, from which
 * agency when the principal was recognized as one, which document, and whether it was served or denied.
 */
export interface AccessEvent {
  /** ISO-8601 UTC. */
  at: string;
  principal: string;
  /** The agency the principal was recognized as (fedramp.agencies[].name), when it was. */
  agency?: string;
  /** What was asked for: `cpo`, `sdr`, `access`, … (the trust route's document, or the route for a denial). */
  document: string;
  outcome: 'served' | 'denied';
  /** The HTTP status answered. */
  status: number;
}

/** Access summarized per day, principal and document (CDS-TRC-ACL: summaries kept at least six months). */
export interface AccessSummary {
  /** YYYY-MM-DD (UTC). */
  day: string;
  principal: string;
  agency?: string;
  document: string;
  served: number;
  denied: number;
  first: string;
  last: string;
}

/** The day an access falls on, which the stores file it under. */
export function accessDay(event: Pick<AccessEvent, 'at'>): string {
  return event.at.slice(0, 10);
}

const DOCUMENT = /^[a-z0-9{}/_-]{1,80}$/;

/** Checks an event before a store keeps it; InvalidInputError names what is wrong (a bug of the caller's). */
export function checkAccessEvent(value: unknown): AccessEvent {
  const bad = (problem: string): never => {
    throw new InvalidInputError('bad-access-event', `access event: ${problem}`);
  };
  if (!isPlainObject(value)) return bad('not an object');
  const { at, principal, agency, document, outcome, status } = value;
  if (typeof at !== 'string' || !isIsoTime(at) || !at.endsWith('Z')) bad('at is not an ISO-8601 UTC time');
  if (typeof principal !== 'string' || principal === '' || principal.length > 512) bad('principal is not a name');
  if (agency !== undefined && (typeof agency !== 'string' || agency === '')) bad('agency is not a name');
  if (typeof document !== 'string' || !DOCUMENT.test(document)) bad('document is not a document name');
  if (outcome !== 'served' && outcome !== 'denied') bad('outcome is neither served nor denied');
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) bad('status is not an HTTP status');
  return value as unknown as AccessEvent;
}

/** Events summarized per day, principal, agency and document, in that order. */
export function summarizeAccess(events: Iterable<AccessEvent>): AccessSummary[] {
  const byKey = new Map<string, AccessSummary>();
  for (const e of events) {
    const day = accessDay(e);
    const key = JSON.stringify([day, e.principal, e.agency ?? '', e.document]);
    let s = byKey.get(key);
    if (s === undefined) {
      s = { day, principal: e.principal, ...(e.agency === undefined ? {} : { agency: e.agency }), document: e.document, served: 0, denied: 0, first: e.at, last: e.at };
      byKey.set(key, s);
    }
    if (e.outcome === 'served') s.served += 1;
    else s.denied += 1;
    if (e.at < s.first) s.first = e.at;
    if (e.at > s.last) s.last = e.at;
  }
  return [...byKey.values()].sort((a, b) => compare(a.day, b.day) || compare(a.principal, b.principal) || compare(a.agency ?? '', b.agency ?? '') || compare(a.document, b.document));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
