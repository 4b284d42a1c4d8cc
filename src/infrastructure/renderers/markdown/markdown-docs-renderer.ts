import type { AreaFacts, ControlFacts, DocumentationPackage, KsiFacts, PackageFile } from '../../../domain/documents/documentation-package';
import { markdownText } from '../../../domain/encoding/markdown';
import type { MarkdownDocs } from '../../../ports/markdown-docs';

/**
 * The documentation package as GitHub-flavoured Markdown: `index.md`, `areas/<AREA>.md`, `controls/<id>.md` and
 * `poam.md`, linked to each other by relative paths only, so the package reads the same in a repository, a wiki
 * or on disk. Every text of the model (reports and catalogs are untrusted) goes through markdownText once;
 * the helpers below take Markdown.
 */
export class MarkdownDocsRenderer implements MarkdownDocs {
  render(model: DocumentationPackage): PackageFile[] {
    return [
      { path: 'index.md', text: index(model) },
      ...model.areas.map((area) => ({ path: `areas/${fileName(area.id)}.md`, text: areaPage(area, model) })),
      ...model.controls.map((control) => ({ path: `controls/${fileName(control.id)}.md`, text: controlPage(control) })),
      { path: 'poam.md', text: poamPage(model) },
    ];
  }
}

/** A safe file name of an area or control id (ids come from reports and catalogs). */
function fileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '-');
}

function index(model: DocumentationPackage): string {
  const { counts } = model;
  return page(`Compliance documentation: ${markdownText(model.system)}`, [
    facts(model),
    `## Summary\n\n${table(
      ['Measure', 'Count'],
      [
        ['KSI results', counts.results],
        ['PASS', counts.pass],
        ['WARN', counts.warn],
        ['FAIL', counts.fail],
        ['Controls touched', counts.controls],
        ['POA&M items', counts.poam],
      ],
    )}`,
    `## Areas\n\n${table(
      ['Area', 'Title', 'KSIs', 'PASS', 'WARN', 'FAIL'],
      model.areas.map((a) => [
        link(markdownText(a.id), `areas/${fileName(a.id)}.md`),
        markdownText(a.title),
        a.ksis.length,
        ...(['PASS', 'WARN', 'FAIL'] as const).map((s) => a.ksis.filter((k) => k.status === s).length),
      ]),
    )}`,
    `## Controls\n\n${table(
      ['Control', 'Title', 'Implementation status', 'KSIs'],
      model.controls.map((c) => [
        link(markdownText(c.id), `controls/${fileName(c.id)}.md`),
        markdownText(c.title),
        c.status,
        markdownText(c.ksis.map((k) => k.id).join(', ')),
      ]),
    )}`,
    `## POA&M\n\n${link(`${counts.poam} open POA&M items`, 'poam.md')}.`,
  ]);
}

function areaPage(area: AreaFacts, model: DocumentationPackage): string {
  return page(markdownText(`${area.id} ${area.title}`), [
    `Back to ${link('the index', '../index.md')}. System: ${markdownText(model.system)}.`,
    `## KSIs\n\n${table(
      ['KSI', 'Title', 'Status', 'Action', 'Owner', 'Evidence (SHA-256)'],
      area.ksis.map((k) => [
        markdownText(k.id),
        markdownText(k.title),
        k.status,
        `${k.action.action} ${k.action.severity} ${k.action.sla_days}d`,
        markdownText(k.action.owner),
        code(k.hash),
      ]),
    )}`,
    `## Controls\n\n${area.controls.length === 0 ? 'No KSI of this area maps to a control.' : area.controls.map((c) => `- ${link(markdownText(c), `../controls/${fileName(c)}.md`)}`).join('\n')}`,
  ]);
}

function controlPage(control: ControlFacts): string {
  return page(markdownText(`${control.id} ${control.title ?? ''}`), [
    `Back to ${link('the index', '../index.md')}. Areas: ${control.areas.map((a) => link(markdownText(a), `../areas/${fileName(a)}.md`)).join(', ')}.`,
    `Implementation status: **${control.status}**`,
    `## Narrative\n\n${control.narrative.map((sentence) => `- ${markdownText(sentence)}`).join('\n')}`,
    `## Evidence\n\n${table(['KSI', 'Status', 'Observed', 'Source', 'Evidence (SHA-256)', 'POA&M'], control.ksis.map(ksiEvidenceRow))}`,
  ]);
}

function ksiEvidenceRow(k: KsiFacts): (string | number)[] {
  return [
    markdownText(k.id),
    k.status,
    markdownText(k.observedAt ?? ''),
    markdownText(k.source ?? ''),
    code(k.hash),
    k.poam === undefined ? '' : link(markdownText(k.poam), '../poam.md'),
  ];
}

function poamPage(model: DocumentationPackage): string {
  return page('POA&M', [
    `Back to ${link('the index', 'index.md')}. System: ${markdownText(model.system)}. Open items: ${model.poam.length}.`,
    model.poam.length === 0
      ? 'No open POA&M items: every KSI passed.'
      : table(
          ['POA&M ID', 'Weakness', 'Controls', 'Risk', 'Detected', 'Due', 'Point of contact', 'Remediation plan'],
          model.poam.map((r) => [
            markdownText(r.poam_id),
            markdownText(r.weakness_name),
            r.controls.map((c) => link(markdownText(c), `controls/${fileName(c)}.md`)).join(', '),
            markdownText(r.risk_rating),
            markdownText(r.original_detection_date),
            markdownText(r.scheduled_completion_date),
            markdownText(r.point_of_contact),
            markdownText(r.remediation_plan),
          ]),
        ),
  ]);
}

function facts(model: DocumentationPackage): string {
  return [
    `- Generated by ${markdownText(model.tool.name)} ${markdownText(model.tool.version)} at ${markdownText(model.generatedAt)}`,
    `- Input: ${markdownText(model.input.name)} (${code(`sha256:${model.input.sha256}`)})`,
    `- Evidence entries: ${markdownText(model.entriesFile)}, Merkle root ${code(model.merkleRoot)}`,
  ].join('\n');
}

/** A page: its title (Markdown) as the heading, then the sections. */
function page(title: string, sections: string[]): string {
  return `# ${title}\n\n${sections.join('\n\n')}\n`;
}

/** A link; `text` is Markdown (markdownText escapes brackets), `href` one of the package's own paths. */
function link(text: string, href: string): string {
  return `[${text}](${href})`;
}

function code(text: string): string {
  return `\`${text}\``;
}

/** A GFM table of Markdown cells (each one line, its pipes escaped) and numbers. */
function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
