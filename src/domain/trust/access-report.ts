import { asciiLower } from './principal-name';
import { addDays, dayNumber, endOfDay } from '../encoding/iso-time';
import { isIsoTime } from '../encoding/json-values';
import { InvalidInputError } from '../errors';
import type { Cr26Class, Cr26Notification, Cr26Rule, Cr26Rules, Cr26TimeUnit } from '../fedramp/cr26-rules';
import { addCadence, type HolidayTest } from '../fedramp/evidence-cadence';
import { monthsBefore } from '../fedramp/ksi-evaluation';
import type { FedrampAgency } from '../fedramp/profile';
import { mergeSummaries, tallyAccess, type AccessEvent, type AccessSummary, type AccessTally } from './access-log';
import { parseName } from './distinguished-name';

/** The rules GET /fedramp/access answers: access logging, the agency access inventory, agency access denials. */
export const ACCESS_RULES = ['CDS-TRC-ACL', 'CDS-TRC-AAI', 'CDS-UTC-AAD'] as const;

/** The rule that says FedRAMP must be told of a denied agency request, and within which timeframe. */
export const DENIAL_RULE = 'CDS-UTC-AAD';

/**
 * The default range reaches back this many calendar months before `to`: the six months CDS-TRC-ACL asks the summaries
 * be kept (the stores keep everything, so an older range can be asked for).
 */
export const DEFAULT_ACCESS_MONTHS = 6;

/** The longest range one request may ask for, in days (both ends counted): bounds the work and the answer. */
export const MAX_ACCESS_DAYS = 400;

/** The days asked for, YYYY-MM-DD, both included. */
export interface AccessRange {
  from: string;
  to: string;
}

/**
 * The range of a request for /fedramp/access: `to` defaults to `today` (UTC, the clock's), `from` to the same day of
 * the month DEFAULT_ACCESS_MONTHS months before `to`, clamped to the month's length (2026-08-31 → 2026-02-28). A day that
 * is not a calendar day, `from` after `to`, or a range longer than MAX_ACCESS_DAYS days is an InvalidInputError
 * `invalid-range` whose one line says the fix.
 */
export function accessRange(query: { from?: string; to?: string }, today: string): AccessRange {
  for (const key of ['from', 'to'] as const) {
    const value = query[key];
    if (value !== undefined && !(value.length === 10 && isIsoTime(value)))
      throw new InvalidInputError(
        'invalid-range',
        `${key} ${JSON.stringify(value.slice(0, 40))} is not a day of the calendar; write YYYY-MM-DD, e.g. ${today}`,
      );
  }
  const to = query.to ?? today;
  const from = query.from ?? monthsBefore(to, DEFAULT_ACCESS_MONTHS);
  if (from > to) {
    throw new InvalidInputError(
      'invalid-range',
      `from ${from} is after to ${to}${query.to === undefined ? ` (today, the default)` : ''}; give a from on or before ${to}`,
    );
  }
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days > MAX_ACCESS_DAYS) {
    const earliest = addDays(to, -(MAX_ACCESS_DAYS - 1));
    throw new InvalidInputError(
      'invalid-range',
      `from ${from} to ${to} is ${days} days; ask for at most ${MAX_ACCESS_DAYS} days at a time (from ${earliest} or later for this to), and for older days in further requests`,
    );
  }
  return { from, to };
}

/**
 * The days of a range in order, YYYY-MM-DD. Counted, not compared: the day after 9999-12-31 is `+010000-01-01`, which
 * sorts before every four-digit year.
 */
export function accessDays(range: AccessRange): string[] {
  const count = dayNumber(range.to) - dayNumber(range.from) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(range.from, i));
}

/** A `.gov` or `.mil` domain, or `mil` itself: a DoD CAC's UPN is the holder's EDIPI at `mil` (`1234567890@mil`). */
const FEDERAL_DOMAIN = /(?:^mil|\.(?:gov|mil))$/i;
/** `O=U.S. Government`, the organization of the Federal PKI's certificates, as parsed. */
const US_GOVERNMENT = parseName('O=U.S. Government')[0][0];

/**
 * Whether a principal the profile did not recognize still looks like a federal agency's user or system (CDS-UTC-AAD):
 * the part after the last `@` (a UPN's domain, a Kerberos realm) ends in `.gov` or `.mil` or is `mil` (a DoD CAC's
 * UPN, `1234567890@mil`), case-insensitively, or the name is an RFC 4514 distinguished name with an
 * `O=U.S. Government` attribute (the Federal PKI's), the value compared case-insensitively. A NetBIOS name
 * (`TREASURY\zoe`) says nothing of its owner and is not federal by itself.
 */
