import { inject, injectable } from 'tsyringe';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { controlCharacterIn } from '../../domain/encoding/control-characters';
import { UsageError } from '../../domain/errors';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import { VULNERABILITY_STATES, judgeGroup, nextDue, type Evaluation, type NRating, type VulnerabilityState } from '../../domain/vulnerabilities/lifecycle';
import { painRatings, requireOffered } from '../../domain/vulnerabilities/pain-ratings';
import { FedrampShapes } from '../fedramp/fedramp-documents';
import { aviGroups, buildAvi, buildHistory, buildVdr, reportPeriod, resourceRedactor, unwritableRatingsWarning, vdrGroups } from '../../domain/vulnerabilities/vulnerability-reports';
import { activityReportMarkdown, buildActivityReport, REPORT_RULES } from '../../domain/vulnerabilities/activity-report';
import { heldRules } from '../../domain/fedramp/relied-rules';
import { HTML_RENDERER, type HtmlRenderer } from '../../ports/html-renderer';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { requireProfileKeys } from '../../domain/fedramp/profile';
import { jsonChunks } from '../../domain/encoding/json-chunks';
import { writeAll } from '../shared/write-all';
import { profileWith } from '../fedramp/fedramp-documents';
import { registerOffers, VulnerabilityRegister, type JudgedGroup, type Register } from './vulnerability-register';

/** What `--status` filters by: a state, or the flags `overdue` and `incident`. */
export const VULN_FILTERS = [...VULNERABILITY_STATES, 'overdue', 'incident'] as const;
export type VulnFilter = (typeof VULN_FILTERS)[number];

/** One group as `svc vuln list --json` prints it (DESIGN §12.4). */
export interface ListedVulnerability {
  id: string;
  finding_id: string;
  kind: string;
  sources: string[];
  resources: string[];
  title: string;
  state: VulnerabilityState;
  overdue: { is: boolean; reasons: string[]; due_at?: string };
  incident: boolean;
  kev_due?: string;
  current_n?: number;
  irv?: boolean;
  lev?: boolean;
  first_detected: string;
  due: { evaluation: string; mitigation?: string };
  /** The next due time that still counts (none once closed, accepted or fully mitigated, a KEV due date aside). */
  next_due?: string;
  evaluations: Evaluation[];
  reductions: { at: string; from?: number; to: number; by: string }[];
}

export interface ListVulnerabilitiesResult {
  register: Omit<Register, 'groups'>;
  counts: Record<VulnerabilityState, number> & { total: number; overdue: number; incident: number };
  vulnerabilities: ListedVulnerability[];
}

/** `svc vuln list`: the register, judged at `--now`, optionally filtered. */
@injectable()
export class ListVulnerabilities {
  constructor(private readonly register: VulnerabilityRegister) {}

  async execute(input: { class?: Cr26Class; now?: Date; status?: VulnFilter }): Promise<ListVulnerabilitiesResult> {
    const { groups, ...register } = await this.register.judge(input, 'svc vuln list');
    const counts = { total: groups.length, overdue: 0, incident: 0, ...Object.fromEntries(VULNERABILITY_STATES.map((s) => [s, 0])) } as ListVulnerabilitiesResult['counts'];
    for (const { judgment } of groups) {
      counts[judgment.state] += 1;
      if (judgment.overdue.is) counts.overdue += 1;
      if (judgment.incident.internet || judgment.incident.other) counts.incident += 1;
    }
    const keep = (g: JudgedGroup) =>
      input.status === undefined || (input.status === 'overdue' ? g.judgment.overdue.is : input.status === 'incident' ? g.judgment.incident.internet || g.judgment.incident.other : g.judgment.state === input.status);
    return { register, counts, vulnerabilities: groups.filter(keep).map(listed) };
  }
}

function listed({ group, judgment, evaluations, kev }: JudgedGroup): ListedVulnerability {
  const next = nextDue(judgment);
  return {
    id: group.tracking_id,
    finding_id: group.finding_id,
    kind: group.kind,
    sources: group.sources,
    resources: group.resources,
    title: group.title,
    state: judgment.state,
    overdue: judgment.overdue,
    incident: judgment.incident.internet || judgment.incident.other,
    ...(kev === undefined ? {} : { kev_due: kev.dueDate }),
    ...(judgment.n === undefined ? {} : { current_n: judgment.n }),
    ...(judgment.irv === undefined ? {} : { irv: judgment.irv }),
    ...(judgment.lev === undefined ? {} : { lev: judgment.lev }),
    first_detected: group.first_detected,
    due: { evaluation: judgment.due.evaluation.at, ...(judgment.due.mitigation === undefined ? {} : { mitigation: judgment.due.mitigation.at }) },
    ...(next === undefined ? {} : { next_due: next }),
    evaluations,
    reductions: judgment.reductions,
  };
}

