import { isoDate } from '../artifacts/run-context';
import { controlsTouched } from '../artifacts/ssp-narrative';
import { formatDigest } from '../evidence/content-digest';
import type { Status } from '../ksi/status';
import { line, type OscalRun } from '../oscal/oscal-run';
import { RESPONSIBILITIES, RESPONSIBILITY_RULE, RESPONSIBILITY_TEXT, responsibilityOf, type Responsibility } from './responsibility';

/** What a document of a run needs from the loaded run (OscalRunLoader gives all of it). */
export type DocumentRun = Pick<OscalRun, 'tool' | 'generatedAt' | 'context' | 'results' | 'merkleRoot' | 'catalog' | 'entriesFile' | 'files'>;

/** The KSI evidence of one control: one entry per KSI that maps to it, in ksi_id order. */
export interface CrmEvidence {
  ksi: string;
  status: Status;
  /** `sha256:<hex>` content hash of the KSI's evidence entry. */
  hash: string;
}

/** One row of the customer responsibility matrix. */
export interface CrmRow {
  control: string;
  /** The baseline's title; '' for a control outside the baseline. */
  title: string;
  responsibility: Responsibility;
  provider: string;
  customer: string;
  evidence: CrmEvidence[];
}

export interface CrmModel {
  system: string;
  /** YYYY-MM-DD the workbook speaks for (the run's time: SOURCE_DATE_EPOCH when set). */
  date: string;
  tool: { name: string; version: string };
  input: { name: string; sha256: string };
  merkleRoot: string;
  baseline: string;
  /** The responsibility rule applied, in words. */
  rule: string;
  /** Every control the baseline selects, then any other control a KSI maps to, in catalog order. */
  rows: CrmRow[];
  /** Controls per responsibility, with and without KSI evidence in this run. */
  summary: { responsibility: Responsibility; controls: number; evidenced: number }[];
}

/**
 * The customer responsibility matrix of a run: each baseline control with its responsibility under the default
 * rule (responsibility.ts) and the KSI evidence the run holds for it.
 */
export function buildCrm(run: DocumentRun): CrmModel {
  const { catalog } = run;
  const touched = new Map(controlsTouched(run.results, catalog).map((c) => [c.control, c.covered]));
  const ids = [...new Set([...catalog.data.baseline_controls.map((c) => c.id), ...touched.keys()])].sort(catalog.compareControls);
  const rows = ids.map((control): CrmRow => {
    const responsibility = responsibilityOf(control);
    const evidence = (touched.get(control) ?? []).map(({ item, hash }) => ({ ksi: item.result.ksi_id, status: item.result.status, hash: formatDigest(hash) }));
    return { control, title: catalog.controlTitle(control) ?? '', responsibility, ...RESPONSIBILITY_TEXT[responsibility], evidence };
  });
  return {
    system: systemOf(run),
    date: isoDate(run.generatedAt),
    tool: run.tool,
    input: run.context.input,
    merkleRoot: formatDigest(run.merkleRoot),
    baseline: catalog.data.source.baseline,
    rule: RESPONSIBILITY_RULE,
    rows,
    summary: RESPONSIBILITIES.map((responsibility) => {
      const mine = rows.filter((r) => r.responsibility === responsibility);
      return { responsibility, controls: mine.length, evidenced: mine.filter((r) => r.evidence.length > 0).length };
    }),
  };
}

/** The system a run is about: the tenant the tool assessed, else the report it wrote (as the OSCAL SSP names it). */
export function systemOf(run: Pick<DocumentRun, 'context'>): string {
  return line(run.context.source?.tenant ?? run.context.input.name);
}
