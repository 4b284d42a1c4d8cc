import { addDays } from '../encoding/iso-time';
import { isIsoTime, isPlainObject } from '../encoding/json-values';
import { InvalidInputError } from '../errors';
import { principalNameProblem } from './principal-name';

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
  /**
   * True when the principal looks like a federal agency's though no agency pattern recognized it: its name, or its
   * client certificate's subject or issuer (isFederalIdentity, access-report.ts), judged when the request was answered.
   */
  federal?: true;
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

/**
 * What the stores keep of the access log for good, computed as events are appended: the events of one day, principal,
 * agency, document and `federal` flag counted, with the first and last of them and of their denials. Tallies of the
 * same key merge by adding counts and keeping the earliest first and latest last (mergeTally), in any order and any
 * grouping, so a store adds each batch's tallies to what it holds and several processes may add theirs at once.
 * The report (access-report.ts) reads nothing else: the raw events may be pruned, the summaries, the agency
 * inventory (CDS-TRC-AAI, `federal` included) and the agency denials (CDS-UTC-AAD) stay whole.
 */
export interface AccessTally extends AccessSummary {
  /** Set when the events were judged federal (AccessEvent.federal); events without the flag are tallied apart. */
  federal?: true;
  /** The first and the last denial, when `denied` > 0. */
  denied_first?: string;
  denied_last?: string;
}

/**
 * Denials of one principal on one day kept as raw events; the rest are counted in the tallies only, so a client
 * refused 6,000 times a minute writes 100 lines a day, not 8.6 million (the first ones show how it began).
 */
export const MAX_RAW_DENIALS = 100;

/** Days of raw events kept by default (today and the 89 before): `limits.access_log_days` of the API config. */
export const DEFAULT_ACCESS_LOG_DAYS = 90;

/**
 * Days of summaries (tallies) kept by default: 400, the longest range one /fedramp/access request may ask for (13
 * months and more), well beyond the six months CDS-TRC-ACL asks; `limits.access_summary_days` of the API config.
 */
export const DEFAULT_ACCESS_SUMMARY_DAYS = 400;

/** The fewest days of summaries a configuration may keep: six months of 31 days and a day (CDS-TRC-ACL). */
export const MIN_ACCESS_SUMMARY_DAYS = 187;

/** The longest principal svc ever wrote to a store (before principalNameProblem's 256): a stored one may be that long. */
const MAX_STORED_PRINCIPAL = 512;

/** How long the access log keeps raw events and summaries, in days counted back from today (today included). */
export interface AccessRetention {
  log_days: number;
  summary_days: number;
}

/** The days a store's upkeep works on, YYYY-MM-DD, from the retention and today (accessCutoffs). */
export interface AccessCutoffs {
  /** Raw events of days before this one are removed. */
  raw_from: string;
  /** Summaries of days before this one are removed. */
  summaries_from: string;
  /** Days before this one are settled (before yesterday): no process still writes them; their summaries may be compacted. */
  settled_before: string;
}

/** The days kept of raw events and of summaries on `today` (YYYY-MM-DD), and the first unsettled day (yesterday). */
export function accessCutoffs(today: string, retention: AccessRetention): AccessCutoffs {
  return {
    raw_from: addDays(today, -(retention.log_days - 1)),
    summaries_from: addDays(today, -(retention.summary_days - 1)),
    settled_before: addDays(today, -1),
  };
}

/** The day an access falls on, which the stores file it under. */
export function accessDay(event: Pick<AccessEvent, 'at'>): string {
  return event.at.slice(0, 10);
}

const DOCUMENT = /^[a-z0-9{}/_-]{1,80}$/;

/**
 * Why `value` is not an access event the log may take, or undefined when it is one. The principal is held to
 * principalNameProblem, the rule authentication holds every name to, so the log takes exactly the names authentication
 * accepts; the reason never quotes the name (it may be hostile).
 */
export function accessEventProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'not an object';
  const principal = value.principal;
  if (typeof principal !== 'string') return 'principal is not a name: it is not a string';
  const problem = principalNameProblem(principal);
  if (problem !== undefined) return `principal is not a name: ${problem}`;
  return shapeProblem(value);
}

/** Checks an event before a store keeps it; InvalidInputError `bad-access-event` names what is wrong (a bug of the caller's). */
export function checkAccessEvent(value: unknown): AccessEvent {
  const problem = accessEventProblem(value);
  if (problem !== undefined) throw new InvalidInputError('bad-access-event', `access event: ${problem}`);
  return value as unknown as AccessEvent;
}

/**
 * A batch split into its valid events and, when some were not, the InvalidInputError `bad-access-event` a store
 * throws once it has written the valid ones: the first refused one by its place in the batch and its problem.
 */
