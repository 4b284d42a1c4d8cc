import type { ControlFacts, DocumentationPackage, KsiFacts, PackageFile } from '../../../domain/documents/documentation-package';
import type { EvidenceTrace, TraceNode } from '../../../domain/evidence/evidence-trace';
import type { HtmlSite } from '../../../ports/html-site';
import { escapeHtml, renderPage, section, sortableTable, statusBadge, tiles, type Cell, type Column } from './html-page';

/** The portal's pages, in navigation order, with their titles. */
const NAV = [
  ['index.html', 'Summary'],
  ['evidence.html', 'Evidence'],
  ['findings.html', 'Findings'],
  ['poam.html', 'POA&M'],
  ['hashes.html', 'Hashes'],
] as const;

const KSI_COLUMNS: Column[] = [
  { label: 'KSI', kind: 'text', nowrap: true },
  { label: 'Title', kind: 'text' },
  { label: 'Status', kind: 'text' },
];

/**
 * The auditor portal: one self-contained page per view (the dashboards' page shell: inline CSS, the sorting script
 * allowed by its hash, nothing from the network), linked by relative paths so it works from file://.
 */
export class HtmlSiteRenderer implements HtmlSite {
  pages(model: DocumentationPackage): PackageFile[] {
    return [
      { path: 'index.html', text: indexPage(model) },
      { path: 'evidence.html', text: evidencePage(model) },
      { path: 'findings.html', text: findingsPage(model) },
      { path: 'poam.html', text: poamPage(model) },
      ...model.controls.map((control) => ({ path: `controls/${fileName(control.id)}.html`, text: controlPage(control, model) })),
    ];
  }

  hashes(model: DocumentationPackage, files: readonly { path: string; sha256: string }[]): PackageFile {
    const rows: Cell[][] = files.map((f) => [
      { html: `<a href="${escapeHtml(f.path)}">${escapeHtml(f.path)}</a>`, sort: f.path },
      { html: `<code>${f.sha256}</code>`, sort: f.sha256 },
    ]);
    const main = section(
      'hashes',
      'SHA-256 of every page',
      `<p>The SHA-256 of each file of this site (this page's own is in <code>SHA256SUMS</code>, which <code>sha256sum --check SHA256SUMS</code> verifies).</p>\n` +
        sortableTable({
          id: 'hash-table',
          labelledBy: 'hashes-h',
          columns: [
            { label: 'File', kind: 'text', nowrap: true },
            { label: 'SHA-256', kind: 'text' },
          ],
          rows,
          empty: 'the site has no pages.',
        }),
    );
    return { path: 'hashes.html', text: sitePage(model, 'Hashes', main, '') };
  }
}

/** A safe file name of a control id (ids come from reports and catalogs). */
function fileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '-');
}

function controlHref(id: string, up: string): string {
  return `${up}controls/${fileName(id)}.html`;
}

/** A page of the site: the navigation (relative to `up`, '' at the top, '../' in controls/) above the sections. */
function sitePage(model: DocumentationPackage, title: string, main: string, up: string): string {
  const nav = `<nav aria-label="Site"><ul class="tiles">${NAV.map(([href, label]) => `<li class="tile"><a href="${up}${href}">${escapeHtml(label)}</a></li>`).join('')}</ul></nav>`;
  return renderPage({
    title: `${title}: ${model.system}`,
    facts: [
      { label: 'Input', value: model.input.name },
      { label: 'Input SHA-256', value: `sha256:${model.input.sha256}`, code: true },
      { label: 'Merkle root', value: model.merkleRoot, code: true },
    ],
    tool: model.tool,
    generatedAt: model.generatedAt,
    main: `${nav}\n${main}`,
  });
}

function statusCell(status: KsiFacts['status']): Cell {
  return { html: statusBadge(status), sort: status };
}

function indexPage(model: DocumentationPackage): string {
  const { counts } = model;
  const summary = tiles([
    { key: 'results', label: 'KSI results', value: counts.results },
    { key: 'pass', label: 'PASS', value: counts.pass, status: 'PASS' },
    { key: 'warn', label: 'WARN', value: counts.warn, status: 'WARN' },
    { key: 'fail', label: 'FAIL', value: counts.fail, status: 'FAIL' },
    { key: 'controls', label: 'Controls touched', value: counts.controls },
    { key: 'poam', label: 'POA&M items', value: counts.poam },
  ]);
  const controls = sortableTable({
    id: 'control-table',
    labelledBy: 'controls-h',
    columns: [
      { label: 'Control', kind: 'text', nowrap: true },
      { label: 'Title', kind: 'text' },
      { label: 'Implementation status', kind: 'text' },
      { label: 'KSIs', kind: 'text' },
    ],
    rows: model.controls.map((c) => [
      { html: `<a href="${controlHref(c.id, '')}">${escapeHtml(c.id)}</a>`, sort: c.id },
      c.title,
      c.status,
      c.ksis.map((k) => k.id).join(', '),
    ]),
    empty: 'no result maps to a control.',
    filter: true,
  });
  const areas = sortableTable({
    id: 'area-table',
    labelledBy: 'areas-h',
    columns: [
      { label: 'Area', kind: 'text', nowrap: true },
      { label: 'Title', kind: 'text' },
      { label: 'KSIs', kind: 'num' },
      { label: 'Controls', kind: 'text' },
    ],
    rows: model.areas.map((a) => [
      a.id,
      a.title,
      a.ksis.length,
      { html: a.controls.map((c) => `<a href="${controlHref(c, '')}">${escapeHtml(c)}</a>`).join(', '), sort: a.controls.length },
    ]),
    empty: 'the run has no results.',
  });
  return sitePage(
    model,
    'Auditor portal',
    [section('summary', 'Summary', summary), section('areas', 'Areas', areas), section('controls', 'Controls', controls)].join('\n'),
    '',
  );
}

