import { applyEdits, modify, type FormattingOptions } from 'jsonc-parser';
import type { JsonEdit } from '../../domain/oscal/json-edit';
import type { JsonPatcher } from '../../ports/json-patcher';

/** jsonc-parser's `modify`: it rewrites only the spans an edit touches, formatted like the lines around them. */
export class JsoncJsonPatcher implements JsonPatcher {
  apply(text: string, edits: readonly JsonEdit[]): string {
    const formattingOptions = formattingOf(text);
    let result = text;
    for (const edit of edits) {
      result = applyEdits(result, modify(result, edit.path, edit.value, { formattingOptions, isArrayInsertion: edit.insert === true }));
    }
    return result;
  }
}

/** The document's own indentation (the first indented line's) and line ending. */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}