export function splitAccessBatch(events: readonly unknown[]): { valid: AccessEvent[]; refusal?: InvalidInputError } {
  const valid: AccessEvent[] = [];
  let first: string | undefined;
  events.forEach((event, i) => {
    const problem = accessEventProblem(event);
    if (problem === undefined) valid.push(event as AccessEvent);
    else first ??= `access event ${i + 1} of ${events.length}: ${problem}`;
  });
  if (first === undefined) return { valid };
  const refused = events.length - valid.length;
  const more = refused > 1 ? ` (and ${refused - 1} more refused)` : '';
  return { valid, refusal: new InvalidInputError('bad-access-event', `${first}${more}; the other ${valid.length} of the batch were logged`) };
}

/**
 * Whether `value` is an event as a store may hold it: what checkAccessEvent takes, or what an earlier svc took (a
 * principal of up to 512 characters, before the name rule): a store reads back what it was given.
 */
export function isStoredAccessEvent(value: unknown): value is AccessEvent {
  if (!isPlainObject(value)) return false;
  const { principal } = value;
  return typeof principal === 'string' && principal !== '' && principal.length <= MAX_STORED_PRINCIPAL && shapeProblem(value) === undefined;
}

/** What is wrong with an event's fields other than its principal. */
function shapeProblem(value: Record<string, unknown>): string | undefined {
  const { at, agency, federal, document, outcome, status } = value;
  if (typeof at !== 'string' || !isIsoTime(at) || !at.endsWith('Z')) return 'at is not an ISO-8601 UTC time';
  if (agency !== undefined && (typeof agency !== 'string' || agency === '')) return 'agency is not a name';
  if (federal !== undefined && federal !== true) return 'federal is not true';
  if (typeof document !== 'string' || !DOCUMENT.test(document)) return 'document is not a document name';
  if (outcome !== 'served' && outcome !== 'denied') return 'outcome is neither served nor denied';
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) return 'status is not an HTTP status';
  for (const key of Object.keys(value)) if (!EVENT_KEYS.has(key)) return `${key} is not a field of an access event`;
  return undefined;
}

const EVENT_KEYS = new Set(['at', 'principal', 'agency', 'federal', 'document', 'outcome', 'status']);
const TALLY_KEYS = new Set(['day', 'principal', 'agency', 'federal', 'document', 'served', 'denied', 'first', 'last', 'denied_first', 'denied_last']);

/** Whether `value` is a tally as a store keeps it (a stored one that is not was changed outside svc). */
export function isAccessTally(value: unknown): value is AccessTally {
  if (!isPlainObject(value)) return false;
  const { day, principal, agency, federal, document, served, denied, first, last, denied_first, denied_last } = value;
  const time = (t: unknown) => typeof t === 'string' && isIsoTime(t) && t.endsWith('Z') && t.slice(0, 10) === day;
  const count = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return (
    typeof day === 'string' &&
    day.length === 10 &&
    isIsoTime(day) &&
    typeof principal === 'string' &&
    principal !== '' &&
    principal.length <= MAX_STORED_PRINCIPAL &&
    (agency === undefined || (typeof agency === 'string' && agency !== '')) &&
    (federal === undefined || federal === true) &&
    typeof document === 'string' &&
    DOCUMENT.test(document) &&
    count(served) &&
    count(denied) &&
    (served as number) + (denied as number) > 0 &&
    time(first) &&
    time(last) &&
    (first as string) <= (last as string) &&
    (denied === 0
      ? denied_first === undefined && denied_last === undefined
      : time(denied_first) && time(denied_last) && (denied_first as string) <= (denied_last as string)) &&
    Object.keys(value).every((key) => TALLY_KEYS.has(key))
  );
}

/** The key tallies merge under: day, principal, agency, document and the federal flag. */
export function tallyKey(t: Pick<AccessTally, 'day' | 'principal' | 'agency' | 'document' | 'federal'>): string {
  return JSON.stringify([t.day, t.principal, t.agency ?? '', t.document, t.federal === true]);
}

/** One event as a tally of its own. */
export function tallyOf(e: AccessEvent): AccessTally {
  const denied = e.outcome === 'denied';
  return {
    day: accessDay(e),
    principal: e.principal,
    ...(e.agency === undefined ? {} : { agency: e.agency }),
    ...(e.federal === true ? { federal: true as const } : {}),
    document: e.document,
    served: denied ? 0 : 1,
    denied: denied ? 1 : 0,
    first: e.at,
    last: e.at,
    ...(denied ? { denied_first: e.at, denied_last: e.at } : {}),
  };
}

