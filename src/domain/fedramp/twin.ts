import { markdownText } from '../encoding/markdown';
import { printableText } from '../encoding/printable-text';

/** What every Markdown twin names in its header (DESIGN §12.3): the document, the FedRAMP id, the rules version and svc's version. */
export interface TwinHeader {
  /** The document's title: `Security Decision Record`. */
  title: string;
  /** The service's name, where the document has one. */
  service?: string;
  fedrampId?: string;
  packageUri: string;
  rulesVersion: string;
  tool: { name: string; version: string };
  /** ISO-8601 UTC. */
  generatedAt: string;
  /** What the JSON twin is: `sdr.json`. */
  json: string;
}

/** The header lines of a Markdown twin. */
export function twinHeader(h: TwinHeader): string[] {
  return [
    `# ${markdownText(h.title)}${h.service === undefined ? '' : `: ${markdownText(h.service)}`}`,
    '',
    `- FedRAMP ID: ${h.fedrampId === undefined ? 'not assigned (fedramp.fedramp_id)' : markdownText(h.fedrampId)}`,
    `- Certification Package Overview: ${markdownText(h.packageUri)}`,
    `- Rules: FedRAMP Consolidated Rules ${markdownText(h.rulesVersion)}`,
    `- Generated: ${h.generatedAt} by ${markdownText(h.tool.name)} ${markdownText(h.tool.version)}`,
    `- Machine-readable twin: ${markdownText(h.json)} (written from the same model)`,
    '',
  ];
}

/**
 * Markdown the provider wrote (a statement, the assessor's summary), or svc's own text as markdownLiteral escaped it,
 * inside a twin: as a block quote, so its headings and lists stay inside it and cannot break the twin's structure;
 * raw HTML is written as text (`<`, `&` as entities; one already backslash-escaped, `\<`, stays as it is, so it reads
 * as `<` and not as `&lt;`), and a control character (ESC, a C1 control, U+2028) as printableText writes it
 * (`\u001b`); tabs stay.
 */
export function quotedMarkdown(text: string): string[] {
  return text
    .replace(/(\\*)([&<])/g, (all, slashes: string, c: string) => (slashes.length % 2 === 1 ? all : `${slashes}${c === '&' ? '&amp;' : '&lt;'}`))
    .split(/\r\n|\r|\n/)
    .map((line) => (line.trim() === '' ? '>' : `> ${printableText(line)}`));
}
