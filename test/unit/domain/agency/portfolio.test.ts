import { ksiCounts, portfolioTitle, providerTrend, trendDocumentShas, vulnerabilityCounts } from '../../../../src/domain/agency/portfolio';
import type { AgencyPull, PulledDocument, PulledDocumentName } from '../../../../src/domain/agency/pulled-documents';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();
const BASE = 'https://trust.acme.example';

/** A pull whose documents are given by name and stored digest (`failed`: the digest is the previous bytes carried forward). */
function pull(seq: number, finished: string, docs: Partial<Record<PulledDocumentName, string>>, outcome: AgencyPull['outcome'] = 'ok'): AgencyPull {
  const documents = Object.entries(docs).map(([name, sha256]): PulledDocument => ({
    name: name as PulledDocumentName,
    url: `${BASE}/fedramp/${name}`,
    outcome: outcome === 'ok' ? 'fetched' : 'failed',
    attempts: 1,
    stored: { sha256, bytes: 10, url: `${BASE}/fedramp/${name}`, fetchedAt: finished, delivery: { nosniff: true } },
  }));
  return { provider: 'acme', seq, started: finished, finished, url: BASE, outcome, documents, schemas: [], findings: [] };
}

const vuln = (id: string, extra: Record<string, unknown>) => ({ providerTrackingId: id, detection: { detectedAt: '2026-09-20T00:00:00Z' }, ...extra });
/** Class B: due 2026-09-29 (VDR-TFR-PVR, N4 IRV LEV). */
const A = vuln('VG-A', { evaluationCompletedAt: '2026-09-21T00:00:00Z', isInternetReachable: true, isLikelyExploitable: true, currentRating: 4 });
/** Class B: due 2027-04-01 (N2). */
const B = vuln('VG-B', { evaluationCompletedAt: '2026-09-21T00:00:00Z', isInternetReachable: false, isLikelyExploitable: false, currentRating: 2 });
/** Never evaluated: due 2026-09-27 (VER-TFR-EVU). */
const C = vuln('VG-C', {});

const SDR_1 = {
  keySecurityIndicators: [
    { ksiId: 'KSI-IAM-MFA', ksiImplementationStatus: 'Implemented' },
    { ksiId: 'KSI-CNA-RNT', ksiImplementationStatus: 'Partially Implemented' },
    { ksiId: 'KSI-SVC-ACM' },
  ],
};
const SDR_2 = {
  keySecurityIndicators: [
    { ksiId: 'KSI-IAM-MFA', ksiImplementationStatus: 'Implemented' },
    { ksiId: 'KSI-CNA-RNT', ksiImplementationStatus: 'Implemented' },
    { ksiId: 'KSI-SVC-ACM', ksiImplementationStatus: 'Not Implemented' },
  ],
};
const VDR_1 = { vulnerabilities: [A, B, C] };
const VDR_2 = { vulnerabilities: [{ ...A, finalDisposition: 'Remediated' }, { ...B, finalDisposition: 'False Positive' }, C] };
const DOCUMENTS = new Map<string, unknown>([
  ['sdr1', SDR_1],
  ['sdr2', SDR_2],
  ['vdr1', VDR_1],
  ['vdr2', VDR_2],
]);

describe('trendDocumentShas', () => {
  it('names each SDR and VDR digest once, in the order the pulls brought them, and no other document', () => {
    const pulls = [
      pull(1, '2026-09-22T00:00:00Z', { cpo: 'cpo1', sdr: 'sdr1', vdr: 'vdr1', ocr: 'ocr1' }),
      pull(2, '2026-10-15T00:00:00Z', { sdr: 'sdr1', vdr: 'vdr1' }, 'failed'),
      pull(3, '2027-01-20T00:00:00Z', { sdr: 'sdr2', vdr: 'vdr2', avi: 'avi1' }),
    ];
    expect(trendDocumentShas(pulls)).toEqual(['sdr1', 'vdr1', 'sdr2', 'vdr2']);
  });

  it('names nothing for pulls that stored nothing', () => {
    const failed = pull(1, '2026-09-22T00:00:00Z', {}, 'failed');
    failed.documents.push({ name: 'sdr', url: `${BASE}/fedramp/sdr`, outcome: 'failed', attempts: 3, error: 'timed out after 10 s' });
    expect(trendDocumentShas([failed])).toEqual([]);
    expect(trendDocumentShas([])).toEqual([]);
  });
});

describe('ksiCounts', () => {
  it('counts the KSIs whose ksiImplementationStatus is Implemented among those listed', () => {
    expect(ksiCounts(SDR_1)).toEqual({ implemented: 1, listed: 3 });
    expect(ksiCounts(SDR_2)).toEqual({ implemented: 2, listed: 3 });
  });

  it('counts nothing for an SDR listing no KSI, or anything not shaped like one', () => {
    expect(ksiCounts({ keySecurityIndicators: [] })).toBeUndefined();
    expect(ksiCounts({ keySecurityIndicators: 'all of them' })).toBeUndefined();
    expect(ksiCounts('<script>alert(1)</script>')).toBeUndefined();
    expect(ksiCounts(undefined)).toBeUndefined();
    expect(
      ksiCounts({ keySecurityIndicators: [{ ksiImplementationStatus: 'Implemented' }, { ksiId: 'KSI-X', ksiImplementationStatus: 'implemented' }] }),
    ).toEqual({
      implemented: 0,
      listed: 1,
    });
  });
});

