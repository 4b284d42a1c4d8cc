import { inject, injectable } from 'tsyringe';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { formatDigest } from '../../domain/evidence/content-digest';
import { UsageError } from '../../domain/errors';
import type { Cr26Class, Cr26Rules } from '../../domain/fedramp/cr26-rules';
import type { ScnRecord } from '../../domain/fedramp/ongoing-records';
import { requireProfileKeys } from '../../domain/fedramp/profile';
import {
  buildScn,
  scnChangeType,
  scnDates,
  scnMarkdown,
  scnNotices,
  type DatedScnNotice,
  type ScnDates,
  type ScnImpact,
  type ScnStatements,
  type ScnType,
  type UndatedScnNotice,
} from '../../domain/fedramp/scn';
import { driftImpact, readDriftReport, type DriftReportKind } from '../../domain/fedramp/scn-drift';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { BUSINESS_CALENDAR, type BusinessCalendar } from '../../ports/business-calendar';
import { CATALOG_SOURCE, type CatalogSource } from '../../ports/catalog-source';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';
import { splitPath } from '../shared/paths';
import { judgedBy, type JudgedBy, locateFedrampSchemas, profileWith, validateBuiltDocument, writeRecordedTwin } from './fedramp-documents';
import { OngoingJournal } from './ongoing-journal';
import { SCN_KIND } from '../../domain/fedramp/ongoing-records';

export interface WriteScnInput {
  /** `--type` as given: `adaptive` or `transformative`; `routine` is refused (SCN-RTR-NNR). */
  type: string;
  /** `--summary`: the change's short description. */
  summary: string;
  /** `--start`, `--finish`, `--verified`: YYYY-MM-DD, or an ISO-8601 time with a zone (its day there). */
  dates: ScnDates;
  /** `--drift`: the `--json` output of `svc ir drift-detect` or `svc substrate drift`. */
  drift?: string;
  statements?: ScnStatements;
  /** The JSON file; the twin goes beside it. Default `scn-<day of now>.json`. */
  out?: string;
  /** Write without recording. */
  draft?: boolean;
  schemas?: string;
  class?: Cr26Class;
  /** When it is recorded, and what notices have passed; else the clock. */
  now?: Date;
}

export interface WriteScnResult {
  type: ScnType;
  out: string;
  markdown: string;
  /** `sha256:<hex>` of the JSON file. */
  sha256: string;
  notices: DatedScnNotice[];
  /** The notices not dated, with the flag that would date them. */
  undated: UndatedScnNotice[];
  /** The dated notices whose last day is before `now`. */
  passed: string[];
  ksis: string[];
  controls: string[];
  drift?: { file: string; kind: DriftReportKind; changes: number };
  /** The journal entry that records it; absent for a draft. */
  recorded?: { seq: number };
  /** The schema directory and the schema that judged the SCN ($schemaVersion, sha256), or why it was not validated. */
  validated: { schema?: string; judged_by?: JudgedBy; note?: string };
  now: string;
}

const COMMAND = 'svc fedramp scn';

/** The flag that gives each statement, for messages. */
const STATEMENT_FLAGS: Record<keyof ScnStatements, string> = {
  explanation: '--explanation',
  reason: '--reason',
  customerImpact: '--customer-impact',
  impactAnalysis: '--impact-analysis',
  assessor: '--assessor',
  vulnerability: '--vulnerability',
};

/**
 * `svc fedramp scn` (DESIGN §12.5): a Significant Change Notification from the flags and, when given, a drift report
 * (the KSIs and controls it touches), its notices dated in business days from the rules data, validated against
 * FedRAMP's schema when the schemas are found, written with its Markdown twin and recorded in the run store's journal
 * as one act (writeRecordedTwin) unless it is a draft. Every refusal (a routine change, a bad day, an empty flag, a
 * profile without package_uri, a file that is no drift report, a journal that does not verify) comes before anything is
 * written.
 */
@injectable()
export class WriteScn {
  constructor(
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(BUSINESS_CALENDAR) private readonly calendar: BusinessCalendar,
    @inject(CATALOG_SOURCE) private readonly catalogs: CatalogSource,
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(CLOCK) private readonly clock: Clock,
    private readonly journal: OngoingJournal,
  ) {}

