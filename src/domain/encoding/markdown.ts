import { printableText } from './printable-text';

/**
 * What each character that Markdown would read as syntax anywhere in a line becomes. `>` opens nothing inside a
 * line (a tag or autolink needs `<`), so it is escaped only at the start, where it would open a block quote; svc's
 * own `a -> b` in drift reasons stays readable.
 */
const ESCAPES: Record<string, string> = { '\\': '\\\\', '|': '\\|', '[': '\\[', ']': '\\]', '&': '&amp;', '<': '&lt;' };

/**
 * What may start a block at the beginning of a line: ATX heading (`#`), list item (`-`, `+`, `*`, `1.`, `1)`),
 * thematic break or setext underline (`-`, `*`, `_`, `=`), code fence (backticks, `~`), block quote (`>`), and a
 * colon (a GFM table's delimiter row). `<` (an HTML block) is an entity already, `|` and `[` escaped.
 */
const BLOCK_START = /^(?:[#>+\-*=_`~:]|\d{1,9}[.)](?= |$))/;

/**
 * Untrusted text (scanner, catalog or file-name text) as Markdown that reads as that text, the one rule for every
 * table cell and every line of text svc writes as Markdown: white space runs, line breaks (LF, CRLF, a lone CR,
 * U+2028) included, become one space, and the ends are trimmed, so the text stays on its line and cannot indent
 * a code block; any other control character (ESC, a C1 control such as U+009B, DEL, a bidirectional override) is
 * written out as printableText writes it (`\u001b`, read as those six characters, never sent to a terminal or
 * browser as the control); `\`, `|`, `[`, `]` are backslash-escaped (no cell split, no link or image); `&` and `<` become
 * entities (no raw HTML, no autolink); a leading block marker is escaped (`>` as `&gt;`), so the text never starts
 * a block.
 */
export function markdownText(text: string): string {
  const flat = printableText(text.replace(/\s+/g, ' ').trim()).replace(/[\\|[\]&<]/g, (c) => ESCAPES[c]);
  const start = BLOCK_START.exec(flat);
  if (!start) return flat;
  const marker = start[0];
  if (marker === '>') return `&gt;${flat.slice(1)}`;
  // A digit is no ASCII punctuation, so CommonMark only lets the delimiter after it be escaped.
  return /^\d/.test(marker) ? `${marker.slice(0, -1)}\\${flat.slice(marker.length - 1)}` : `\\${flat}`;
}

/** What CommonMark may read as syntax anywhere in a line: code spans, emphasis, links and images, raw HTML, entities, GFM strikethrough. */
const INLINE = new Set(['`', '*', '[', ']', '<', '&', '~']);
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const ALPHANUMERIC = /[\p{L}\p{N}]/u;

/**
 * svc's own text (which may quote scanner, catalog or file-name text) for a JSON field FedRAMP renders as Markdown
 * (the SDR's statements, the SCN's plan summary: the schemas' "May use Markdown for formatting"), so that a
 * CommonMark viewer that drops raw HTML, as FedRAMP's does, shows exactly the text (docs/decisions.md, "Text in
 * FedRAMP's Markdown fields"): white space runs become one space and the ends are trimmed; `` ` ``, `*`, `[`, `]`,
 * `<`, `&`, `~` and an `_` not inside a word are backslash-escaped, as is a `\` before ASCII punctuation; a leading
 * block marker (`#`, `>`, `-`, `+`, `=`, `1.`, `1)`) is escaped. Backslash escapes, unlike entities, read plainly in the
 * JSON too: `Prowler \<prowler_version>`. Control characters are kept: the JSON keeps the text as given.
 */
export function markdownLiteral(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  let out = '';
  for (let i = 0; i < flat.length; i++) {
    const c = flat[i];
    const escaped =
      INLINE.has(c) ||
      (c === '\\' && ASCII_PUNCTUATION.test(flat[i + 1] ?? '')) ||
      (c === '_' && !(ALPHANUMERIC.test(flat[i - 1] ?? '') && ALPHANUMERIC.test(flat[i + 1] ?? '')));
    out += escaped ? `\\${c}` : c;
  }
  const start = /^(?:[#>+\-=]|\d{1,9}[.)](?= |$))/.exec(out);
  if (!start) return out;
  return /^\d/.test(start[0]) ? `${start[0].slice(0, -1)}\\${out.slice(start[0].length - 1)}` : `\\${out}`;
}

/**
 * Markdown shown as text (the trust center's page of the SDR, which shows its statements as written): each CommonMark
 * backslash escape read as the character it stands for, so markdownLiteral's `Prowler \<prowler_version>` shows as
 * `Prowler <prowler_version>`; anything else stays as written.
 */
export function markdownPlain(markdown: string): string {
  return markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}
