import type { AgencyFinding, AgencyPull, PulledDocument, PulledDocumentName } from '../../src/domain/agency/pulled-documents';
import type { AgencyStore } from '../../src/ports/agency-store';

/** The trust center the agency tests' pulls come from unless they name another. */
export const AGENCY_TEST_BASE = 'https://trust.acme.example';

/**
 * Records a pull of `provider`, finishing at `finished`, that fetched `documents` into `store` (any AgencyStore: the
 * in-memory double or a real one): each as JSON bytes (a string as it is, JSON or not), delivered with nosniff.
 */
export async function recordPull(
  store: AgencyStore,
  provider: string,
  finished: string,
  documents: Partial<Record<PulledDocumentName, unknown>>,
  options: { outcome?: AgencyPull['outcome']; findings?: AgencyFinding[]; base?: string } = {},
): Promise<AgencyPull> {
  const base = options.base ?? AGENCY_TEST_BASE;
  const pulled: PulledDocument[] = [];
  for (const [name, json] of Object.entries(documents) as [PulledDocumentName, unknown][]) {
    const bytes = new TextEncoder().encode(typeof json === 'string' ? json : JSON.stringify(json));
    const sha256 = await store.putDocument(bytes);
    const url = `${base}/fedramp/${name}`;
    pulled.push({
      name,
      url,
      outcome: 'fetched',
      status: 200,
      attempts: 1,
      stored: { sha256, bytes: bytes.length, url, fetchedAt: finished, delivery: { nosniff: true } },
    });
  }
  return store.appendPull({
    provider,
    started: finished,
    finished,
    url: base,
    outcome: options.outcome ?? 'ok',
    documents: pulled,
    schemas: [],
    findings: options.findings ?? [],
  });
}

/** A pull record of acme from AGENCY_TEST_BASE, `ok` with nothing in it unless `extra` says otherwise. */
export function aPull(seq: number, finished: string, extra: Partial<AgencyPull> = {}): AgencyPull {
  return { provider: 'acme', seq, started: finished, finished, url: AGENCY_TEST_BASE, outcome: 'ok', documents: [], schemas: [], findings: [], ...extra };
}
