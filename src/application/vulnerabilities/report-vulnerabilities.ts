import { inject, injectable } from 'tsyringe';
import { UsageError } from '../../domain/errors';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import { FedrampShapes } from '../fedramp/fedramp-documents';
import {
  aviGroups,
  buildAvi,
  buildHistory,
  buildVdr,
  reportPeriod,
  resourceRedactor,
  unwritableRatingsWarning,
  vdrGroups,
} from '../../domain/vulnerabilities/vulnerability-reports';
import type { VulnerabilityReportDocument } from '../../domain/vulnerabilities/vulnerability-report-documents';
import { activityReportMarkdown, buildActivityReport, REPORT_RULES } from '../../domain/vulnerabilities/activity-report';
import { heldRules } from '../../domain/fedramp/relied-rules';
import { HTML_RENDERER, type HtmlRenderer } from '../../ports/html-renderer';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { HASHING, type Hashing } from '../../ports/hashing';
import { requireProfileKeys } from '../../domain/fedramp/profile';
import { jsonChunks } from '../../domain/encoding/json-chunks';
import { writeAll } from '../shared/write-all';
import { profileWith } from '../fedramp/fedramp-documents';
import { registerOffers, VulnerabilityRegister } from './vulnerability-register';

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
  document?: VulnerabilityReportDocument;
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
    let document: VulnerabilityReportDocument | undefined;
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
      const history = buildHistory({ ...shared, generatedAt: register.now });
      document = history;
      count = history.activeVulnerabilities.length + history.acceptedVulnerabilities.length;
    } else if (format === 'vdr') {
      const vdr = buildVdr({ ...shared, ...period });
      document = vdr;
      count = vdr.vulnerabilities.length;
    } else {
      const avi = buildAvi({ ...shared, ...period });
      document = avi;
      count = avi.acceptedVulnerabilities.length;
    }
    // The JSON documents follow FedRAMP's schema: say once what it could not carry as a number.
    const inDocument =
      format === 'history'
        ? register.groups
        : format === 'vdr'
          ? vdrGroups({ ...period, groups: register.groups })
          : format === 'avi'
            ? aviGroups({ ...period, groups: register.groups })
            : [];
    const warning = unwritableRatingsWarning(
      inDocument.map((g) => g.judgment),
      offers,
    );
    const shown = {
      format,
      ...(document === undefined ? {} : { document }),
      ...(text === undefined ? {} : { text }),
      count,
      ...(warning === undefined ? {} : { warnings: [warning] }),
    };
    if (input.out === undefined) return shown;
    const written = await writeAll(await this.writer.open(input.out), (sink) => {
      if (text !== undefined) sink.write(text);
      else for (const chunk of jsonChunks(document, 'canonical')) sink.write(chunk);
    });
    return { ...shown, out: input.out, sha256: written.sha256 };
  }
}