  async execute(input: WriteScnInput): Promise<WriteScnResult> {
    const rules = this.rules.rules();
    const type = scnChangeType(input.type, rules);
    const summary = input.summary.trim();
    if (summary === '') throw new UsageError('bad-flag-value', '--summary: empty; write a short description of the change');
    const statements: ScnStatements = Object.fromEntries(Object.entries(input.statements ?? {}).filter(([, v]) => v !== undefined));
    for (const [key, value] of Object.entries(statements)) {
      if (value!.trim() === '')
        throw new UsageError('bad-flag-value', `${STATEMENT_FLAGS[key as keyof ScnStatements]} is empty; write it, or leave the flag out`);
    }
    const dates = scnDates(input.dates);
    // Only --class: the SCN's --type is the change's type, not the certification type profileWith also takes.
    const profile = requireProfileKeys(profileWith(this.profile, input.class === undefined ? {} : { class: input.class }), ['package_uri'], COMMAND);
    const now = input.now ?? this.clock.now();
    const notices = scnNotices(rules, type, dates, (day) => this.calendar.isHoliday(day), profile.class);
    const impact = input.drift === undefined ? undefined : await this.impact(input.drift, rules);
    const document = buildScn({
      packageUri: profile.package_uri,
      type,
      summary,
      dates,
      notices,
      ...(impact === undefined ? {} : { impact: impact.impact }),
      statements,
    });
    const out = input.out ?? `scn-${isoSeconds(now).slice(0, 10)}.json`;
    const json = splitPath(out).base;
    const located = await locateFedrampSchemas(this.schemas, input.schemas);
    if (!('note' in located)) await validateBuiltDocument(this.schemas, located, 'scn', json, document);
    // Reading the journal verifies its chain: a store that does not verify stops the command before anything is written.
    if (!input.draft) await this.journal.entries(SCN_KIND);
    const markdown = scnMarkdown(document, {
      title: input.draft ? 'Significant Change Notification (DRAFT)' : 'Significant Change Notification',
      ...(profile.fedramp_id === undefined ? {} : { fedrampId: profile.fedramp_id }),
      packageUri: profile.package_uri,
      rulesVersion: rules.info.version,
      tool: this.settings.tool,
      generatedAt: isoSeconds(now),
      json,
    });
    const ksis = [...(impact?.impact.ksis ?? [])];
    const controls = [...(impact?.impact.controls ?? [])];
    const record: ScnRecord = {
      type,
      summary,
      ...dates,
      notices: notices.dated.map((n) => ({ rule: n.rule, notice: n.notice, due: n.due })),
      ksis,
      controls,
      document,
    };
    const { written, recorded: seq } = await writeRecordedTwin(
      this.writer,
      out,
      document,
      markdown,
      input.draft
        ? undefined
        : this.journal.recording(SCN_KIND, record, isoSeconds(now), 'run the same command with --draft to write them without recording the SCN a second time'),
    );
    const recorded: WriteScnResult['recorded'] = seq === undefined ? undefined : { seq };
    return {
      type,
      out,
      markdown: written.markdown.path,
      sha256: formatDigest(written.json.sha256),
      notices: notices.dated,
      undated: notices.undated,
      passed: notices.dated.filter((n) => Date.parse(n.due) < now.getTime()).map((n) => n.rule),
      ksis,
      controls,
      ...(impact === undefined ? {} : { drift: impact.drift }),
      ...(recorded === undefined ? {} : { recorded }),
      validated: 'note' in located ? { note: located.note } : { schema: located.dir, ...judgedBy(located, 'scn') },
      now: isoSeconds(now),
    };
  }

  /** The drift report's KSIs, controls and impact paragraph; a missing or malformed file fails as the reader fails. */
  private async impact(path: string, rules: Cr26Rules): Promise<{ impact: ScnImpact; drift: NonNullable<WriteScnResult['drift']> }> {
    const file = await this.reader.read(path);
    const report = readDriftReport(file.document, path);
    // The SCN names the report by its file name: where it sat on the provider's disk is nobody else's business.
    const impact = driftImpact({ ...report, file: file.name }, rules, this.catalogs.catalog());
    return { impact, drift: { file: path, kind: report.kind, changes: report.changes.length } };
  }
}
