import { inject, injectable } from 'tsyringe';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { portfolioTitle, providerTrend, trendDocumentShas, type PortfolioModel, type PortfolioProvider } from '../../domain/agency/portfolio';
import { AGENCY_CONFIG, type AgencyConfig } from '../../ports/agency-config';
import { AGENCY_STORE, type AgencyStore } from '../../ports/agency-store';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { HTML_RENDERER, type HtmlRenderer } from '../../ports/html-renderer';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { writeAll } from '../shared/write-all';
import { AgencyStatus } from './agency-status';
import { storedJson } from './provider-documents';

export interface PortfolioReportInput {
  /** The HTML file to write. */
  out: string;
  /** Judge the rows and the newest trend points at this time instead of now. */
  now?: Date;
}

export interface PortfolioReportResult {
  out: string;
  /** Providers on the page. */
  providers: number;
  /** Providers with something to act on. */
  needingAction: number;
  file: WrittenFile;
}

/**
 * `svc agency report` (DESIGN §14): one self-contained HTML page of the agency's portfolio — `svc agency status`'s
 * rows as they are, each provider's trend over its pulls (KSIs implemented, open and overdue vulnerabilities
 * recomputed at each pull's time) and what needs action — written atomically. One provider's trend at a time, each
 * distinct SDR and VDR parsed once, so memory holds one provider's documents.
 */
@injectable()
export class PortfolioReport {
  constructor(
    private readonly status: AgencyStatus,
    @inject(AGENCY_CONFIG) private readonly config: AgencyConfig,
    @inject(AGENCY_STORE) private readonly store: AgencyStore,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rulesSource: FedrampRulesSource,
    @inject(HTML_RENDERER) private readonly html: HtmlRenderer,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async execute({ out, now: at }: PortfolioReportInput): Promise<PortfolioReportResult> {
    // Opened first: a bad --out is refused before any provider is read.
    const sink = await this.writer.open(out);
    let model: PortfolioModel;
    try {
      model = await this.model(at);
    } catch (error) {
      await sink.abort();
      throw error;
    }
    const file = await writeAll(sink, (s) => s.write(this.html.agencyPortfolio(model)));
    return { out, providers: model.providers.length, needingAction: model.needingAction, file };
  }

  /** The page's model: status's rows, and one provider's trend at a time. */
  private async model(at: Date | undefined): Promise<PortfolioModel> {
    const generatedAt = this.clock.now();
    const now = at ?? generatedAt;
    const status = await this.status.execute({ now });
    const rules = this.rulesSource.rules();
    const providers: PortfolioProvider[] = [];
    for (const row of status.providers) {
      const pulls = await this.store.pulls(row.provider);
      const documents = new Map<string, unknown>();
      for (const sha of trendDocumentShas(pulls)) documents.set(sha, await storedJson(this.store, sha));
      providers.push({ status: row, trend: providerTrend({ pulls, documents, ...(row.class === undefined ? {} : { cls: row.class }), rules }) });
    }
    const agency = this.config.settings().name;
    return {
      title: portfolioTitle(agency),
      tool: this.settings.tool,
      generatedAt: isoSeconds(generatedAt),
      now: status.now,
      rules: status.rules,
      ...(agency === undefined ? {} : { agency }),
      providers,
      needingAction: status.needingAction,
    };
  }
}
