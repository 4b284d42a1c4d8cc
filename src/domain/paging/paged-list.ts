/**
 * A list stored as fixed-size page documents plus an index (docs/conmon.md, "Run documents"): `<list>.000000.json`, …
 * each a canonical JSON array of at most LIST_PAGE_SIZE items in the list's order, and `<list>.index.json`, which
 * says where each page starts and how many of its items match every combination of the list's filter fields, so a
 * reader finds a page and a filtered total without reading the items.
 */
export const PAGED_LIST_SCHEMA = 'svc.paged-list/v1';
export const LIST_PAGE_SIZE = 1000;

export type ListItem = Record<string, unknown>;

/** What a paged list is ordered and filtered by. */
export interface PagedListSpec {
  name: 'evidence' | 'findings' | 'poam';
  /** The filter fields, in the order a facet key names them. */
  fields: readonly string[];
  /** The item's sort key (its ksi_id or poam_id): pages are in this order. */
  key(item: ListItem): string;
  /** The item's value of each filter field, as text. */
  values(item: ListItem): Record<string, string>;
}

export interface PagedListPage {
  /** The key of the page's first item. */
  first: string;
  count: number;
  /** Facet key → how many of the page's items have those values ('' counts them all). */
  facets: Record<string, number>;
}

export interface PagedListIndex {
  schema: typeof PAGED_LIST_SCHEMA;
  list: PagedListSpec['name'];
  total: number;
  page_size: number;
  pages: PagedListPage[];
}

/** A filter: per field, the values any of which an item may have; an absent field does not filter. */
export type ListFilter = Partial<Record<string, readonly string[]>>;

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));

export const EVIDENCE_LIST: PagedListSpec = {
  name: 'evidence',
  fields: ['status'],
  key: (item) => text(item.ksi_id),
  values: (item) => ({ status: text(item.status) }),
};

export const FINDINGS_LIST: PagedListSpec = {
  name: 'findings',
  fields: ['status', 'severity'],
  key: (item) => text(item.ksi_id),
  values: (item) => ({ status: text(item.status), severity: text((item.action as ListItem | undefined)?.severity) }),
};

export const POAM_LIST: PagedListSpec = {
  name: 'poam',
  fields: ['status', 'overdue'],
  key: (item) => text(item.poam_id),
  values: (item) => ({ status: text(item.status), overdue: text(item.overdue) }),
};

export function pageDocumentName(spec: PagedListSpec, page: number): string {
  return `${spec.name}.${String(page).padStart(6, '0')}.json`;
}

export function indexDocumentName(spec: PagedListSpec): string {
  return `${spec.name}.index.json`;
}

/** How many pages `total` items take. */
export function pageCount(total: number): number {
  return Math.ceil(total / LIST_PAGE_SIZE);
}

/** `field=value` pairs joined by `&`, in the spec's field order; '' for no field. */
function facetKey(spec: PagedListSpec, chosen: Record<string, string>): string {
  return spec.fields
    .filter((field) => field in chosen)
    .map((field) => `${field}=${chosen[field]}`)
    .join('&');
}

/** The facet keys an item counts under: one per subset of the fields (with '' for the empty one). */
export function facetKeysOf(spec: PagedListSpec, item: ListItem): string[] {
  const values = spec.values(item);
  const keys: string[] = [];
  for (let mask = 0; mask < 1 << spec.fields.length; mask++) {
    const chosen: Record<string, string> = {};
    spec.fields.forEach((field, i) => {
      if (mask & (1 << i)) chosen[field] = values[field];
    });
    keys.push(facetKey(spec, chosen));
  }
  return keys;
}

/** The index entry of a page of items (in list order, at least one). */
export function pageEntry(spec: PagedListSpec, items: readonly ListItem[]): PagedListPage {
  const facets: Record<string, number> = {};
  for (const item of items) for (const key of facetKeysOf(spec, item)) facets[key] = (facets[key] ?? 0) + 1;
  return { first: spec.key(items[0]), count: items.length, facets };
}

export function pagedListIndex(spec: PagedListSpec, pages: readonly PagedListPage[]): PagedListIndex {
  return { schema: PAGED_LIST_SCHEMA, list: spec.name, total: pages.reduce((sum, page) => sum + page.count, 0), page_size: LIST_PAGE_SIZE, pages: [...pages] };
}

/**
 * The facet keys whose counts add up to the items a filter matches: one per combination of the filter's values (an
 * item has one value per field, so the combinations count disjoint items).
 */
export function filterKeys(spec: PagedListSpec, filter: ListFilter): string[] {
  let combinations: Record<string, string>[] = [{}];
  for (const field of spec.fields) {
    const values = filter[field];
    if (values === undefined) continue;
    const distinct = [...new Set(values)];
    combinations = combinations.flatMap((chosen) => distinct.map((value) => ({ ...chosen, [field]: value })));
  }
  return combinations.map((chosen) => facetKey(spec, chosen));
}

/** How many items of a page (or of the list, given the index's pages) a filter matches, from the facets alone. */
export function facetCount(pages: readonly PagedListPage[], keys: readonly string[]): number {
  let count = 0;
  for (const page of pages) for (const key of keys) count += page.facets[key] ?? 0;
  return count;
}

export function matchesFilter(spec: PagedListSpec, filter: ListFilter, item: ListItem): boolean {
  const values = spec.values(item);
  return spec.fields.every((field) => filter[field] === undefined || filter[field]!.includes(values[field]));
}

/** The page that holds `key` if any does: the last whose first key is not after it (binary search). */
export function pageHolding(pages: readonly PagedListPage[], key: string): number | undefined {
  let low = 0;
  let high = pages.length - 1;
  let found: number | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (pages[middle].first <= key) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
