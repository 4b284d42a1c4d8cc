import type { AssessedResult } from '../assessment/assessment';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import { formatDigest, type ContentDigest } from '../evidence/content-digest';
import type { GovernanceAction } from '../governance/governance-policy';
import { needsPoam, poamId } from './poam';

export const LINEAGE_SCHEMA = 'svc.lineage/v1';

export interface ControlLineage {
  ksis: string[];
  evidence: string[];
  actions: string[];
}

/**
 * Canonical `lineage.json`: KSI → controls → evidence → action, and per control the KSIs, evidence hashes
 * and actions that touch it. `hashes[i]` is the content hash of `items[i]`.
 */
export function* lineageText(items: readonly AssessedResult[], hashes: readonly string[], catalog: KsiCatalog, digest: ContentDigest): Generator<string> {
  yield `{"controls":${digest.canonicalize(controlLineage(items, hashes, catalog))},"ksis":[`;
  for (let i = 0; i < items.length; i++) {
    const row = lineageRow(items[i], hashes[i]);
    yield i === 0 ? row : `,${row}`;
  }
  yield `],"schema":"${LINEAGE_SCHEMA}"}`;
}

/** Per-control view in catalog order (the canonical writer re-sorts keys by code unit). */
export function controlLineage(items: readonly AssessedResult[], hashes: readonly string[], catalog: KsiCatalog): Record<string, ControlLineage> {
  const controls = new Map<string, ControlLineage>();
  items.forEach((item, i) => {
    for (const control of item.definition?.controls ?? []) {
      const entry = controls.get(control) ?? { ksis: [], evidence: [], actions: [] };
      entry.ksis.push(item.result.ksi_id);
      entry.evidence.push(formatDigest(hashes[i]));
      entry.actions.push(actionLabel(item.action));
      controls.set(control, entry);
    }
  });
  return Object.fromEntries([...controls.entries()].sort(([a], [b]) => catalog.compareControls(a, b)));
}

/** `REMEDIATE KSI-AC-02 Critical 7d`. */
export function actionLabel(action: GovernanceAction): string {
  return `${action.action} ${action.ksi_id} ${action.severity} ${action.sla_days}d`;
}

/**
 * One `ksis[]` row. Its keys and those of the nested action are written in sorted order, so JSON.stringify
 * yields RFC 8785 text here (a unit test holds this against the canonicalizer).
 */
function lineageRow(item: AssessedResult, hash: string): string {
  const { result, definition, action } = item;
  return JSON.stringify({
    action: { action: action.action, owner: action.owner, severity: action.severity, sla_days: action.sla_days },
    controls: definition?.controls ?? [],
    evidence_hash: formatDigest(hash),
    ksi_id: result.ksi_id,
    poam_id: needsPoam(item) ? poamId(result.ksi_id) : null,
    policies: definition?.policies.map((p) => p.id) ?? [],
    status: result.status,
  });
}
