import type { InjectionToken } from 'tsyringe';
import type { PortfolioModel } from '../domain/agency/portfolio';
import type { RunDashboardModel, TrendDashboardModel } from '../domain/reporting/dashboard-model';
import type { VulnerabilityActivityReport } from '../domain/vulnerabilities/activity-report';

/** Self-contained HTML pages: no network, inline CSS, SVG and script. */
export interface HtmlRenderer {
  runDashboard(model: RunDashboardModel): string;
  trendDashboard(model: TrendDashboardModel): string;
  /** The monthly vulnerability activity report (VER-TFR-MHR). */
  vulnerabilityActivity(model: VulnerabilityActivityReport): string;
  /** The agency's portfolio of `svc agency report`: the providers' status rows, their trends and what needs action. */
  agencyPortfolio(model: PortfolioModel): string;
}

export const HTML_RENDERER: InjectionToken<HtmlRenderer> = Symbol('HtmlRenderer');
