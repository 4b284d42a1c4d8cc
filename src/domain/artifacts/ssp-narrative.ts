import type { AssessedResult, HashedResult } from '../assessment/assessment';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import { markdownText } from '../encoding/markdown';
import { formatDigest } from '../evidence/content-digest';
import type { InputRef } from './run-context';
import { needsPoam, poamId } from './poam';
import type { TextSink } from './text-sink';

/** OSCAL implementation-status values: all PASS → implemented, any WARN → partial, any FAIL → planned. */
export type ImplementationStatus = 'implemented' | 'partial' | 'planned';

export function implementationStatus(items: readonly AssessedResult[]): ImplementationStatus {
  if (items.some((i) => i.result.status === 'FAIL')) return 'planned';
  if (items.some((i) => i.result.status === 'WARN')) return 'partial';
  return 'implemented';
}

/** Controls touched by mapped results, in catalog order, with the results that cover each. */
export function controlsTouched(mapped: readonly HashedResult[], catalog: KsiCatalog): { control: string; covered: HashedResult[] }[] {
  const byControl = new Map<string, HashedResult[]>();
  for (const entry of mapped) {
    for (const control of entry.item.definition?.controls ?? []) {
      const list = byControl.get(control) ?? [];
      list.push(entry);
      byControl.set(control, list);
    }
  }
  return [...byControl.keys()].sort(catalog.compareControls).map((control) => ({ control, covered: byControl.get(control) ?? [] }));
}

/** `ssp-narrative.md`: one section per control the run touches (only mapped results touch controls). */
export function writeSspNarrative(sink: TextSink, mapped: readonly HashedResult[], catalog: KsiCatalog, input: InputRef): void {
  const sections = controlsTouched(mapped, catalog);
  const statuses = sections.map((s) => implementationStatus(s.covered.map((c) => c.item)));
  const count = (status: ImplementationStatus) => statuses.filter((s) => s === status).length;
  sink.write(`# SSP implementation narrative\n\nInput: ${markdownText(input.name)} (${formatDigest(input.sha256)})\n`);
  sink.write(`Controls: ${sections.length} (implemented: ${count('implemented')}, partial: ${count('partial')}, planned: ${count('planned')})\n`);
  sections.forEach(({ control, covered }, s) => {
    const title = catalog.controlTitle(control);
    sink.write(`\n## ${markdownText(title ? `${control} ${title}` : control)}\n\nImplementation status: ${statuses[s]}\n\n`);
    for (const { item, hash } of covered) sink.write(`- ${markdownText(narrativeSentence(item, hash))}\n`);
  });
}

/** The narrative of one result as a list item of plain text (OSCAL's SSP holds it as is). */
export function narrativeLine(item: AssessedResult, hash: string): string {
  return `- ${narrativeSentence(item, hash)}`;
}

/** What a result says about a control: the KSI, its status, who assessed it when, its evidence and follow-up. */
export function narrativeSentence(item: AssessedResult, hash: string): string {
  const { result, definition, action } = item;
  const what = `${result.ksi_id} (${result.title ?? definition?.title ?? result.ksi_id})`;
  const seen = [result.source && `by ${result.source}`, result.observed_at && `at ${result.observed_at}`].filter(Boolean).join(' ');
  const follow = needsPoam(item) ? `; ${action.action} ${action.severity} within ${action.sla_days}d as ${poamId(result.ksi_id)}, owner ${action.owner}` : '';
  return `${what}: ${result.status}${seen ? ` (assessed ${seen})` : ''}, evidence ${formatDigest(hash)}${follow}.`;
}
