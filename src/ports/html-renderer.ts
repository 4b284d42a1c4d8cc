import type { InjectionToken } from 'tsyringe';
import type { RunDashboardModel, TrendDashboardModel } from '../domain/reporting/dashboard-model';

/** Self-contained HTML pages: no network, inline CSS, SVG and script. */
export interface HtmlRenderer {
  runDashboard(model: RunDashboardModel): string;
  trendDashboard(model: TrendDashboardModel): string;
}

export const HTML_RENDERER: InjectionToken<HtmlRenderer> = Symbol('HtmlRenderer');
