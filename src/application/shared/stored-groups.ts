import type { RunSummary } from '../../domain/conmon/run-record';
import { DETECTIONS_DOCUMENT, readStoredDetectionsDocument } from '../../domain/conmon/run-sources';
import type { Detection } from '../../domain/vulnerabilities/detection';
import { readVulnerabilityGroups, VULNERABILITIES_DOCUMENT, type StoredGroup } from '../../domain/vulnerabilities/groups';
import type { RunView } from '../../ports/run-store';
import { readStoredText } from './stored-text';

/** The vulnerability groups a recorded run left (none for a run recorded without them). */
export async function readStoredGroups(store: RunView, run: RunSummary): Promise<StoredGroup[]> {
  const text = await readStoredText(store, run.id, VULNERABILITIES_DOCUMENT);
  if (text === undefined) return [];
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    document = undefined; // read as not svc's just below
  }
  return readVulnerabilityGroups(document, `${store.location} run ${run.seq}`).groups;
}

/**
 * The detections a recorded run found (detections.json); undefined for a run stored without them (one recorded before
 * svc kept them, or with none): its source's groups are then not remediated by their absence from the state.
 */
export async function readStoredDetections(store: RunView, run: RunSummary): Promise<Detection[] | undefined> {
  const text = await readStoredText(store, run.id, DETECTIONS_DOCUMENT);
  if (text === undefined) return undefined;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    document = undefined; // read as not svc's just below
  }
  return readStoredDetectionsDocument(document, `${store.location} run ${run.seq}`);
}
