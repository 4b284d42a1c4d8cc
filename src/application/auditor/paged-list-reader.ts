import { inject, injectable } from 'tsyringe';
import type { RunSummary } from '../../domain/conmon/run-record';
import { IntegrityError, NotFoundError } from '../../domain/errors';
import {
  facetCount,
  filterKeys,
  indexDocumentName,
  matchesFilter,
  pageDocumentName,
  pageHolding,
  PAGED_LIST_SCHEMA,
  type ListFilter,
  type ListItem,
  type PagedListIndex,
  type PagedListSpec,
} from '../../domain/paging/paged-list';
import { cursorAt, cursorPosition, pageLimit, type Page, type PageRequest } from '../../domain/paging/page';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { CurrentRun } from './current-run';
import { runRef, type RunRef } from './run-ref';
import { readStoredText } from '../shared/stored-text';

export interface PagedListRequest extends PageRequest {
  filter: ListFilter;
  /** Only items with these keys (ksi_id): each is looked up by its page, not scanned for. */
  keys?: readonly string[];
}

export interface PagedListResult<T> extends Page<T> {
  run: RunRef;
}

interface Found {
  position: number;
  item: ListItem;
}

/**
 * A page of a list of the current run, read from the page documents `svc conmon process` stored with it
 * (docs/conmon.md, "Run documents"): the index and the few pages the request reaches, never the run. The cursor's
 * number is the position in the unfiltered list where the next page resumes.
 */
@injectable()
export class PagedListReader {
  /** The index of each list of the current run, read once per run. */
  private readonly indexes = new Map<string, PagedListIndex>();

  constructor(
    private readonly current: CurrentRun,
    @inject(RUN_STORE) private readonly store: RunStore,
  ) {}

  async read<T = ListItem>(spec: PagedListSpec, request: PagedListRequest): Promise<PagedListResult<T>> {
    const summary = await this.current.summary();
    const limit = pageLimit(request);
    const start = cursorPosition(request, summary.id);
    const index = await this.index(spec, summary);
    const page = request.keys
      ? await this.byKeys(spec, summary, index, request, start, limit)
      : await this.scan(spec, summary, index, request.filter, start, limit);
    return { run: runRef(summary), ...page } as PagedListResult<T>;
  }

  /** Forward from `start`, page by page, past pages whose facets say nothing there matches. */
  private async scan(
    spec: PagedListSpec,
    summary: RunSummary,
    index: PagedListIndex,
    filter: ListFilter,
    start: number,
    limit: number,
  ): Promise<Page<ListItem>> {
    const keys = filterKeys(spec, filter);
    const total = facetCount(index.pages, keys);
    const items: ListItem[] = [];
    for (let p = Math.floor(start / index.page_size); p < index.pages.length; p++) {
      if (facetCount([index.pages[p]], keys) === 0) continue;
      const page = await this.page(spec, summary, p);
      const offset = p * index.page_size;
      for (let j = Math.max(0, start - offset); j < page.length; j++) {
        if (!matchesFilter(spec, filter, page[j])) continue;
        items.push(page[j]);
        if (items.length < limit) continue;
        // Full: more follow when the matches up to here are fewer than the total.
        const through = facetCount(index.pages.slice(0, p), keys) + page.slice(0, j + 1).filter((item) => matchesFilter(spec, filter, item)).length;
        return { items, total, next_cursor: through < total ? cursorAt(offset + j + 1, summary.id) : null };
      }
    }
    return { items, total, next_cursor: null };
  }

  /** The items with the requested keys: each key's page found by binary search on the pages' first keys. */
  private async byKeys(
    spec: PagedListSpec,
    summary: RunSummary,
    index: PagedListIndex,
    request: PagedListRequest,
    start: number,
    limit: number,
  ): Promise<Page<ListItem>> {
    const byPage = new Map<number, Set<string>>();
    for (const key of new Set(request.keys)) {
      const p = pageHolding(index.pages, key);
      if (p === undefined) continue;
      const wanted = byPage.get(p) ?? new Set<string>();
      byPage.set(p, wanted.add(key));
    }
    const found: Found[] = [];
    for (const p of [...byPage.keys()].sort((a, b) => a - b)) {
      const wanted = byPage.get(p)!;
      (await this.page(spec, summary, p)).forEach((item, j) => {
        if (wanted.has(spec.key(item)) && matchesFilter(spec, request.filter, item)) found.push({ position: p * index.page_size + j, item });
      });
    }
    const rest = found.filter((f) => f.position >= start);
    const items = rest.slice(0, limit);
    return {
      items: items.map((f) => f.item),
      total: found.length,
      next_cursor: rest.length > limit ? cursorAt(items[items.length - 1].position + 1, summary.id) : null,
    };
  }

  private async index(spec: PagedListSpec, summary: RunSummary): Promise<PagedListIndex> {
    const name = indexDocumentName(spec);
    const cached = this.indexes.get(`${summary.id}/${name}`);
    if (cached) return cached;
    const index = await this.document<PagedListIndex>(summary, name);
    if (!index) {
      throw new NotFoundError(
        'no-run-documents',
        `run ${summary.seq} (${summary.id.slice(0, 12)}) was recorded without its ${spec.name} pages (by an earlier svc); record a run with this svc (svc conmon process <report>) and the API serves its lists`,
      );
    }
    if (index.schema !== PAGED_LIST_SCHEMA || index.list !== spec.name)
      throw new IntegrityError('run-store-tampered', `${name} of run ${summary.seq} is not a ${PAGED_LIST_SCHEMA} index of ${spec.name}`);
    // Only the current run's indexes are kept: a newer run replaces them.
    for (const key of this.indexes.keys()) if (!key.startsWith(`${summary.id}/`)) this.indexes.delete(key);
    this.indexes.set(`${summary.id}/${name}`, index);
    return index;
  }

  private async page(spec: PagedListSpec, summary: RunSummary, page: number): Promise<ListItem[]> {
    const name = pageDocumentName(spec, page);
    const items = await this.document<ListItem[]>(summary, name);
    if (!Array.isArray(items))
      throw new IntegrityError(
        'run-store-tampered',
        `run ${summary.seq} (${summary.id.slice(0, 12)}) lists ${name} in its ${spec.name} index but has no such page`,
      );
    return items;
  }

  /** A small stored document, read whole (checked against the hash chain) and parsed; undefined when there is none. */
  private async document<T>(summary: RunSummary, name: string): Promise<T | undefined> {
    const text = await readStoredText(this.store, summary.id, name);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
}