export interface EvaluateVulnerabilityInput {
  /** Tracking id (`VG-…`) or finding id. */
  group: string;
  by: string;
  reason: string;
  irv?: boolean;
  lev?: boolean;
  n?: NRating;
  falsePositive?: boolean;
  mitigated?: 'partial' | 'full';
  nextReduction?: { at: Date; n: NRating };
  accept?: boolean;
  class?: Cr26Class;
  now?: Date;
}

export interface EvaluateVulnerabilityResult {
  journal_seq: number;
  id: string;
  finding_id: string;
  evaluation: Evaluation;
  vulnerability: ListedVulnerability;
}

/** `svc vuln evaluate`: a person's evaluation of a group, appended to the store's journal (never overwriting). */
@injectable()
export class EvaluateVulnerability {
  constructor(
    private readonly register: VulnerabilityRegister,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rules: FedrampRulesSource,
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
  ) {}

  async execute(input: EvaluateVulnerabilityInput): Promise<EvaluateVulnerabilityResult> {
    // Who and why are what an evaluation is kept for (VER-EVA-*), and an acceptance's rationale is what the AVI carries.
    if (input.reason.trim() === '') throw new UsageError('bad-flag-value', '--reason is empty; write why (with --accept, the rationale for accepting it, which the AVI carries)');
    if (input.by.trim() === '') throw new UsageError('bad-flag-value', '--by is empty; write who evaluated it, such as ada@example.com');
    const control = controlCharacterIn(input.by);
    if (control !== undefined) throw new UsageError('bad-flag-value', `--by holds a control character (${control}); write a name or mailbox on one line`);
    const { class: cls } = requireProfileKeys(profileWith(this.profile, input), ['class'], 'svc vuln evaluate', { class: '--class' });
    // The N-ratings come from the release in use (VER-EVA-EPA): N0 only where it offers it.
    const offered = painRatings(this.rules.rules());
    if (input.n !== undefined) requireOffered(input.n, offered, '--n');
    if (input.nextReduction !== undefined) requireOffered(input.nextReduction.n, offered, '--next-reduction-n');
    const says = [input.irv, input.lev, input.n, input.falsePositive, input.mitigated, input.nextReduction, input.accept].some((v) => v !== undefined && v !== false);
    if (!says) throw new UsageError('nothing-to-record', 'svc vuln evaluate: give at least one of --irv, --lev, --n, --false-positive, --mitigated, --next-reduction-at with --next-reduction-n, --accept');
    const judged = await this.register.judge({ class: cls, ...(input.now ? { now: input.now } : {}) }, 'svc vuln evaluate');
    const before = this.register.find(judged, input.group);
    const { group } = before;
    const at = isoSeconds(input.now ?? new Date(judged.now));
    const evaluation: Evaluation = {
      at,
      by: input.by,
      reason: input.reason,
      ...(input.irv === undefined ? {} : { irv: input.irv }),
      ...(input.lev === undefined ? {} : { lev: input.lev }),
      ...(input.n === undefined ? {} : { n: input.n }),
      ...(input.falsePositive ? { false_positive: true } : {}),
      ...(input.mitigated === undefined ? {} : { mitigated: input.mitigated }),
      ...(input.nextReduction === undefined ? {} : { next_reduction: { at: isoSeconds(input.nextReduction.at), n: input.nextReduction.n } }),
      ...(input.accept ? { accept: true } : {}),
    };
    const seq = await this.register.record(group, evaluation);
    const evaluations = [...before.evaluations, evaluation];
    const after = { ...before.group, evaluations };
    const judgment = judgeGroup(after, this.rules.rules(), cls, new Date(at), before.kev);
    return { journal_seq: seq, id: group.tracking_id, finding_id: group.finding_id, evaluation, vulnerability: listed({ group: after, judgment, evaluations, ...(before.kev ? { kev: before.kev } : {}) }) };
  }
}

