import type { InjectionToken } from 'tsyringe';
import type { BriefingModel } from '../domain/documents/briefing-model';

/** Slide decks (.pptx). The same model gives the same bytes: dates come from the model, never from the wall clock. */
export interface Presentations {
  /** Title, status by area (stacked bar chart), top risks, POA&M trend (line chart), next due dates. */
  briefing(model: BriefingModel): Promise<Uint8Array>;
}

export const PRESENTATIONS: InjectionToken<Presentations> = Symbol('Presentations');
