import type { RunSummary } from '../../domain/conmon/run-record';
import { readVulnerabilityGroups, VULNERABILITIES_DOCUMENT, type StoredGroup } from '../../domain/vulnerabilities/groups';
import type { RunStore } from '../../ports/run-store';
import { readStoredText } from './stored-text';

/** The vulnerability groups a recorded run left (none for a run recorded without them). */
export async function readStoredGroups(store: RunStore, run: RunSummary): Promise<StoredGroup[]> {
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
