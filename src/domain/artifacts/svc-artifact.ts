import { jsonSyntaxProblem } from '../encoding/json-syntax-problem';
import { InvalidInputError } from '../errors';
import { isPlainObject } from '../encoding/json-values';
import { MANIFEST_SCHEMA } from './manifest';

/**
 * What a file's text is, before anything trusts it as svc's. Only a file recognizably svc's can have been "changed
 * after svc wrote it" (exit 4); anything else is input svc never wrote (exit 3), so a wrong path is not reported as
 * tampering (docs/artifacts.md, "Recognizing svc's files").
 */
export type TextShape =
  { kind: 'json'; document: unknown } | { kind: 'empty' } | { kind: 'blank' } | { kind: 'binary' } | { kind: 'not-json'; problem: string };

export function textShape(text: string): TextShape {
  if (text.length === 0) return { kind: 'empty' };
  try {
    return { kind: 'json', document: JSON.parse(text) };
  } catch (error) {
    if (text.trim() === '') return { kind: 'blank' };
    // Bytes that are not UTF-8 decode to U+FFFD; control characters other than tab and line breaks never occur in JSON text.
    if (/[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text)) return { kind: 'binary' };
    return { kind: 'not-json', problem: jsonSyntaxProblem((error as Error).message) };
  }
}

/** Why a file that does not parse is not svc's, in the words of a message. */
export function unparsedWhy(shape: Exclude<TextShape, { kind: 'json' }>): string {
  switch (shape.kind) {
    case 'empty':
      return 'empty file';
    case 'blank':
      return 'only whitespace, not JSON';
    case 'binary':
      return 'binary data, not JSON';
    case 'not-json':
      return `not JSON (${shape.problem})`;
  }
}

/** The `schema` of a JSON document svc wrote (`svc.<name>/v<n>`), else undefined. */
export function svcSchema(document: unknown): string | undefined {
  return isPlainObject(document) && typeof document.schema === 'string' && /^svc\.[a-z-]+\/v\d+$/.test(document.schema) ? document.schema : undefined;
}

/** manifest.json of an auditor bundle: svc's schema, or svc named as the tool that wrote it (the schema changed). */
export function isSvcManifest(document: unknown): boolean {
  return isPlainObject(document) && (document.schema === MANIFEST_SCHEMA || (isPlainObject(document.tool) && document.tool.name === 'svc'));
}

/** Input svc never wrote, given where svc's own artifacts were expected: exit 3, never an integrity alarm. */
export function notAnSvcArtifact(path: string, why: string, hint: string, cause?: unknown): InvalidInputError {
  return new InvalidInputError('not-an-svc-artifact', `not an svc artifact: ${path}: ${why}; ${hint}`, cause === undefined ? undefined : { cause });
}