/** `from` added into `into` (same key): counts summed, the earliest first and latest last kept. */
export function mergeTally(into: AccessTally, from: AccessTally): void {
  into.served += from.served;
  into.denied += from.denied;
  if (from.first < into.first) into.first = from.first;
  if (from.last > into.last) into.last = from.last;
  if (from.denied_first !== undefined && (into.denied_first === undefined || from.denied_first < into.denied_first)) into.denied_first = from.denied_first;
  if (from.denied_last !== undefined && (into.denied_last === undefined || from.denied_last > into.denied_last)) into.denied_last = from.denied_last;
}

/**
 * Tallies being added up: each added tally (or event) merged into the one of its key, and each principal's denials per
 * day counted, which decides how many of its denials are still kept raw (MAX_RAW_DENIALS).
 */
export class AccessTallies {
  private readonly byKey = new Map<string, AccessTally>();
  private readonly deniedBy = new Map<string, number>();

  constructor(tallies: Iterable<AccessTally> = []) {
    for (const t of tallies) this.add(t);
  }

  /** How many tallies (distinct keys) are held. */
  get size(): number {
    return this.byKey.size;
  }

  add(t: AccessTally): void {
    const key = tallyKey(t);
    const held = this.byKey.get(key);
    if (held === undefined) this.byKey.set(key, { ...t });
    else mergeTally(held, t);
    if (t.denied > 0) {
      const who = JSON.stringify([t.day, t.principal]);
      this.deniedBy.set(who, (this.deniedBy.get(who) ?? 0) + t.denied);
    }
  }

  addEvent(e: AccessEvent): void {
    this.add(tallyOf(e));
  }

  /** The denials of `principal` on `day` added so far. */
  denied(day: string, principal: string): number {
    return this.deniedBy.get(JSON.stringify([day, principal])) ?? 0;
  }

  /** Copies of the tallies, sorted by day, principal, agency, document, then without the federal flag first. */
  list(): AccessTally[] {
    return [...this.byKey.values()].map((t) => ({ ...t })).sort(compareTallies);
  }
}

/** Events tallied per day, principal, agency, document and federal flag, sorted (AccessTallies.list). */
export function tallyAccess(events: Iterable<AccessEvent>): AccessTally[] {
  const tallies = new AccessTallies();
  for (const e of events) tallies.addEvent(e);
  return tallies.list();
}

/**
 * The events of a batch a store keeps as raw events, in order: every served one, and a principal's denials of a day
 * while it has fewer than MAX_RAW_DENIALS, counting `deniedBefore(day, principal)` (what the store already holds) and
 * the batch's own before it. The others are counted in the tallies only.
 */
export function rawAccessEvents(events: readonly AccessEvent[], deniedBefore: (day: string, principal: string) => number): AccessEvent[] {
  const seen = new Map<string, number>();
  return events.filter((e) => {
    if (e.outcome !== 'denied') return true;
    const who = JSON.stringify([accessDay(e), e.principal]);
    const before = seen.get(who) ?? deniedBefore(accessDay(e), e.principal);
    seen.set(who, before + 1);
    return before < MAX_RAW_DENIALS;
  });
}

/** Events summarized per day, principal, agency and document, in that order. */
export function summarizeAccess(events: Iterable<AccessEvent>): AccessSummary[] {
  return mergeSummaries(tallyAccess(events)).map(({ federal: _federal, ...summary }) => summary);
}

/**
 * Sorted tallies (AccessTallies.list) merged per day, principal, agency and document, as the report gives them:
 * served, denied, first and last; `federal` when any of the merged tallies has it.
 */
export function mergeSummaries(tallies: readonly AccessTally[]): (AccessSummary & { federal?: true })[] {
  const merged: (AccessSummary & { federal?: true })[] = [];
  let key = '';
  for (const t of tallies) {
    const k = JSON.stringify([t.day, t.principal, t.agency ?? '', t.document]);
    const last = merged.at(-1);
    if (last !== undefined && k === key) {
      last.served += t.served;
      last.denied += t.denied;
      if (t.first < last.first) last.first = t.first;
      if (t.last > last.last) last.last = t.last;
      if (t.federal === true) last.federal = true;
      continue;
    }
    key = k;
    const { day, principal, agency, document, served, denied, first, last: end, federal } = t;
    merged.push({
      day,
      principal,
      ...(agency === undefined ? {} : { agency }),
      ...(federal === true ? { federal } : {}),
      document,
      served,
      denied,
      first,
      last: end,
    });
  }
  return merged;
}

function compareTallies(a: AccessTally, b: AccessTally): number {
  return (
    compare(a.day, b.day) ||
    compare(a.principal, b.principal) ||
    compare(a.agency ?? '', b.agency ?? '') ||
    compare(a.document, b.document) ||
    Number(a.federal === true) - Number(b.federal === true)
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