function evidencePage(model: DocumentationPackage): string {
  const entries = sortableTable({
    id: 'evidence-table',
    labelledBy: 'entries-h',
    columns: [...KSI_COLUMNS, { label: 'Observed', kind: 'date' }, { label: 'Source', kind: 'text' }, { label: 'Content hash', kind: 'text' }],
    rows: model.ksis.map((k) => [
      k.id,
      k.title,
      statusCell(k.status),
      k.observedAt ?? '',
      k.source ?? '',
      { html: `<code>${escapeHtml(k.hash)}</code>`, sort: k.hash },
    ]),
    empty: 'the run has no evidence entries.',
    filter: true,
  });
  const files = sortableTable({
    id: 'file-table',
    labelledBy: 'files-h',
    columns: [
      { label: 'File', kind: 'text', nowrap: true },
      { label: 'Role', kind: 'text' },
      { label: 'SHA-256', kind: 'text' },
    ],
    rows: model.files.map((f) => [f.name, f.description, { html: `<code>sha256:${escapeHtml(f.sha256)}</code>`, sort: f.sha256 }]),
    empty: 'the run names no evidence files.',
  });
  const root = `<p>Entries are read from <code>${escapeHtml(model.entriesFile)}</code>; their RFC 6962 Merkle root is <code id="merkle-root">${escapeHtml(model.merkleRoot)}</code>.</p>`;
  return sitePage(model, 'Evidence', [section('entries', 'Evidence entries', `${root}\n${entries}`), section('files', 'Evidence files', files)].join('\n'), '');
}

function findingsPage(model: DocumentationPackage): string {
  const findings = model.ksis.filter((k) => k.poam !== undefined);
  const table = sortableTable({
    id: 'finding-table',
    labelledBy: 'findings-h',
    columns: [
      ...KSI_COLUMNS,
      { label: 'Details', kind: 'text' },
      { label: 'Action', kind: 'text' },
      { label: 'Owner', kind: 'text' },
      { label: 'SLA (days)', kind: 'num' },
      { label: 'Controls', kind: 'text' },
    ],
    rows: findings.map((k) => [
      k.id,
      k.title,
      statusCell(k.status),
      k.details ?? '',
      `${k.action.action} ${k.action.severity}`,
      k.action.owner,
      k.action.sla_days,
      { html: k.controls.map((c) => `<a href="${controlHref(c, '')}">${escapeHtml(c)}</a>`).join(', '), sort: k.controls.join(' ') },
    ]),
    empty: 'no KSI is FAIL or WARN.',
    filter: true,
  });
  return sitePage(model, 'Findings', section('findings', 'FAIL and WARN results', table), '');
}

function poamPage(model: DocumentationPackage): string {
  const table = sortableTable({
    id: 'poam-table',
    labelledBy: 'poam-h',
    columns: [
      { label: 'POA&M ID', kind: 'text', nowrap: true },
      { label: 'Weakness', kind: 'text' },
      { label: 'Risk', kind: 'text' },
      { label: 'Detected', kind: 'date' },
      { label: 'Due', kind: 'date' },
      { label: 'Point of contact', kind: 'text' },
      { label: 'Remediation plan', kind: 'text' },
    ],
    rows: model.poam.map((r) => [
      r.poam_id,
      r.weakness_name,
      r.risk_rating,
      r.original_detection_date,
      r.scheduled_completion_date,
      r.point_of_contact,
      r.remediation_plan,
    ]),
    empty: 'no open POA&M items: every KSI passed.',
    filter: true,
  });
  return sitePage(model, 'POA&M', section('poam', 'Open POA&M items', table), '');
}

function controlPage(control: ControlFacts, model: DocumentationPackage): string {
  const narrative = `<p>Implementation status: <strong>${escapeHtml(control.status)}</strong></p>\n<ul>${control.narrative.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`;
  const graph = `<p>KSIs → evidence → governance actions → POA&amp;M items, as <code>svc evidence graph --control ${escapeHtml(control.id)}</code> traces them.</p>\n${traceList(control.trace)}`;
  return sitePage(
    model,
    `${control.id}${control.title ? ` ${control.title}` : ''}`,
    [section('narrative', 'Narrative', narrative), section('graph', 'Evidence graph', graph)].join('\n'),
    '../',
  );
}

/** The control's evidence trace as nested lists: the control, the KSIs that map to it, then what hangs off each. */
function traceList(trace: EvidenceTrace): string {
  const byId = new Map(trace.nodes.map((n) => [n.id, n]));
  const children = (node: TraceNode): TraceNode[] =>
    node.type === 'control'
      ? trace.edges.filter((e) => e.to === node.id && e.relation === 'maps-to').map((e) => byId.get(e.from) as TraceNode)
      : trace.edges.filter((e) => e.from === node.id && e.relation !== 'maps-to').map((e) => byId.get(e.to) as TraceNode);
  const item = (node: TraceNode): string => {
    const below = children(node);
    const label =
      node.status === undefined ? escapeHtml(node.label) : `${escapeHtml(node.label.replace(/ (PASS|WARN|FAIL)$/, ''))} ${statusBadge(node.status)}`;
    const text = node.type === 'evidence' ? `<code>${label}</code>` : label;
    return `<li data-node="${node.type}"><span class="node-type">${node.type}</span> ${text}${below.length === 0 ? '' : `<ul>${below.map(item).join('')}</ul>`}</li>`;
  };
  return `<ul class="graph">${trace.nodes
    .filter((n) => n.type === 'control')
    .map(item)
    .join('')}</ul>`;
}