describe('vulnerabilityCounts', () => {
  it('recomputes overdue at the time given, with the PAIN timeframes of the class', () => {
    expect(vulnerabilityCounts(VDR_1, 'B', rules, new Date('2026-09-22T00:00:00Z'))).toEqual({ open: 3, overdue: 0 });
    expect(vulnerabilityCounts(VDR_1, 'B', rules, new Date('2026-09-28T00:00:00Z'))).toEqual({ open: 3, overdue: 1 });
    expect(vulnerabilityCounts(VDR_1, 'B', rules, new Date('2026-10-15T00:00:00Z'))).toEqual({ open: 3, overdue: 2 });
  });

  it('leaves remediated vulnerabilities and false positives out, as svc agency status does', () => {
    expect(vulnerabilityCounts(VDR_2, 'B', rules, new Date('2027-01-20T00:00:00Z'))).toEqual({ open: 1, overdue: 1 });
  });

  it("never takes the provider's own overdueStatus", () => {
    const claims = {
      vulnerabilities: [
        { ...A, overdueStatus: { isOverdue: false } },
        { ...B, overdueStatus: { isOverdue: true } },
      ],
    };
    expect(vulnerabilityCounts(claims, 'B', rules, new Date('2026-10-15T00:00:00Z'))).toEqual({ open: 2, overdue: 1 });
  });

  it('counts nothing in a document not shaped like a VDR', () => {
    expect(vulnerabilityCounts('garbage', 'B', rules, new Date('2026-10-15T00:00:00Z'))).toEqual({ open: 0, overdue: 0 });
  });
});

describe('providerTrend', () => {
  const pulls = [
    pull(1, '2026-09-22T00:00:00Z', { sdr: 'sdr1', vdr: 'vdr1' }),
    pull(2, '2026-10-15T00:00:00Z', { sdr: 'sdr1', vdr: 'vdr1' }, 'failed'),
    pull(3, '2027-01-20T00:00:00Z', { sdr: 'sdr2', vdr: 'vdr2' }),
  ];

  it("gives one point per pull: the KSIs implemented and the open and overdue vulnerabilities recomputed at the pull's time", () => {
    expect(providerTrend({ pulls, documents: DOCUMENTS, cls: 'B', rules })).toEqual([
      { seq: 1, at: '2026-09-22T00:00:00Z', outcome: 'ok', ksis: { implemented: 1, listed: 3 }, vulnerabilities: { open: 3, overdue: 0 } },
      // The provider was down: its last VDR, judged later, has two vulnerabilities overdue.
      { seq: 2, at: '2026-10-15T00:00:00Z', outcome: 'failed', ksis: { implemented: 1, listed: 3 }, vulnerabilities: { open: 3, overdue: 2 } },
      { seq: 3, at: '2027-01-20T00:00:00Z', outcome: 'ok', ksis: { implemented: 2, listed: 3 }, vulnerabilities: { open: 1, overdue: 1 } },
    ]);
  });

  it('counts no vulnerability without a class to judge by', () => {
    expect(providerTrend({ pulls, documents: DOCUMENTS, rules }).map((p) => p.vulnerabilities)).toEqual([undefined, undefined, undefined]);
    expect(providerTrend({ pulls, documents: DOCUMENTS, rules }).map((p) => p.ksis?.implemented)).toEqual([1, 1, 2]);
  });

  it('carries a document forward through pulls that did not bring it, and has no value before the first one came', () => {
    const later = [
      pull(1, '2026-09-22T00:00:00Z', { cpo: 'cpo1' }),
      pull(2, '2026-09-23T00:00:00Z', { vdr: 'vdr1' }),
      pull(3, '2026-10-15T00:00:00Z', { sdr: 'sdr2' }),
      pull(4, '2026-10-16T00:00:00Z', {}, 'failed'),
    ];
    expect(providerTrend({ pulls: later, documents: DOCUMENTS, cls: 'B', rules })).toEqual([
      { seq: 1, at: '2026-09-22T00:00:00Z', outcome: 'ok' },
      { seq: 2, at: '2026-09-23T00:00:00Z', outcome: 'ok', vulnerabilities: { open: 3, overdue: 0 } },
      { seq: 3, at: '2026-10-15T00:00:00Z', outcome: 'ok', ksis: { implemented: 2, listed: 3 }, vulnerabilities: { open: 3, overdue: 2 } },
      { seq: 4, at: '2026-10-16T00:00:00Z', outcome: 'failed', ksis: { implemented: 2, listed: 3 }, vulnerabilities: { open: 3, overdue: 2 } },
    ]);
  });

  it('counts nothing for a digest it was not given, and gives no point for a provider never pulled', () => {
    expect(providerTrend({ pulls: [pull(1, '2026-09-22T00:00:00Z', { sdr: 'gone', vdr: 'gone too' })], documents: DOCUMENTS, cls: 'C', rules })).toEqual([
      { seq: 1, at: '2026-09-22T00:00:00Z', outcome: 'ok' },
    ]);
    expect(providerTrend({ pulls: [], documents: DOCUMENTS, cls: 'C', rules })).toEqual([]);
  });
});

describe('portfolioTitle', () => {
  it("names the agency's portfolio when the agency is named", () => {
    expect(portfolioTitle(undefined)).toBe('Agency portfolio');
    expect(portfolioTitle('Dept of Examples')).toBe('Portfolio of Dept of Examples');
  });
});
