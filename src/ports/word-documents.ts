import type { InjectionToken } from 'tsyringe';
import type { WordDocumentModel } from '../domain/documents/word-models';

/** Word (.docx) documents: the same model gives the same bytes (entry dates and properties come from model.created). */
export interface WordDocuments {
  render(model: WordDocumentModel): Promise<Uint8Array>;
}

export const WORD_DOCUMENTS: InjectionToken<WordDocuments> = Symbol('WordDocuments');
