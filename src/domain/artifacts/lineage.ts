import type { AssessedResult, HashedResult } from '../assessment/assessment';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import { formatDigest, type ContentDigest } from '../evidence/content-digest';
import { mappingText } from '../evidence/mapping-text';
import type { GovernanceAction } from '../governance/governance-policy';
import { needsPoam, poamId } from './poam';
import type { TextSink } from './text-sink';

export const LINEAGE_SCHEMA = 'svc.lineage/v1';

export interface ControlLineage {
  ksis: string[];
  evidence: string[];
  actions: string[];
}

/**
 * The canonical `lineage.json` is lineageHead (per control the KSIs, evidence hashes and actions that touch
 * it: only mapped results touch controls, so they are known up front), the KSI rows in ksi_id order, then
 * LINEAGE_TAIL.
 */
export function lineageHead(controls: Record<string, ControlLineage>, digest: ContentDigest): string {
  return `{"controls":${digest.canonicalize(controls)},"ksis":[`;
}

export const LINEAGE_TAIL = `],"schema":"${LINEAGE_SCHEMA}"}`;

/** Writes KSI → controls → evidence → action rows; `preceded` when rows written elsewhere come before these. */
export class LineageRows {
  private written: boolean;

  constructor(
    private readonly sink: TextSink,
    preceded = false,
  ) {
    this.written = preceded;
  }

  add(item: AssessedResult, hash: string): void {
    const row = lineageRow(item, hash);
    this.sink.write(this.written ? `,${row}` : row);
    this.written = true;
  }
}

/** Per-control view of the mapped results, in catalog order (the canonical writer re-sorts keys by code unit). */
export function controlLineage(mapped: readonly HashedResult[], catalog: KsiCatalog): Record<string, ControlLineage> {
  const controls = new Map<string, ControlLineage>();
  for (const { item, hash } of mapped) {
    for (const control of item.definition?.controls ?? []) {
      const entry = controls.get(control) ?? { ksis: [], evidence: [], actions: [] };
      entry.ksis.push(item.result.ksi_id);
      entry.evidence.push(formatDigest(hash));
      entry.actions.push(actionLabel(item.action));
      controls.set(control, entry);
    }
  }
  return Object.fromEntries([...controls.entries()].sort(([a], [b]) => catalog.compareControls(a, b)));
}

/** `REMEDIATE KSI-AC-02 Critical 7d`. */
function actionLabel(action: GovernanceAction): string {
  return `${action.action} ${action.ksi_id} ${action.severity} ${action.sla_days}d`;
}

const actionTexts = new Map<string, string>();

/**
 * One `ksis[]` row as canonical JSON: keys are written in code-unit order and every value is JSON text
 * of a string or of a remembered piece (a unit test holds the rows against the canonicalizer).
 */
function lineageRow(item: AssessedResult, hash: string): string {
  const { result, definition } = item;
  const mapping = mappingText(definition);
  const poam = needsPoam(item) ? JSON.stringify(poamId(result.ksi_id)) : 'null';
  return `{"action":${actionText(item)},"controls":${mapping.controls},"evidence_hash":"${formatDigest(hash)}","ksi_id":${JSON.stringify(result.ksi_id)},"poam_id":${poam},"policies":${mapping.policies},"status":"${result.status}"}`;
}

/** A run has only a handful of distinct actions (type, owner, severity, SLA): their JSON is remembered. */
function actionText({ action }: AssessedResult): string {
  const key = `${action.action} ${action.severity} ${action.sla_days} ${action.owner}`;
  let text = actionTexts.get(key);
  if (text === undefined) {
    text = JSON.stringify({ action: action.action, owner: action.owner, severity: action.severity, sla_days: action.sla_days });
    if (actionTexts.size < 4096) actionTexts.set(key, text);
  }
  return text;
}