export const REPORT_FORMATS = ['vdr', 'avi', 'history', 'md', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportVulnerabilitiesInput {
  format: ReportFormat;
  from?: Date;
  to?: Date;
  redact?: boolean;
  out?: string;
  class?: Cr26Class;
  now?: Date;
}

export interface ReportVulnerabilitiesResult {
  format: ReportFormat;
  /** The JSON document (vdr, avi, history). */
  document?: Record<string, unknown>;
  /** The Markdown or HTML text (md, html). */
  text?: string;
  out?: string;
  sha256?: string;
  /** Vulnerabilities in the document: the VDR's, the AVI's, the history's active and accepted, the report's rows. */
  count: number;
  /** For stderr: N-ratings of the release (N0) the schema cannot carry as numbers (unwritableRatingsWarning). */
  warnings?: string[];
}

/**
 * `svc vuln report`: from the register judged at `--now` (DESIGN §12.4), FedRAMP's VDR or AVI of a period, the
 * historical activity (VER-TFR-MRH: every group, whatever the period), or the monthly human-readable report
 * (VER-TFR-MHR) in Markdown or HTML from one model.
 */
@injectable()
export class ReportVulnerabilities {
  constructor(
    private readonly register: VulnerabilityRegister,
    @inject(FEDRAMP_PROFILE) private readonly profile: FedrampProfileSettings,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    @inject(HTML_RENDERER) private readonly html: HtmlRenderer,
    private readonly shapes: FedrampShapes,
  ) {}

  async execute(input: ReportVulnerabilitiesInput): Promise<ReportVulnerabilitiesResult> {
    const { format } = input;
    if (format === 'history' && (input.from !== undefined || input.to !== undefined)) {
      throw new UsageError('bad-period', '--format history holds every vulnerability the register has, whatever the period: leave out --from and --to');
    }
    const profile = requireProfileKeys(profileWith(this.profile, input), ['class', 'package_uri'], 'svc vuln report', { class: '--class' });
    const register = await this.register.judge(input, 'svc vuln report');
    const period = reportPeriod(input.to ?? new Date(register.now), input.from);
    const offers = registerOffers(register, await this.shapes.of());
    const shared = { packageUri: profile.package_uri, groups: register.groups, offers, ...(input.redact ? { redact: resourceRedactor(this.hashing) } : {}) };
    let document: Record<string, unknown> | undefined;
    let text: string | undefined;
    let count: number;
    if (format === 'md' || format === 'html') {
      const identification = profile.cpo?.serviceIdentification as Record<string, unknown> | undefined;
      const report = buildActivityReport({
        ...shared,
        ...(typeof identification?.serviceName === 'string' ? { service: identification.serviceName } : {}),
        ...(profile.fedramp_id === undefined ? {} : { fedrampId: profile.fedramp_id }),
        class: register.class,
        rulesVersion: register.rules,
        cites: heldRules(register.release, REPORT_RULES),
        period,
        judgedAt: register.now,
        ...(register.run === undefined ? {} : { run: { seq: register.run.seq, as_of: register.run.as_of } }),
        generatedAt: register.now,
        tool: this.settings.tool,
      });
      text = format === 'md' ? activityReportMarkdown(report) : this.html.vulnerabilityActivity(report);
      count = report.rows.length;
    } else if (format === 'history') {
      document = buildHistory({ ...shared, generatedAt: register.now });
      count = (document.activeVulnerabilities as unknown[]).length + (document.acceptedVulnerabilities as unknown[]).length;
    } else {
      document = (format === 'vdr' ? buildVdr : buildAvi)({ ...shared, ...period });
      count = ((document.vulnerabilities ?? document.acceptedVulnerabilities) as unknown[]).length;
    }
    // The JSON documents follow FedRAMP's schema: say once what it could not carry as a number.
    const inDocument = format === 'history' ? register.groups : format === 'vdr' ? vdrGroups({ ...period, groups: register.groups }) : format === 'avi' ? aviGroups({ ...period, groups: register.groups }) : [];
    const warning = unwritableRatingsWarning(inDocument.map((g) => g.judgment), offers);
    const shown = { format, ...(document === undefined ? {} : { document }), ...(text === undefined ? {} : { text }), count, ...(warning === undefined ? {} : { warnings: [warning] }) };
    if (input.out === undefined) return shown;
    const written = await writeAll(await this.writer.open(input.out), (sink) => {
      if (text !== undefined) sink.write(text);
      else for (const chunk of jsonChunks(document, 'canonical')) sink.write(chunk);
    });
    return { ...shown, out: input.out, sha256: written.sha256 };
  }
}