export function isFederalPrincipal(name: string): boolean {
  const at = name.lastIndexOf('@');
  if (at >= 0 && FEDERAL_DOMAIN.test(name.slice(at + 1))) return true;
  return isFederalName(name);
}

/**
 * Whether an authenticated identity looks federal: its name does (isFederalPrincipal), or its client certificate's
 * subject or issuer is a Federal PKI name (`O=U.S. Government`, as DoD CAC and PIV certificates carry).
 */
export function isFederalIdentity(identity: { name: string; subject?: string; issuer?: string }): boolean {
  return isFederalPrincipal(identity.name) || isFederalName(identity.subject) || isFederalName(identity.issuer);
}

/** Whether `name` is an RFC 4514 distinguished name with an `O=U.S. Government` attribute. */
function isFederalName(name: string | undefined): boolean {
  if (name === undefined || !name.includes('=')) return false;
  try {
    return parseName(name).some((rdn) => rdn.some((a) => a.oid === US_GOVERNMENT.oid && a.value.toLowerCase() === US_GOVERNMENT.value.toLowerCase()));
  } catch {
    return false;
  }
}

/**
 * Whether a logged event is a denied agency access request FedRAMP must be told of (CDS-UTC-AAD): a denial (403) of a
 * principal the profile recognized as an agency's (the event carries `agency`), or of one that looks federal though
 * no agency pattern recognized it (the event carries `federal`, judged from the certificate when there was one, or
 * isFederalPrincipal of its name).
 */
export function isAgencyDenial(event: AccessEvent): boolean {
  return event.outcome === 'denied' && (event.agency !== undefined || event.federal === true || isFederalPrincipal(event.principal));
}

/** A summary of a day as the report reads it: `federal` when some of its events were judged federal (AccessEvent.federal). */
export type AccessDaySummary = AccessSummary & { federal?: true };

/** One day of the access log as the report reads it: summaries of every event, and of the agency denials alone. */
export interface AccessDay {
  summaries: AccessDaySummary[];
  denials: AccessSummary[];
}

/** A day's events reduced to what the report keeps (the events themselves are dropped after this). */
export function summarizeAccessDay(events: readonly AccessEvent[]): AccessDay {
  return accessDayOf(tallyAccess(events));
}

/**
 * A day's tallies as the stores keep them (sorted, AccessTallies.list) reduced to what the report reads: the summaries
 * per day, principal, agency and document, and the agency denials (isAgencyDenial, judged per tally: a denial counts
 * when its principal was recognized as an agency's, was judged federal when it asked, or looks federal by its name),
 * each counted with the first and last denial. Needs no raw event: the report stands on summaries alone.
 */
export function accessDayOf(tallies: readonly AccessTally[]): AccessDay {
  const agencyDenials = tallies.filter((t) => t.denied > 0 && (t.agency !== undefined || t.federal === true || isFederalPrincipal(t.principal)));
  const denials = mergeSummaries(agencyDenials.map((t) => ({ ...t, served: 0, first: t.denied_first ?? t.first, last: t.denied_last ?? t.last }))).map(
    ({ federal: _federal, ...denial }) => denial,
  );
  return { summaries: mergeSummaries(tallies), denials };
}

/** Whose access a principal may see: everything, one agency's, or its own. */
export type AccessScope = 'all' | { agency: string } | { principal: string };

/**
 * Who sees what of the access log. A principal holding `operator` or `auditor` (`seesAll`) sees everything. A principal
 * recognized as an agency's sees that agency's rows only. A principal holding `agency` by name alone (roles.agency)
 * sees its own rows only: those logged under its name (compared with ASCII-only case folding, as role grants are) without an
 * agency, so no row of an agency reaches it even under a name that matches. Nobody sees another agency's rows.
 */
export function accessScope(viewer: { name: string; agency?: string }, seesAll: boolean): AccessScope {
  if (seesAll) return 'all';
  if (viewer.agency !== undefined) return { agency: viewer.agency };
  return { principal: viewer.name };
}

/** Whether a row (a summary, a denial, an observed principal) is in a scope. */
export function inAccessScope(scope: AccessScope, row: { principal: string; agency?: string }): boolean {
  if (scope === 'all') return true;
  if ('agency' in scope) return row.agency === scope.agency;
  return row.agency === undefined && asciiLower(row.principal) === asciiLower(scope.principal);
}

