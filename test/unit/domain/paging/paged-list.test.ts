import {
  EVIDENCE_LIST,
  facetCount,
  facetKeysOf,
  FINDINGS_LIST,
  filterKeys,
  indexDocumentName,
  matchesFilter,
  pageCount,
  pageDocumentName,
  pagedListIndex,
  pageEntry,
  pageHolding,
  POAM_LIST,
} from '../../../../src/domain/paging/paged-list';

const finding = (ksi_id: string, status: string, severity: string) => ({ ksi_id, status, action: { severity } });

describe('paged lists: page names, facet keys and the index', () => {
  it('names pages with six digits and the index after the list', () => {
    expect([pageDocumentName(EVIDENCE_LIST, 0), pageDocumentName(FINDINGS_LIST, 12), indexDocumentName(POAM_LIST)]).toEqual([
      'evidence.000000.json',
      'findings.000012.json',
      'poam.index.json',
    ]);
    expect([pageCount(0), pageCount(1), pageCount(1000), pageCount(1001), pageCount(2500)]).toEqual([0, 1, 1, 2, 3]);
  });

  it("counts an item under every combination of its filter fields, in the route's field order", () => {
    expect(facetKeysOf(EVIDENCE_LIST, { ksi_id: 'KSI-A', status: 'PASS' })).toEqual(['', 'status=PASS']);
    expect(facetKeysOf(FINDINGS_LIST, finding('KSI-A', 'FAIL', 'High'))).toEqual(['', 'status=FAIL', 'severity=High', 'status=FAIL&severity=High']);
    expect(facetKeysOf(POAM_LIST, { poam_id: 'POAM-1', status: 'Open', overdue: false })).toEqual([
      '',
      'status=Open',
      'overdue=false',
      'status=Open&overdue=false',
    ]);
  });

  it('makes a page entry and an index from the items', () => {
    const page = pageEntry(FINDINGS_LIST, [finding('KSI-A', 'FAIL', 'High'), finding('KSI-B', 'WARN', 'High'), finding('KSI-C', 'FAIL', 'Low')]);
    expect(page).toEqual({
      first: 'KSI-A',
      count: 3,
      facets: {
        '': 3,
        'status=FAIL': 2,
        'status=WARN': 1,
        'severity=High': 2,
        'severity=Low': 1,
        'status=FAIL&severity=High': 1,
        'status=WARN&severity=High': 1,
        'status=FAIL&severity=Low': 1,
      },
    });
    const second = pageEntry(FINDINGS_LIST, [finding('KSI-D', 'FAIL', 'Critical')]);
    expect(pagedListIndex(FINDINGS_LIST, [page, second])).toEqual({
      schema: 'svc.paged-list/v1',
      list: 'findings',
      total: 4,
      page_size: 1000,
      pages: [page, second],
    });
  });

  it("adds up a filter's total from the facets of the combinations of its values", () => {
    const pages = [
      pageEntry(FINDINGS_LIST, [finding('KSI-A', 'FAIL', 'High'), finding('KSI-B', 'WARN', 'High')]),
      pageEntry(FINDINGS_LIST, [finding('KSI-C', 'FAIL', 'Low'), finding('KSI-D', 'FAIL', 'Critical')]),
    ];
    expect(filterKeys(FINDINGS_LIST, {})).toEqual(['']);
    expect(filterKeys(FINDINGS_LIST, { severity: ['High', 'Low'], status: ['FAIL', 'FAIL'] })).toEqual([
      'status=FAIL&severity=High',
      'status=FAIL&severity=Low',
    ]);
    expect(facetCount(pages, filterKeys(FINDINGS_LIST, {}))).toBe(4);
    expect(facetCount(pages, filterKeys(FINDINGS_LIST, { status: ['FAIL'] }))).toBe(3);
    expect(facetCount(pages, filterKeys(FINDINGS_LIST, { severity: ['High', 'Critical'] }))).toBe(3);
    expect(facetCount(pages, filterKeys(FINDINGS_LIST, { status: ['WARN'], severity: ['Low'] }))).toBe(0);
    expect(facetCount(pages.slice(1), filterKeys(FINDINGS_LIST, { status: ['WARN'] }))).toBe(0);
    expect(matchesFilter(FINDINGS_LIST, { status: ['FAIL'], severity: ['Low'] }, finding('KSI-C', 'FAIL', 'Low'))).toBe(true);
    expect(matchesFilter(POAM_LIST, { overdue: ['true'] }, { poam_id: 'P', status: 'Open', overdue: false })).toBe(false);
  });

  it('finds the page that may hold a key by binary search on the first keys', () => {
    const pages = ['KSI-B', 'KSI-D', 'KSI-F'].map((first) => ({ first, count: 2, facets: {} }));
    expect(['KSI-A', 'KSI-B', 'KSI-C', 'KSI-D', 'KSI-E', 'KSI-Z'].map((key) => pageHolding(pages, key))).toEqual([undefined, 0, 0, 1, 1, 2]);
    expect(pageHolding([], 'KSI-A')).toBeUndefined();
  });
});
