import { needsPoam, poamId } from '../../domain/artifacts/poam';
import type { HashedResult } from '../../domain/assessment/assessment';
import type { DecidedRun } from '../../domain/conmon/run-record';
import { formatDigest, type ContentDigest } from '../../domain/evidence/content-digest';
import { entryText } from '../../domain/assessment/entry-result';
import { jsonChunks, jsonText } from '../../domain/encoding/json-chunks';
import {
  EVIDENCE_LIST,
  FINDINGS_LIST,
  indexDocumentName,
  LIST_PAGE_SIZE,
  pageCount,
  pageDocumentName,
  pagedListIndex,
  pageEntry,
  POAM_LIST,
  type ListItem,
  type PagedListPage,
  type PagedListSpec,
} from '../../domain/paging/paged-list';
import type { RunDocumentSource } from '../../ports/run-store';
import type { Finding } from '../auditor/list-findings';

const JSON_TYPE = 'application/json';

/** A FAIL or WARN result as GET /auditor/findings lists it. */
export function findingOf({ item, hash }: HashedResult): Finding {
  const { result, definition, action } = item;
  return {
    ksi_id: result.ksi_id,
    status: result.status as Finding['status'],
    title: result.title ?? null,
    details: result.details ?? null,
    observed_at: result.observed_at ?? null,
    controls: definition?.controls ?? [],
    action,
    poam_id: needsPoam(item) ? poamId(result.ksi_id) : null,
    content_hash: formatDigest(hash),
  };
}

/**
 * The page documents of the three list routes (evidence, findings, POA&M) and their indexes (docs/conmon.md, "Run
 * documents"), so svc-api answers a list request from one or a few pages and never reads the run. A page's items are
 * made only when the store writes it; each index follows its pages.
 */
export function runPageSources(stored: DecidedRun, results: readonly HashedResult[], digest: ContentDigest): RunDocumentSource[] {
  // Which results are findings, by position: the findings' pages are cut from it.
  const findings = results.flatMap((r, i) => (r.item.result.status === 'PASS' ? [] : [i]));
  // An evidence item is the result's entry in the stored bundle.
  const entry = (result: HashedResult) => JSON.parse(entryText(result, digest)) as ListItem;
  return [
    ...pagedList(EVIDENCE_LIST, results.length, (from, to) => results.slice(from, to).map(entry)),
    ...pagedList(FINDINGS_LIST, findings.length, (from, to) => findings.slice(from, to).map((i) => findingOf(results[i]) as unknown as ListItem)),
    // Every tracked item, open or closed, is one of the list: the summary has counted them.
    ...pagedList(POAM_LIST, stored.summary.poam.open + stored.summary.poam.closed, reading(stored.poam as Iterable<unknown> as Iterable<ListItem>)),
  ];
}

/**
 * The slices of a list read once, front to back: the pages are written in order, so each takes the next items of one
 * pass over the list (a run's POA&M state is made as it is read: recordStep). A slice asked for again, or out of order,
 * starts a new pass.
 */
function reading<T>(list: Iterable<T>): (from: number, to: number) => T[] {
  let cursor: Iterator<T> | undefined;
  let at = 0;
  return (from, to) => {
    if (!cursor || from < at) {
      cursor = list[Symbol.iterator]();
      at = 0;
    }
    const items: T[] = [];
    for (; at < to; at += 1) {
      const next = cursor.next();
      if (next.done) break;
      if (at >= from) items.push(next.value);
    }
    return items;
  };
}

function pagedList(spec: PagedListSpec, total: number, slice: (from: number, to: number) => ListItem[]): RunDocumentSource[] {
  const pages = pageCount(total);
  const items = (page: number) => slice(page * LIST_PAGE_SIZE, Math.min(total, (page + 1) * LIST_PAGE_SIZE));
  // Each page's index entry is taken from the items as the page is written (at most LIST_PAGE_SIZE of them), so the
  // index, written after its pages, does not make them again.
  const entries: PagedListPage[] = [];
  const sources: RunDocumentSource[] = [];
  for (let page = 0; page < pages; page++) {
    const chunks = {
      [Symbol.iterator]: () => {
        const written = items(page);
        entries[page] = pageEntry(spec, written);
        return jsonChunks(written, 'canonical');
      },
    };
    sources.push({ name: pageDocumentName(spec, page), media_type: JSON_TYPE, chunks });
  }
  sources.push({
    name: indexDocumentName(spec),
    media_type: JSON_TYPE,
    chunks: () => {
      for (let page = 0; page < pages; page++) entries[page] ??= pageEntry(spec, items(page));
      return [jsonText(pagedListIndex(spec, entries), 'canonical')];
    },
  });
  return sources;
}