/** CDS-UTC-AAD as the rules data gives it: the timeframe, and FedRAMP's channel where the data names one. */
export interface DenialRule {
  rule: string;
  timeframe: { unit: Cr26TimeUnit; num: number };
  /** The rule's first `notification` (party, method, target: FedRAMP's form), when the data names one. */
  channel?: NotificationChannel;
}

/** How FedRAMP is told: the rules file's `notification[]` entry (`party`, `method`, `target`, `name`). */
export type NotificationChannel = Cr26Notification;

/**
 * CDS-UTC-AAD's timeframe and channel, read from the rules data, never typed in: the rule's `timeframe` (its
 * `timeframe_num` / `timeframe_type`; of a range, the shorter end, so a notice sent by then meets the rule), or the
 * class's where a release makes it vary by class. The channel is the rule's first `notification` entry. Throws InvalidInputError `no-timeframe` naming the rule when the
 * data lacks it.
 */
export function denialRule(rules: Pick<Cr26Rules, 'rules' | 'info'>, cls?: Cr26Class): DenialRule {
  const fail = (problem: string): never => {
    throw new InvalidInputError(
      'no-timeframe',
      `CR26 ${rules.info.version}: ${problem}, so svc cannot date when FedRAMP must be told of a denied agency request; use a release that gives it (SVC_FEDRAMP_RULES)`,
    );
  };
  const rule = rules.rules.find((r) => r.id === DENIAL_RULE);
  if (rule === undefined) return fail(`no rule ${DENIAL_RULE}`);
  const t = rule.timeframe ?? (cls === undefined ? undefined : rule.varies_by_class?.[cls]?.timeframe);
  const num = t?.num ?? t?.min ?? t?.max;
  if (t === undefined || num === undefined)
    return fail(`${DENIAL_RULE} gives no timeframe${rule.varies_by_class !== undefined ? ` for Class ${cls ?? '(none configured)'}` : ''}`);
  const channel = notificationChannel(rule);
  return { rule: rule.id, timeframe: { unit: t.unit, num }, ...(channel === undefined ? {} : { channel }) };
}

/** The rule's first `notification` entry (the rules data's own, as the rules model reads it). */
function notificationChannel(rule: Cr26Rule): NotificationChannel | undefined {
  return rule.notification?.[0];
}

/**
 * When FedRAMP must be told of a denial on `day`: the end (23:59:59Z) of the day the rule's timeframe after it, counted
 * by addCadence: business days skip Saturdays, Sundays and, by `holiday`, US federal holidays on their observed dates
 * (a Friday denial before a Monday holiday counts Tuesday as the first).
 */
export function notifyFedrampBy(day: string, timeframe: DenialRule['timeframe'], holiday: HolidayTest): string {
  return endOfDay(new Date(addCadence(Date.parse(`${day}T00:00:00Z`), timeframe, holiday)).toISOString().slice(0, 10));
}

/** How a principal of the inventory counts as an agency's: recognized by a pattern, named under roles.agency, or federal-looking. */
export type AgencyBasis = 'recognized' | 'named' | 'federal';

/** A principal seen in the range (CDS-TRC-AAI: the history of agency users and systems with access). */
export interface ObservedPrincipal {
  principal: string;
  agency?: string;
  basis: AgencyBasis;
  first: string;
  last: string;
  /** The documents served to it in the range, sorted. */
  documents: string[];
  served: number;
  denied: number;
}

/** CDS-TRC-AAI: who has access as configured, and who used it (or was refused) in the range. */
export interface AccessInventory {
  /** The offering's agencies (fedramp.agencies) with the patterns that recognize their users, by name. */
  agencies: FedrampAgency[];
  /** The principals roles.agency names (`*`: every authenticated principal), sorted. */
  named: string[];
  observed: ObservedPrincipal[];
}

/** A denied agency request (CDS-UTC-AAD), per day, principal, agency and document, with the date FedRAMP must be told by. */
export interface AgencyDenial {
  day: string;
  /** The first denial of the day; `last` the last, `count` how many. */
  at: string;
  last: string;
  count: number;
  principal: string;
  agency?: string;
  document: string;
  /** Where the release in use holds CDS-UTC-AAD. */
  notify_fedramp_by?: string;
}

/** What GET /fedramp/access answers. */
export interface AccessReport {
  from: string;
  to: string;
  scope: AccessScope;
  rules: string[];
  summaries: AccessSummary[];
  inventory: AccessInventory;
  denials: AgencyDenial[];
  /** CDS-UTC-AAD: within what FedRAMP must be told, and where (the rules data's channel, when it names one); absent where the release in use does not hold the rule. */
  notify_fedramp?: { rule: string; within: DenialRule['timeframe'] } & Partial<NotificationChannel>;
}

