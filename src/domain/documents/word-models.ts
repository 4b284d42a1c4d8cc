import type { HashedResult } from '../assessment/assessment';
import { needsPoam, poamRow } from '../artifacts/poam';
import { controlsTouched, type ImplementationStatus } from '../artifacts/ssp-narrative';
import { formatDigest } from '../evidence/content-digest';
import { schedule, type FreshnessReport } from '../freshness/freshness';
import { compareActions } from '../governance/governance-policy';
import { AUTOMATED_EVALUATION, frequencies, revalidationTask } from '../oscal/assessment-plan';
import { systemName, toolComponents, type OscalRun } from '../oscal/oscal-run';
import { controlStatement, type ControlStatement } from '../oscal/system-security-plan';
import { plural } from '../encoding/plural';

/** One block of a Word document, in reading order. Tables are rows of plain strings under a header row. */
export type WordBlock =
  | { kind: 'toc'; title: string }
  | { kind: 'heading'; level: 1 | 2; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'table'; header: string[]; rows: string[][] };

/**
 * A Word document as svc means it, with every fact already decided: the renderer only lays the blocks out (title
 * paragraph, heading styles, a table of contents field, tables with header rows, page numbers).
 */
export interface WordDocumentModel {
  title: string;
  subject: string;
  /** `svc 0.5.0`: the document's creator and last-modified-by properties. */
  creator: string;
  /** ISO-8601 UTC time of the run: the created and modified properties, and the date of every zip entry. */
  created: string;
  blocks: WordBlock[];
}

/** The signed OSCAL SAR a Word report stands beside, as an assessor verifies it with `svc ir validate`. */
export interface SarSignature {
  /** Path of the SAR in canonical JSON. */
  file: string;
  /** Path of its DSSE envelope. */
  envelope: string;
  /** `sha256:<hex>` of the SAR file's bytes: the signed digest. */
  sha256: string;
  algorithm: string;
  keyid: string;
}

const TOC_TITLE = 'Contents';
const NONE = '-';

/** The SSP as a Word document: the system, the implementation status of each control by family, governance, POA&M. */
export function sspDocument(run: OscalRun): WordDocumentModel {
  const statements = controlsTouched(run.results, run.catalog).map(({ control, covered }) => ({
    control,
    covered,
    statement: controlStatement(run, control, covered),
  }));
  const count = (status: ImplementationStatus) => String(statements.filter((s) => s.statement.status === status).length);
  const blocks: WordBlock[] = [
    ...opening(run),
    {
      kind: 'table',
      header: ['Implementation status', 'Controls'],
      rows: [
        ['implemented', count('implemented')],
        ['partial', count('partial')],
        ['planned', count('planned')],
      ],
    },
    heading(1, 'Control implementation'),
  ];
  if (statements.length === 0) blocks.push(paragraph('No result of the run maps to a control.'));
  for (const [family, members] of byFamily(run, statements)) {
    blocks.push(heading(2, family));
    blocks.push({
      kind: 'table',
      header: ['Control', 'Title', 'Implementation status', 'KSIs'],
      rows: members.map(({ control, covered, statement }) => [
        control,
        run.catalog.controlTitle(control) ?? NONE,
        statement.status,
        covered.map((c) => c.item.result.ksi_id).join(', '),
      ]),
    });
    for (const { statement } of members)
      blocks.push(
        ...statement.description
          .split('\n')
          .filter((text) => text !== '')
          .map(paragraph),
      );
  }
  blocks.push(heading(1, 'Governance actions'), governanceTable(run), heading(1, 'Plan of action and milestones'), ...poamBlocks(run));
  return documentOf(run, `System Security Plan: ${systemName(run)}`, 'FedRAMP 20x system security plan', blocks);
}

/** The assessment report as a Word document: scope, method, the result of each KSI, the open risks, the signed SAR. */
export function sarDocument(run: OscalRun, signature: SarSignature): WordDocumentModel {
  const blocks: WordBlock[] = [
    ...opening(run),
    ...method(run),
    heading(1, 'Results'),
    paragraph(`KSIs assessed: ${run.results.length} (PASS ${statusCount(run, 'PASS')}, WARN ${statusCount(run, 'WARN')}, FAIL ${statusCount(run, 'FAIL')})`),
    {
      kind: 'table',
      header: ['KSI', 'Title', 'Status', 'Controls', 'Evidence content hash'],
      rows: run.results.map(({ item, hash }) => [item.result.ksi_id, titleOf(item), item.result.status, controlsOf(item), formatDigest(hash)]),
    },
    heading(1, 'Risks'),
    ...poamBlocks(run),
    heading(1, 'Signed assessment results'),
    paragraph(`OSCAL assessment results: ${signature.file}`),
    paragraph(`SHA-256: ${signature.sha256}`),
    paragraph(`Signature: ${signature.algorithm} by key ${signature.keyid} (${signature.envelope})`),
    paragraph(`Verify the pair with: svc ir validate ${signature.file}`),
  ];
  return documentOf(run, `Security Assessment Report: ${systemName(run)}`, 'FedRAMP 20x security assessment report', blocks);
}

