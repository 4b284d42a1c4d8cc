import { InvalidInputError } from '../errors';
import { normalizeControlId } from '../catalog/ksi-catalog';
import { resolveCr26Id } from './cr26-aliases';
import type { Cr26Rules } from './cr26-rules';

/** The implementation statuses the SDR schema's enums hold (`frrImplementationStatus`, `ksiImplementationStatus`, `controlImplementationStatus`). */
export type SdrStatus = 'Implemented' | 'Partially Implemented' | 'Not Implemented';

/**
 * The words a provider may write under `### Status`: the schema's three, and those SDR-CSF-CTF names that the
 * 2026-06-24 schema has no value for (DESIGN §12.3): "Planned" is written as Not Implemented, "Alternative
 * Implementation" as Implemented, "Not Applicable" as no status; the provider's word is kept in the description.
 */
export const STATEMENT_STATUSES: Readonly<Record<string, SdrStatus | null>> = {
  implemented: 'Implemented',
  'partially implemented': 'Partially Implemented',
  'not implemented': 'Not Implemented',
  planned: 'Not Implemented',
  'alternative implementation': 'Implemented',
  'not applicable': null,
};

/** What the provider wrote for one rule, KSI or Rev5 control. */
export interface ProviderStatement {
  /** The CR26 id (an earlier id written in the file is resolved to it), or a control id as FedRAMP writes it (`AC-02 (01)`). */
  id: string;
  /** The id as the file wrote it, when it differs (an earlier FedRAMP id). */
  written?: string;
  /** Line of the `##` heading, for messages. */
  line: number;
  /** Paragraphs of Markdown: the text before any `###`, and under `### Implementation`. */
  implementation: string[];
  /** Under `### Validation`. */
  validation: string[];
  /** Under `### Status`: the schema's status (null: Not Applicable), with the word as written. */
  status?: { value: SdrStatus | null; written: string };
}

/** Every statement of a statements file, by CR26 id and by normalized control id (`ac-2.1`). */
export interface ProviderStatements {
  file: string;
  byId: Map<string, ProviderStatement>;
  byControl: Map<string, ProviderStatement>;
}

/** An empty set of statements (the profile names no file). */
export function noStatements(file = ''): ProviderStatements {
  return { file, byId: new Map(), byControl: new Map() };
}

const SECTIONS = ['implementation', 'validation', 'status'] as const;
const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Reads the provider's statements file (docs/fedramp.md, "Statements"): Markdown where each `## <id>` starts the
 * statement of a CR26 rule or KSI (an earlier FedRAMP id is resolved to its CR26 id) or of a Rev5 control
 * (`## AC-02 (01)`); text up to the next `##` is the implementation, except what sits under `### Validation` or
 * `### Status` (one of STATEMENT_STATUSES). A `#` title and anything before the first `##` is ignored; fenced code
 * blocks are kept as written. Throws InvalidInputError `invalid-statements` naming the file, the line and the fix
 * for an unknown or retired id, a repeated id, an unknown `###` section, an empty statement or an unknown status.
 */
export function readProviderStatements(text: string, file: string, rules: Cr26Rules): ProviderStatements {
  const fail = (line: number, problem: string): never => {
    throw new InvalidInputError('invalid-statements', `${file}:${line}: ${problem}`);
  };
  const known = new Set([...rules.rules.map((r) => r.id), ...rules.ksis.map((k) => k.id)]);
  const retired = new Set(rules.retired.map((r) => r.id));
  const statements = noStatements(file);
  let current: (ProviderStatement & { section: (typeof SECTIONS)[number]; lines: string[] }) | undefined;
  let fence: string | undefined;

  const close = () => {
    if (current === undefined) return;
    flush(current);
    if (current.implementation.length === 0 && current.validation.length === 0 && current.status === undefined) {
      fail(current.line, `## ${current.written ?? current.id} has no statement; write the implementation under the heading, or remove it`);
    }
    const { section: _s, lines: _l, ...statement } = current;
    if (normalizeControlId(statement.id) !== undefined && !known.has(statement.id)) statements.byControl.set(normalizeControlId(statement.id)!, statement);
    else statements.byId.set(statement.id, statement);
  };
  const flush = (s: NonNullable<typeof current>) => {
    const body = s.lines.join('\n').trim();
    s.lines = [];
    if (body === '') return;
    if (s.section === 'status') {
      if (s.status !== undefined) fail(s.line, `## ${s.written ?? s.id}: a second ### Status; keep one`);
      const word = body.replace(/\s+/g, ' ').replace(/\.$/, '');
      const value = STATEMENT_STATUSES[word.toLowerCase()];
      if (value === undefined)
        fail(s.line, `## ${s.written ?? s.id}: ### Status "${word}" is not a status; write ${Object.keys(STATEMENT_STATUSES).map(title).join(', ')}`);
      s.status = { value: value as SdrStatus | null, written: word };
    } else {
      s[s.section].push(body);
    }
  };

  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const number = index + 1;
    const opened = FENCE.exec(raw);
    if (fence !== undefined) {
      if (opened && opened[1][0] === fence[0] && opened[1].length >= fence.length && raw.trim() === opened[1]) fence = undefined;
      current?.lines.push(raw);
      return;
    }
    if (opened) {
      fence = opened[1];
      current?.lines.push(raw);
      return;
    }
    const heading = HEADING.exec(raw);
    if (heading && heading[1].length === 2) {
      close();
      const written = heading[2].trim();
      const id = statementId(written, rules, known);
      if (id === undefined) {
        if (retired.has(written))
          fail(number, `## ${written}: retired in CR26 ${rules.info.version}; remove the statement or move it to the rule that replaced it`);
        fail(
          number,
          `## ${written}: not a CR26 rule or KSI id, an earlier FedRAMP id or a Rev5 control; write the id alone, such as "## KSI-IAM-APM", "## VDR-TFR-PVR" or "## AC-02 (01)"`,
        );
      }
      const seen = statements.byId.get(id!) ?? statements.byControl.get(normalizeControlId(id!) ?? '');
      if (seen !== undefined) fail(number, `## ${written}: a second statement for ${id} (the first at line ${seen.line}); merge them`);
      current = { id: id!, ...(written !== id ? { written } : {}), line: number, implementation: [], validation: [], section: 'implementation', lines: [] };
      return;
    }
    if (heading && heading[1].length > 2 && current !== undefined && heading[1].length === 3) {
      const name = heading[2].trim().toLowerCase() as (typeof SECTIONS)[number];
      if (!SECTIONS.includes(name))
        fail(number, `### ${heading[2].trim()}: not a section of a statement; write ### Implementation, ### Validation or ### Status`);
      flush(current);
      current.section = name;
      return;
    }
    if (heading && heading[1].length === 1) {
      close();
      current = undefined;
      return;
    }
    current?.lines.push(raw);
  });
  close();
  return statements;
}

/** The id a `##` heading names: a CR26 id, the CR26 id of an earlier id, or a control id as written. */
function statementId(written: string, rules: Cr26Rules, known: ReadonlySet<string>): string | undefined {
  if (known.has(written)) return written;
  const resolved = resolveCr26Id(rules, written);
  if (resolved !== undefined && known.has(resolved)) return resolved;
  return normalizeControlId(written) !== undefined ? written : undefined;
}

function title(word: string): string {
  return word.replace(/\b\w/g, (c) => c.toUpperCase());
}