export interface AccessReportInput {
  range: AccessRange;
  scope: AccessScope;
  /** The range's days in order, each summarized (accessDayOf, summarizeAccessDay). */
  days: Iterable<AccessDay>;
  agencies: readonly FedrampAgency[];
  /** roles.agency of the API config. */
  named: readonly string[];
  /** Of ACCESS_RULES, those the release in use holds: the report cites only these. */
  rules: readonly string[];
  /** CDS-UTC-AAD's timeframe; undefined where the release does not hold the rule (no denial is then dated). */
  denial?: DenialRule;
  holiday: HolidayTest;
}

/**
 * The access report of a range for a scope (DESIGN §12.7). `summaries`: per day, principal, agency and document
 * (CDS-TRC-ACL), in scope. `inventory` (CDS-TRC-AAI): for `all`, every agency of the profile with its patterns, the
 * principals roles.agency names and every agency principal seen in the range (recognized by a pattern, named, or
 * federal-looking: by its name, or judged federal by its certificate when it asked, as the summaries keep it; auditors'
 * and operators' own reads are in the summaries only); for an agency, its own entry and its
 * principals; for a named principal, the grants naming it and itself. `denials` (CDS-UTC-AAD): the agency denials in
 * scope, each with the date FedRAMP must be told by. Every list sorted, so one log gives the same bytes.
 */
export function accessReport(input: AccessReportInput): AccessReport {
  const { scope } = input;
  const named = input.named.filter((p) => scope === 'all' || ('principal' in scope && (p === '*' || asciiLower(p) === asciiLower(scope.principal))));
  const isNamed = (principal: string) => input.named.some((p) => p === '*' || asciiLower(p) === asciiLower(principal));
  const summaries: AccessSummary[] = [];
  const denials: AgencyDenial[] = [];
  const observed = new Map<string, ObservedPrincipal>();
  for (const day of input.days) {
    for (const { federal, ...s } of day.summaries) {
      if (!inAccessScope(scope, s)) continue;
      summaries.push(s);
      const basis: AgencyBasis | undefined =
        s.agency !== undefined ? 'recognized' : isNamed(s.principal) ? 'named' : federal === true || isFederalPrincipal(s.principal) ? 'federal' : undefined;
      if (basis === undefined) continue;
      const key = JSON.stringify([s.principal, s.agency ?? '']);
      const seen = observed.get(key) ?? {
        principal: s.principal,
        ...(s.agency === undefined ? {} : { agency: s.agency }),
        basis,
        first: s.first,
        last: s.last,
        documents: [],
        served: 0,
        denied: 0,
      };
      observed.set(key, seen);
      if (s.first < seen.first) seen.first = s.first;
      if (s.last > seen.last) seen.last = s.last;
      if (s.served > 0 && !seen.documents.includes(s.document)) seen.documents.push(s.document);
      seen.served += s.served;
      seen.denied += s.denied;
    }
    for (const d of day.denials) {
      if (!inAccessScope(scope, d)) continue;
      const { day: on, first, last, denied, principal, agency, document } = d;
      denials.push({
        day: on,
        at: first,
        last,
        count: denied,
        principal,
        ...(agency === undefined ? {} : { agency }),
        document,
        ...(input.denial === undefined ? {} : { notify_fedramp_by: notifyFedrampBy(on, input.denial.timeframe, input.holiday) }),
      });
    }
  }
  const agencies = input.agencies.filter((a) => scope === 'all' || ('agency' in scope && a.name === scope.agency));
  return {
    from: input.range.from,
    to: input.range.to,
    scope,
    rules: [...input.rules],
    summaries,
    inventory: {
      agencies: agencies
        .map((a) => ({ name: a.name, realms: [...a.realms], issuers: [...a.issuers], domains: [...a.domains] }))
        .sort((a, b) => compare(a.name, b.name)),
      named: named.sort(compare),
      observed: [...observed.values()]
        .map((o) => ({ ...o, documents: o.documents.sort(compare) }))
        .sort((a, b) => compare(a.principal, b.principal) || compare(a.agency ?? '', b.agency ?? '')),
    },
    denials,
    ...(input.denial === undefined ? {} : { notify_fedramp: { rule: input.denial.rule, within: input.denial.timeframe, ...input.denial.channel } }),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
