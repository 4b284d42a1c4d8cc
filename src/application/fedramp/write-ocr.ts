import { inject, injectable } from 'tsyringe';
import { dayAfter, isoSeconds } from '../../domain/encoding/iso-time';
import { formatDigest } from '../../domain/evidence/content-digest';
import { UsageError } from '../../domain/errors';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import { holdsRule } from '../../domain/fedramp/relied-rules';
import { buildOcr, nextReportDate, ocrMarkdown, ocrPeriodEnding, type AcceptedSummary } from '../../domain/fedramp/ocr';
import { OCR_KIND, type OcrRecord } from '../../domain/fedramp/ongoing-records';
import type { FedrampType } from '../../domain/fedramp/profile';
import type { NRating } from '../../domain/vulnerabilities/lifecycle';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';
import { splitPath } from '../shared/paths';
import { VulnerabilityRegister, type Register } from '../vulnerabilities/vulnerability-register';
import { Cr26Assessment } from './cr26-assessment';
import { OngoingJournal } from './ongoing-journal';
import { judgedBy, type JudgedBy, locateFedrampSchemas, validateBuiltDocument, writeRecordedTwin } from './fedramp-documents';

export interface WriteOcrInput {
  /** YYYY-MM-DD; default the day after the last recorded OCR's period, else 3 months before `to`. */
  from?: string;
  /** YYYY-MM-DD; default the day of `now`. */
  to?: string;
  /** Write without recording. */
  draft?: boolean;
  out?: string;
  schemas?: string;
  class?: Cr26Class;
  type?: FedrampType;
  now?: Date;
}

export interface WriteOcrResult {
  out: string;
  markdown: string;
  sha256: string;
  period: { from: string; to: string };
  next_report_date: string;
  /** The journal entry that records it; absent for a draft. */
  recorded?: { seq: number; snapshot: OcrRecord['snapshot'] };
  counts: { certification_data_changes: number; planned_changes: number; transformative_changes: number; incidents: number; accepted_vulnerabilities: number };
  /** The schema directory and the schema that judged the OCR ($schemaVersion, sha256), or why it was not validated. */
  validated: { schema?: string; judged_by?: JudgedBy; note?: string };
}

/** The profile keys the OCR reads besides type and class. */
const OCR_KEYS = ['package_uri'] as const;

/**
 * `svc fedramp ocr` (DESIGN §12.5): the Ongoing Certification Report of a period from the run store (the KSI status
 * changes, the recorded SCNs and incident reports, the vulnerability register's accepted vulnerabilities) and the
 * profile (agencies, planned changes, recommendations), validated against FedRAMP's schema, written with its twin
 * and recorded in the journal with the next report date (CCM-OCR-NRD) and the snapshot it freezes (CDS-CSO-HAD) as
 * one act (writeRecordedTwin), unless it is a draft.
 */
@injectable()
export class WriteOcr {
  constructor(
    private readonly cr26: Cr26Assessment,
    private readonly register: VulnerabilityRegister,
    private readonly journal: OngoingJournal,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute(input: WriteOcrInput): Promise<WriteOcrResult> {
    const command = 'svc fedramp ocr';
    const scope = this.cr26.scope(input, OCR_KEYS, command);
    const recorded = await this.journal.read();
    const previous = recorded.ocrs.at(-1);
    const to = input.to ?? isoSeconds(scope.now).slice(0, 10);
    const from = input.from ?? (previous === undefined ? ocrPeriodEnding(to).from : dayAfter(previous.period.to));
    if (from > to)
      throw new UsageError(
        'bad-period',
        `--from ${from} is after --to ${to}; give the period's start first${input.from === undefined ? ` (the last recorded OCR ended ${previous?.period.to})` : ''}`,
      );
    const state = await this.cr26.state();
    // The snapshot stops at the last run recorded, whatever its as_of.
    const latest = state?.latest;
    // The period's every day, even when it began more than a year ago (an OCR written late).
    const { picture } = await this.cr26.storedPicture(scope, state?.runs ?? [], from);
    const register = await this.register.judge({ class: scope.profile.class, now: scope.now }, command);
    const document = buildOcr({
      packageUri: scope.profile.package_uri,
      period: { from, to },
      daily: picture.daily,
      agencies: (scope.profile.agencies ?? []).map((a) => a.name),
      scns: recorded.scns,
      incidents: recorded.incidents,
      accepted: acceptedSummary(register, scope.profile.package_uri),
      plannedChanges: scope.profile.planned_changes ?? [],
      recommendations: scope.profile.recommendations ?? [],
    });
    const out = input.out ?? `ocr-${to}.json`;
    const located = await locateFedrampSchemas(this.schemas, input.schemas);
    if (!('note' in located)) await validateBuiltDocument(this.schemas, located, 'ocr', splitPath(out).base, document);
    const markdown = ocrMarkdown(document, {
      title: input.draft ? 'Ongoing Certification Report (DRAFT)' : 'Ongoing Certification Report',
      ...(scope.profile.fedramp_id === undefined ? {} : { fedrampId: scope.profile.fedramp_id }),
      packageUri: scope.profile.package_uri,
      rulesVersion: scope.rules.info.version,
      tool: this.settings.tool,
      generatedAt: isoSeconds(scope.now),
      json: splitPath(out).base,
    });
    const next = nextReportDate(to);
    const snapshot = { ...(latest === undefined ? {} : { run_seq: latest.seq }), journal_seq: recorded.journalSeq };
    const { written, recorded: seq } = await writeRecordedTwin(
      this.writer,
      out,
      document,
      markdown,
      input.draft
        ? undefined
        : this.journal.recording(
            OCR_KIND,
            { period: { from, to }, next_report_date: next, document, snapshot },
            isoSeconds(scope.now),
            `run ${command} --draft --from ${from} --to ${to} to write them without recording the OCR a second time`,
          ),
    );
    const entry: WriteOcrResult['recorded'] = seq === undefined ? undefined : { seq, snapshot };
    return {
      out,
      markdown: written.markdown.path,
      sha256: formatDigest(written.json.sha256),
      period: { from, to },
      next_report_date: next,
      ...(entry === undefined ? {} : { recorded: entry }),
      counts: {
        certification_data_changes: document.certificationDataChanges.length,
        planned_changes: document.plannedCertificationDataChanges.changes.length,
        transformative_changes: document.transformativeChanges.length,
        incidents: document.reportableIncidents.incidents.length,
        accepted_vulnerabilities: register.groups.filter((g) => g.judgment.state === 'accepted').length,
      },
      validated: 'note' in located ? { note: `the OCR was not validated: ${located.note}` } : { schema: located.dir, ...judgedBy(located, 'ocr') },
    };
  }
}

/** The register's accepted groups as the OCR summarizes them; the AVI is published beside the CPO (`avi.json`). */
export function acceptedSummary(register: Register, packageUri: string): AcceptedSummary {
  const accepted = register.groups.filter((g) => g.judgment.state === 'accepted');
  const byN: Partial<Record<NRating, number>> = {};
  for (const { judgment } of accepted) if (judgment.n !== undefined) byN[judgment.n] = (byN[judgment.n] ?? 0) + 1;
  return {
    count: accepted.length,
    byN,
    aviUri: new URL('avi.json', packageUri).toString(),
    ...(holdsRule(register.release, 'VER-RPT-AVI') ? { aviRule: 'VER-RPT-AVI' } : {}),
  };
}
