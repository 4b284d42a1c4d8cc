import type { InjectionToken } from 'tsyringe';
import type { JsonEdit } from '../domain/oscal/json-edit';

/**
 * Applies edits to the text of a JSON document and leaves every other byte as it was, in the document's own
 * indentation and line endings, so a person's file stays theirs. Throws InvalidInputError when the text is not JSON.
 */
export interface JsonPatcher {
  apply(text: string, edits: readonly JsonEdit[]): string;
}

export const JSON_PATCHER: InjectionToken<JsonPatcher> = Symbol('JsonPatcher');