/** The assessment plan as a Word document: scope, the KSIs and their controls, the method, the re-validation schedule. */
export function sapDocument(run: OscalRun, freshness: FreshnessReport): WordDocumentModel {
  const mapped = run.results.filter(({ item }) => item.definition !== undefined);
  const unmapped = run.results.filter(({ item }) => item.definition === undefined).map(({ item }) => item.result.ksi_id);
  const blocks: WordBlock[] = [
    ...opening(run),
    heading(1, 'KSIs and controls'),
    {
      kind: 'table',
      header: ['KSI', 'Title', 'Controls', 'Every (days)', 'Owner'],
      rows: mapped.map(({ item }) => [item.result.ksi_id, titleOf(item), controlsOf(item), String(item.definition?.frequency_days ?? NONE), item.action.owner]),
    },
    ...(unmapped.length > 0 ? [paragraph(`Outside the KSI catalog, so without controls or a frequency: ${unmapped.join(', ')}`)] : []),
    ...method(run),
    ...frequencies(run).map(([days, ksis]) => paragraph(`${revalidationTask(days, ksis)}: ${ksis.join(', ')}`)),
    heading(1, 'Schedule'),
    paragraph(`Due dates at ${freshness.now}: evidence observed at the time shown is due again one validation period later.`),
    {
      kind: 'table',
      header: ['Due', 'KSI', 'Title', 'Every (days)', 'Last observed', 'Owner', 'State'],
      rows: schedule(freshness).map((e) => [
        e.due_at ?? 'now',
        e.ksi_id,
        e.title,
        String(e.frequency_days ?? NONE),
        e.observed_at ?? 'unknown',
        e.owner,
        e.state,
      ]),
    },
  ];
  return documentOf(run, `Security Assessment Plan: ${systemName(run)}`, 'FedRAMP 20x security assessment plan', blocks);
}

function documentOf(run: OscalRun, title: string, subject: string, blocks: WordBlock[]): WordDocumentModel {
  return { title, subject, creator: `${run.tool.name} ${run.tool.version}`, created: run.generatedAt, blocks: [{ kind: 'toc', title: TOC_TITLE }, ...blocks] };
}

/** The Scope section every document opens with: the system, the evidence it is about, and who wrote it when. */
function opening(run: OscalRun): WordBlock[] {
  const source = run.context.source;
  return [
    heading(1, 'Scope'),
    paragraph(`System: ${systemName(run)}`),
    paragraph(`Evidence: ${run.context.input.name} (${formatDigest(run.context.input.sha256)}), ${plural(run.results.length, 'KSI result')}`),
    ...(source?.tool ? [paragraph(`Assessment tool: ${[source.tool, source.version].filter(Boolean).join(' ')}`)] : []),
    paragraph(`Evidence Merkle root: ${formatDigest(run.merkleRoot)}`),
    paragraph(`Generated by ${run.tool.name} ${run.tool.version} at ${run.generatedAt}`),
  ];
}

/** The Method section: the plan's one activity and the tools that carry it out. */
function method(run: OscalRun): WordBlock[] {
  return [
    heading(1, 'Method'),
    paragraph(`${AUTOMATED_EVALUATION.title} (${AUTOMATED_EVALUATION.method}): ${AUTOMATED_EVALUATION.description(systemName(run))}`),
    { kind: 'table', header: ['Tool', 'Role'], rows: toolComponents(run).map((tool) => [String(tool.title), String(tool.description)]) },
  ];
}

/** Governance report order: descending severity, then ksi_id. */
function governanceTable(run: OscalRun): WordBlock {
  const actions = run.results.map(({ item }) => item.action).sort(compareActions);
  return {
    kind: 'table',
    header: ['Action', 'KSI', 'Severity', 'Owner', 'SLA (days)'],
    rows: actions.map((a) => [a.action, a.ksi_id, a.severity, a.owner, String(a.sla_days)]),
  };
}

/** The POA&M rows of the FAIL and WARN results, or a sentence saying there are none. */
function poamBlocks(run: OscalRun): WordBlock[] {
  const rows = run.results.filter(({ item }) => needsPoam(item)).map(({ item }) => poamRow(item, run.context));
  if (rows.length === 0) return [paragraph('No open items: every KSI passed.')];
  return [
    {
      kind: 'table',
      header: ['POA&M ID', 'Weakness', 'Risk rating', 'Point of contact', 'Scheduled completion', 'Remediation plan'],
      rows: rows.map((r) => [r.poam_id, r.weakness_name, r.risk_rating, r.point_of_contact, r.scheduled_completion_date, r.remediation_plan]),
    },
  ];
}

interface Statement {
  control: string;
  covered: HashedResult[];
  statement: ControlStatement;
}

/** Controls grouped under `AC Access Control`, families in the order their first control comes in the catalog. */
function byFamily(run: OscalRun, statements: readonly Statement[]): Map<string, Statement[]> {
  const groups = new Map<string, Statement[]>();
  for (const s of statements) {
    const id = s.control.split('-')[0].toUpperCase();
    const title = run.catalog.family(id)?.title;
    const name = title ? `${id} ${title}` : id;
    groups.set(name, [...(groups.get(name) ?? []), s]);
  }
  return groups;
}

function statusCount(run: OscalRun, status: string): number {
  return run.results.filter(({ item }) => item.result.status === status).length;
}

function titleOf(item: HashedResult['item']): string {
  return item.result.title ?? item.definition?.title ?? 'Unmapped KSI';
}

function controlsOf(item: HashedResult['item']): string {
  return item.definition ? item.definition.controls.join(', ') : 'not in the KSI catalog';
}

function heading(level: 1 | 2, text: string): WordBlock {
  return { kind: 'heading', level, text };
}

function paragraph(text: string): WordBlock {
  return { kind: 'paragraph', text };
}
