import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { ConflictError, InvalidInputError, NotFoundError, UsageError } from '../../domain/errors';
import type { Cr26Class, Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { citedTitle } from '../../domain/fedramp/relied-rules';
import {
  buildIncidentReport,
  DEFAULT_PAIN,
  flagsIncidentId,
  groupIncidentFacts,
  groupIncidentId,
  incidentDue,
  incidentFlag,
  incidentFlaggedAt,
  incidentMarkdown,
  incidentTitle,
  INCIDENT_RULES,
  type GroupIncidentFacts,
  type IncidentDue,
  type IncidentReportModel,
  type IncidentReportType,
} from '../../domain/fedramp/incident';
import { INCIDENT_KIND, type IncidentRecord, type Recorded } from '../../domain/fedramp/ongoing-records';
import type { IncidentDocument } from '../../domain/fedramp/incident-document';
import { OngoingJournal } from './ongoing-journal';
import { configuredAgencies, requireProfileKeys } from '../../domain/fedramp/profile';
import { isError } from '../../domain/oscal/oscal-problem';
import type { NRating } from '../../domain/vulnerabilities/lifecycle';
import { parseNRating } from '../../domain/vulnerabilities/evaluation-policy';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { BUSINESS_CALENDAR, type BusinessCalendar } from '../../ports/business-calendar';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { SCHEMA_VALIDATOR, type FedrampSchemaSet, type SchemaValidator } from '../../ports/schema-validator';
import { splitPath } from '../shared/paths';
import { VulnerabilityRegister, type JudgedGroup } from '../vulnerabilities/vulnerability-register';
import { judgedBy, type JudgedBy, locateFedrampSchemas, profileWith, shapesOf, writeRecordedTwin } from './fedramp-documents';

const COMMAND = 'svc fedramp incident';

export interface WriteIncidentReportInput {
  type: IncidentReportType;
  /** `--group`: a vulnerability group's tracking id (`VG-…`) or finding id. */
  group?: string;
  trackingId?: string;
  summary?: string;
  n?: NRating;
  occurredAt?: Date;
  resolvedAt?: Date;
  /** `--agency`, repeatable; else the profile's `fedramp.agencies[].name` (initial) or the last report's (ongoing, final). */
  agencies?: string[];
  lessons?: string[];
  /** Write without recording. */
  draft?: boolean;
  /** `--out`: the JSON file; the twin goes beside it. Without it the document is returned, not written. */
  out?: string;
  /** `--schemas`: FedRAMP's CR26 schemas; else SVC_FEDRAMP_SCHEMAS or the config. */
  schemas?: string;
  class?: Cr26Class;
  now?: Date;
}

/** Why the due time is counted from where it is. */
export type DueFrom = 'identified' | 'occurred' | 'last-report' | 'resolved';

export interface WriteIncidentReportResult {
  report_type: IncidentReportType;
  rule: string;
  tracking_id: string;
  /** The vulnerability group it was drafted from. */
  group?: { id: string; finding_id: string };
  due: IncidentDue & { basis: DueFrom; late: boolean };
  /** When the report was written (`--now` or the clock), the time it is recorded at. */
  at: string;
  document: IncidentDocument;
  written?: { json: { path: string } & WrittenFile; markdown: { path: string } & WrittenFile };
  recorded: { journal_seq: number } | { draft: true };
  validation: { validated: true; schema: string; judged_by?: JudgedBy } | { validated: false; note: string };
}

/**
 * `svc fedramp incident` (DESIGN §12.5): a FedRAMP incident report (IEC-CSO-IIR, IEC-CSO-OIR, IEC-CSO-FIR) drafted
 * from a vulnerability group VER-TFR-IRI or VER-TFR-NRI flags, or from flags, due by the class's `pain_timeframes`:
 * an initial report from when the incident was identified (the group's flagging evaluation; `--occurred-at` from
 * flags), an ongoing one from the incident's last recorded report, a final one from `--resolved-at`. One tracking id
 * across an incident's reports; ongoing and final need its recorded initial report. Validated against FedRAMP's
 * schema when the schemas are found (a document it rejects is svc's bug: nothing is written); written with its
 * Markdown twin to `--out` and recorded in the run store's journal as one act (writeRecordedTwin) unless `--draft`.
 * Each `--agency` must name an agency of the profile's `fedramp.agencies` (configuredAgencies).
 */
@injectable()
export class WriteIncidentReport {
  constructor(
    private readonly register: VulnerabilityRegister,
    private readonly journal: OngoingJournal,
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(BUSINESS_CALENDAR) private readonly calendar: BusinessCalendar,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute(input: WriteIncidentReportInput): Promise<WriteIncidentReportResult> {
    const now = input.now ?? this.clock.now();
    const at = isoSeconds(now);
    checkFlags(input, now);
    const profile = requireProfileKeys(profileWith(this.profile, { class: input.class }), ['class', 'package_uri'], COMMAND, { class: '--class' });
    if (input.agencies !== undefined) configuredAgencies(this.profile, input.agencies);
    // Read (and so verify) the journal before anything is written.
    const reports = await this.reports();
    const scope: Scope = { cls: profile.class, now, rules: this.rules.rules(), holiday: (day) => this.calendar.isHoliday(day) };
    const drafted =
      input.type === 'initial'
        ? await this.initial(
            input,
            scope,
            reports,
            (profile.agencies ?? []).map((a) => a.name),
          )
        : await this.followUp(input as WriteIncidentReportInput & { type: 'ongoing' | 'final' }, scope, reports);

    const located = await locateFedrampSchemas(this.schemas, input.schemas);
    const set = 'note' in located ? undefined : located;
    const model = incidentModel(input, drafted, profile.package_uri, scope.rules);
    const shapes = shapesOf(located);
    const document = buildIncidentReport(model, shapes.potentialImpact, shapes.ratings);
    const validation =
      set === undefined ? { validated: false as const, note: (located as { note: string }).note } : await this.validate(set, document, input.out);

    const entry: IncidentRecord = {
      report_type: input.type,
      tracking_id: drafted.trackingId,
      ...(drafted.judged === undefined ? {} : { group: drafted.judged.group.tracking_id }),
      summary: drafted.summary,
      occurred_at: drafted.occurredAt,
      due_at: drafted.due.at,
      ...(model.resolvedAt === undefined ? {} : { resolved_at: model.resolvedAt }),
      affected_agencies: drafted.agencies,
      lessons_learned: model.lessons,
      document,
      n: drafted.rated.n,
    };
    let written: WriteIncidentReportResult['written'];
    let seq: number | undefined;
    if (input.out !== undefined) {
      const identification = profile.cpo?.serviceIdentification as Record<string, unknown> | undefined;
      const markdown = incidentMarkdown(model, drafted.due, {
        ...(typeof identification?.serviceName === 'string' ? { service: identification.serviceName } : {}),
        ...(profile.fedramp_id === undefined ? {} : { fedrampId: profile.fedramp_id }),
        packageUri: profile.package_uri,
        rulesVersion: scope.rules.info.version,
        tool: this.settings.tool,
        generatedAt: at,
        json: splitPath(input.out).base,
      });
      const twin = await writeRecordedTwin(
        this.writer,
        input.out,
        document,
        markdown,
        input.draft
          ? undefined
          : this.journal.recording(
              INCIDENT_KIND,
              entry,
              at,
              "take the report from that entry's document (the journal holds it as recorded); running the command again without --draft would report it twice",
              drafted.trackingId,
            ),
      );
      written = twin.written;
      seq = twin.recorded;
    } else if (!input.draft) {
      // Printed, not written: the record is the only thing kept.
      seq = await this.journal.append(INCIDENT_KIND, entry, at);
    }
    const recorded: WriteIncidentReportResult['recorded'] = seq === undefined ? { draft: true } : { journal_seq: seq };
    const { judged } = drafted;
    return {
      report_type: input.type,
      rule: INCIDENT_RULES[input.type],
      tracking_id: drafted.trackingId,
      ...(judged === undefined ? {} : { group: { id: judged.group.tracking_id, finding_id: judged.group.finding_id } }),
      due: { ...drafted.due, late: now.getTime() > Date.parse(drafted.due.at) },
      at,
      document,
      ...(written === undefined ? {} : { written }),
      recorded,
      validation,
    };
  }

  /**
   * An initial report: from a group VER-TFR-IRI or VER-TFR-NRI flags (due from the evaluation that flagged it: the
   * incident was identified then), or from flags (due from --occurred-at); never a second one for a tracking id.
   */
  private async initial(
    input: WriteIncidentReportInput,
    scope: Scope,
    reports: Map<string, Recorded<IncidentRecord>[]>,
    profileAgencies: string[],
  ): Promise<Drafted> {
    const { cls, now, rules, holiday } = scope;
    let drafted: Drafted;
    if (input.group !== undefined) {
      const register = await this.register.judge({ class: cls, now }, COMMAND);
      const judged = this.register.find(register, input.group);
      const { group, judgment } = judged;
      if (incidentFlag(judgment) === undefined) throw notFlagged(judged, register.now);
      const flaggedAt = incidentFlaggedAt(group, rules, cls, now) ?? group.first_detected;
      const facts = groupIncidentFacts(group, judgment, flaggedAt);
      const rated: Rated =
        input.n !== undefined
          ? { n: input.n, by: 'flag' }
          : facts.rating.current !== undefined
            ? { n: facts.rating.current, by: 'group' }
            : { n: DEFAULT_PAIN, by: 'default' };
      drafted = {
        trackingId: input.trackingId ?? groupIncidentId(group.tracking_id, this.hashing),
        judged,
        facts,
        rated,
        summary: input.summary ?? facts.description,
        occurredAt: input.occurredAt === undefined ? group.first_detected : isoSeconds(input.occurredAt),
        due: { ...incidentDue(rules, 'initial', cls, rated.n, flaggedAt, holiday), basis: 'identified' },
        earlier: [],
        agencies: input.agencies ?? profileAgencies,
      };
    } else {
      const summary = input.summary!;
      const occurredAt = isoSeconds(input.occurredAt!);
      drafted = {
        trackingId: input.trackingId ?? flagsIncidentId(summary, occurredAt, this.hashing),
        rated: { n: input.n!, by: 'flag' },
        summary,
        occurredAt,
        due: { ...incidentDue(rules, 'initial', cls, input.n!, occurredAt, holiday), basis: 'occurred' },
        earlier: [],
        agencies: input.agencies ?? profileAgencies,
      };
    }
    const earlier = reports.get(drafted.trackingId) ?? [];
    const closed = earlier.find((e) => e.record.report_type === 'final');
    if (closed !== undefined) throw closedIncident(drafted.trackingId, closed);
    const initial = earlier.find((e) => e.record.report_type === 'initial');
    if (initial !== undefined) {
      throw new ConflictError(
        'incident-reported',
        `${drafted.trackingId}: an initial report of this incident is recorded already (journal entry ${initial.seq} at ${initial.recorded_at}); write --type ongoing or final, or pass another --tracking-id for a new incident`,
      );
    }
    return drafted;
  }

  /**
   * An ongoing or final report of an incident whose initial report is recorded: its group (named, or the one the
   * initial report came from while the register holds it) need not be flagged any more; an ongoing report is due
   * from the incident's last report, a final one from --resolved-at.
   */
  private async followUp(
    input: WriteIncidentReportInput & { type: 'ongoing' | 'final' },
    scope: Scope,
    reports: Map<string, Recorded<IncidentRecord>[]>,
  ): Promise<Drafted> {
    const { cls, now, rules, holiday } = scope;
    let judged: JudgedGroup | undefined;
    if (input.group !== undefined) judged = this.register.find(await this.register.judge({ class: cls, now }, COMMAND), input.group);
    const trackingId = input.trackingId ?? groupIncidentId(judged!.group.tracking_id, this.hashing);
    const earlier = reports.get(trackingId) ?? [];
    const initialEntry = earlier.find((e) => e.record.report_type === 'initial');
    if (initialEntry === undefined) {
      throw new NotFoundError(
        'incident-not-reported',
        `${trackingId}: no initial report of this incident is recorded in ${this.journal.location}; write --type initial first (without --draft), or pass the tracking id its initial report printed`,
      );
    }
    const closed = earlier.find((e) => e.record.report_type === 'final');
    if (closed !== undefined) throw closedIncident(trackingId, closed);
    const initial = initialEntry.record;
    if (judged !== undefined && initial.group !== undefined && initial.group !== judged.group.tracking_id) {
      throw new InvalidInputError(
        'incident-group-mismatch',
        `--group ${input.group}: incident ${trackingId} was reported from ${initial.group}, not ${judged.group.tracking_id}; pass that group, or leave out --group`,
      );
    }
    if (judged === undefined && initial.group !== undefined) {
      judged = (await this.register.judge({ class: cls, now }, COMMAND)).groups.find((g) => g.group.tracking_id === initial.group);
    }
    const facts =
      judged === undefined
        ? undefined
        : groupIncidentFacts(
            judged.group,
            judged.judgment,
            incidentFlaggedAt(judged.group, rules, cls, now) ?? initial.document.timeline?.evaluationCompletedAt,
          );
    const last = earlier[earlier.length - 1];
    const rated = followUpRating(input.n, facts, judged, last);
    const occurredAt = input.occurredAt === undefined ? initial.occurred_at : isoSeconds(input.occurredAt);
    let due: Drafted['due'];
    if (input.type === 'ongoing') due = { ...incidentDue(rules, 'ongoing', cls, rated.n, last.recorded_at, holiday), basis: 'last-report' };
    else {
      const resolvedAt = isoSeconds(input.resolvedAt!);
      if (Date.parse(resolvedAt) < Date.parse(occurredAt))
        throw new UsageError('bad-time', `--resolved-at ${resolvedAt} is before the incident occurred (${occurredAt}); give the time it was resolved`);
      due = { ...incidentDue(rules, 'final', cls, rated.n, resolvedAt, holiday), basis: 'resolved' };
    }
    return {
      trackingId,
      ...(judged === undefined ? {} : { judged }),
      ...(facts === undefined ? {} : { facts }),
      rated,
      summary: input.summary ?? initial.summary,
      occurredAt,
      due,
      earlier,
      agencies: input.agencies ?? last.record.affected_agencies,
    };
  }

  /** The recorded incident reports by tracking id, in the order recorded. */
  private async reports(): Promise<Map<string, Recorded<IncidentRecord>[]>> {
    const byId = new Map<string, Recorded<IncidentRecord>[]>();
    for (const entry of await this.journal.entries(INCIDENT_KIND)) {
      const id = entry.record.tracking_id;
      const list = byId.get(id);
      if (list === undefined) byId.set(id, [entry]);
      else list.push(entry);
    }
    return byId;
  }

  /** A report svc built that FedRAMP's schema rejects is svc's bug (an internal error, exit 70): nothing is written. */
  private async validate(
    set: FedrampSchemaSet,
    document: IncidentDocument,
    out: string | undefined,
  ): Promise<{ validated: true; schema: string; judged_by?: JudgedBy }> {
    const problems = (await this.schemas.validateFedramp(set, 'incident', document)).filter(isError);
    if (problems.length > 0) {
      throw new Error(
        `${out ?? 'the incident report'}: ${problems[0].path}: ${problems[0].message}: svc built a document FedRAMP's schema rejects, and wrote nothing`,
      );
    }
    return { validated: true, schema: splitPath(set.files.incident ?? '').base, ...judgedBy(set, 'incident') };
  }
}

/** The class, time, rules and holiday test a report is judged by. */
interface Scope {
  cls: Cr26Class;
  now: Date;
  rules: Cr26Rules;
  holiday: (day: string) => boolean;
}

/** The rating in force and where it comes from: --n, the group's evaluations, the last report, or IEC-CSO-DPR's default. */
interface Rated {
  n: NRating;
  by: 'flag' | 'group' | 'report' | 'default';
}

/** What a report is drafted from, before it is built. */
interface Drafted {
  trackingId: string;
  judged?: JudgedGroup;
  facts?: GroupIncidentFacts;
  rated: Rated;
  summary: string;
  occurredAt: string;
  due: IncidentDue & { basis: DueFrom };
  /** The incident's recorded reports, in order. */
  earlier: Recorded<IncidentRecord>[];
  agencies: string[];
}

/** The newest word on the rating: --n, else the group's when an evaluation set it after the last report, else that report's. */
function followUpRating(
  given: NRating | undefined,
  facts: GroupIncidentFacts | undefined,
  judged: JudgedGroup | undefined,
  last: Recorded<IncidentRecord>,
): Rated {
  if (given !== undefined) return { n: given, by: 'flag' };
  const lastN = parseNRating(last.record.n);
  const setAt = judged?.judgment.reductions.at(-1)?.at;
  const current = facts?.rating.current;
  if (current !== undefined && (lastN === undefined || (setAt !== undefined && Date.parse(setAt) > Date.parse(last.recorded_at))))
    return { n: current, by: 'group' };
  return lastN !== undefined ? { n: lastN, by: 'report' } : { n: DEFAULT_PAIN, by: 'default' };
}

/** The report's model: the group's facts, the incident's earlier reports as milestones and ratings, the flags. */
function incidentModel(input: WriteIncidentReportInput, d: Drafted, packageUri: string, rules: Pick<Cr26Rules, 'rules'>): IncidentReportModel {
  const { facts } = d;
  const resolvedAt = input.resolvedAt === undefined ? undefined : isoSeconds(input.resolvedAt);
  const reported = d.earlier.map((e) => ({
    at: e.recorded_at,
    what: `${incidentTitle(e.record.report_type)} recorded (${INCIDENT_RULES[e.record.report_type]}, journal entry ${e.seq})`,
  }));
  const ratings = d.earlier.flatMap((e) => {
    const n = parseNRating(e.record.n);
    return n === undefined ? [] : [{ at: e.recorded_at, n }];
  });
  return {
    type: input.type,
    packageUri,
    trackingId: d.trackingId,
    description: d.summary,
    timeline: {
      // From a group without --occurred-at, svc knows when it was detected, not when the incident started.
      ...(input.occurredAt === undefined && facts !== undefined ? {} : { startedAt: d.occurredAt }),
      ...(facts === undefined ? {} : { detectedAt: facts.detectedAt, detectionSource: facts.detectionSource }),
      ...(facts?.evaluationCompletedAt === undefined ? {} : { evaluationCompletedAt: facts.evaluationCompletedAt }),
      milestones: [
        ...(facts?.milestones ?? []),
        ...reported,
        ...(resolvedAt === undefined ? [] : [{ at: resolvedAt, what: 'Incident resolved and recovery complete' }]),
      ],
    },
    rating: {
      current: d.rated.n,
      history: [...(facts?.rating.history ?? []), ...ratings].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).map((r) => r.n),
      ...ratingNotes(d.rated, facts, d.earlier.at(-1), rules),
    },
    ...(facts?.recoveryPlan === undefined ? {} : { recoveryPlan: facts.recoveryPlan }),
    agencies: d.agencies,
    ...(facts === undefined ? {} : { observedActivity: facts.observedActivity }),
    relatedCveIds: facts?.relatedCveIds ?? [],
    ...(facts?.responseAndRecovery === undefined ? {} : { responseAndRecovery: facts.responseAndRecovery }),
    ...(resolvedAt === undefined ? {} : { resolvedAt }),
    lessons: input.lessons ?? [],
  };
}

/** The flag combinations each report type needs, before anything is read (usage errors, exit 2). */
function checkFlags(input: WriteIncidentReportInput, now: Date): void {
  const type = input.type;
  if (type === 'final' && input.resolvedAt === undefined) {
    throw new UsageError(
      'missing-flag',
      '--type final needs --resolved-at: a Final Incident Report says when the incident was resolved and recovery completed (IEC-CSO-FIR)',
    );
  }
  if (type !== 'final' && input.resolvedAt !== undefined)
    throw new UsageError('bad-flag-value', `--resolved-at is for --type final: an incident still being reported (--type ${type}) is not resolved`);
  if (type === 'initial' && input.group === undefined) {
    const missing = [
      input.summary === undefined ? '--summary' : '',
      input.n === undefined ? '--n' : '',
      input.occurredAt === undefined ? '--occurred-at' : '',
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new UsageError(
        'missing-flag',
        `--type initial without --group needs --summary, --n and --occurred-at (missing ${missing.join(', ')}; --n 5 when the PAIN is not estimated, IEC-CSO-DPR); or draft it from a flagged vulnerability group with --group`,
      );
    }
  }
  if (type !== 'initial' && input.group === undefined && input.trackingId === undefined) {
    throw new UsageError(
      'missing-flag',
      `--type ${type} needs --tracking-id (the one the incident's initial report printed) or --group (the vulnerability group it was reported from)`,
    );
  }
  if (input.trackingId !== undefined && input.trackingId.trim() === '')
    throw new UsageError('bad-flag-value', "--tracking-id is empty; give the incident's tracking id, such as INC-1f2e3d4c5b6a7980");
  if (input.summary !== undefined && input.summary.trim() === '') throw new UsageError('bad-flag-value', '--summary is empty; describe the incident');
  if (input.lessons?.some((l) => l.trim() === '')) throw new UsageError('bad-flag-value', '--lesson is empty; write the lesson learned, or leave the flag out');
  for (const [flag, value] of [
    ['--occurred-at', input.occurredAt],
    ['--resolved-at', input.resolvedAt],
  ] as const) {
    if (value !== undefined && value.getTime() > now.getTime())
      throw new UsageError('bad-time', `${flag} ${isoSeconds(value)} is after --now ${isoSeconds(now)}; an incident report tells what has happened`);
  }
  if (input.occurredAt !== undefined && input.resolvedAt !== undefined && input.resolvedAt.getTime() < input.occurredAt.getTime()) {
    throw new UsageError(
      'bad-time',
      `--resolved-at ${isoSeconds(input.resolvedAt)} is before --occurred-at ${isoSeconds(input.occurredAt)}; give the time it was resolved`,
    );
  }
}

/** How the rating in force was estimated (IEC-CSO-EFI), or that it was not (IEC-CSO-DPR). */
function ratingNotes(
  rated: Rated,
  facts: GroupIncidentFacts | undefined,
  last: Recorded<IncidentRecord> | undefined,
  rules: Pick<Cr26Rules, 'rules'>,
): { notes?: string } {
  switch (rated.by) {
    case 'flag':
      return { notes: `${citedTitle(rules, 'Estimated by the provider', ['IEC-CSO-EFI'])}.` };
    case 'group':
      return facts?.rating.notes === undefined ? {} : { notes: facts.rating.notes };
    case 'report':
      return last === undefined ? {} : { notes: `As the incident's report of ${last.recorded_at} gave it (journal entry ${last.seq}).` };
    case 'default':
      return { notes: `${citedTitle(rules, 'Not estimated: N5 by default', ['IEC-CSO-DPR'])}.` };
  }
}

function closedIncident(id: string, final: Recorded<IncidentRecord>): ConflictError {
  return new ConflictError(
    'incident-closed',
    `${id}: this incident's final report is recorded (journal entry ${final.seq} at ${final.recorded_at}); a new incident needs its own --tracking-id`,
  );
}

function notFlagged({ group, judgment }: JudgedGroup, at: string): InvalidInputError {
  const said = [
    judgment.state,
    judgment.n === undefined ? 'no N-rating' : `N${judgment.n}`,
    judgment.irv === undefined ? '' : judgment.irv ? 'internet-reachable' : 'not internet-reachable',
    judgment.lev === undefined ? '' : judgment.lev ? 'likely exploitable' : 'not likely exploitable',
  ]
    .filter(Boolean)
    .join(', ');
  return new InvalidInputError(
    'not-an-incident',
    `${group.tracking_id} (${group.finding_id}): not a reportable incident at ${at} (${said}; VER-TFR-IRI and VER-TFR-NRI do not flag it); record the evaluation that makes it one (svc vuln evaluate), or report it from flags without --group`,
  );
}
