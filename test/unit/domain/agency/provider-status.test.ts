import { aPull as pull } from '../../../support/agency-pulls';
import { classOf, eventFacts, ksiStatuses, ocrPeriodEnd, providerStatus, type ProviderStatusInput } from '../../../../src/domain/agency/provider-status';
import type { AgencyProvider } from '../../../../src/domain/agency/providers';
import type { AgencyFinding, AgencyReview, PulledDocument } from '../../../../src/domain/agency/pulled-documents';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();
const BASE = 'https://trust.acme.example';
const ACME: AgencyProvider = { name: 'acme', url: BASE, fedrampId: 'FR2611250001', class: 'B', auth: { kind: 'none' } };
const NOW = new Date('2026-11-20T12:00:00Z');
const SHA = (c: string) => c.repeat(64);

/** A vulnerability as FedRAMP's VDR schema writes it, detected and evaluated on the days given (2026). */
const vulnerability = (id: string, detected: string, extra: Record<string, unknown>) => ({
  providerTrackingId: id,
  detection: { detectedAt: `2026-${detected}T00:00:00Z`, detectionSource: 'scanner' },
  vulnerabilityDescription: `Weakness ${id}`,
  overdueStatus: { isOverdue: false },
  ...extra,
});
const rated = (id: string, detected: string, rating: number, irv: boolean, lev: boolean, extra: Record<string, unknown> = {}) =>
  vulnerability(id, detected, {
    evaluationCompletedAt: `2026-${detected}T12:00:00Z`,
    isInternetReachable: irv,
    isLikelyExploitable: lev,
    currentRating: rating,
    ...extra,
  });

const document = (name: PulledDocument['name'], outcome: PulledDocument['outcome'], extra: Partial<PulledDocument> = {}): PulledDocument => ({
  name,
  url: `${BASE}/fedramp/${name}`,
  outcome,
  attempts: 1,
  ...extra,
});
const review = (ocrPeriodEnd: string): AgencyReview => ({
  provider: 'acme',
  ocrPeriodEnd,
  ocrSha256: SHA('c'),
  reviewedAt: '2026-10-05T00:00:00Z',
  signature: { keyid: 'k', alg: 'EdDSA', sig: 's' },
});
const input = (extra: Partial<ProviderStatusInput> = {}): ProviderStatusInput => ({
  provider: ACME,
  documents: {},
  ocrPeriods: [],
  reviews: [],
  ksiBaseline: new Map(),
  rules,
  now: NOW,
  ...extra,
});
const ok = pull(3, '2026-11-20T06:00:00Z');

describe('providerStatus: one row of svc agency status', () => {
  it('a provider never pulled: only the action to pull it', () => {
    expect(providerStatus(input())).toEqual({
      provider: 'acme',
      url: BASE,
      class: 'B',
      classSource: 'configuration',
      fedrampId: 'FR2611250001',
      unreviewedOcrs: [],
      incidents: [],
      scns: { count: 0 },
      ksiChanges: [],
      documents: { invalid: [], stale: [] },
      actions: ['never pulled: run svc agency pull acme'],
      notes: [],
      findings: [],
    });
  });

  it('a clean pull: the row from the documents, nothing to act on', () => {
    const row = providerStatus(
      input({
        latest: ok,
        lastReached: ok,
        documents: {
          cpo: {
            serviceIdentification: { fedRampPackageId: 'FR2611250001', certificationType: 'Rev5 Agency' },
            serviceProperties: { nextOngoingCertificationReportDate: '2026-12-31' },
          },
          ocr: { reportPeriod: { from: '2026-07-01', to: '2026-09-30' } },
          scn: [{ planAndTimeline: { plannedCompletion: '2027-02-01' } }, { planAndTimeline: { plannedCompletion: '2026-12-15' } }, {}],
        },
        ocrPeriods: ['2026-09-30'],
        reviews: [review('2026-09-30')],
      }),
    );
    expect(row).toEqual({
      provider: 'acme',
      url: BASE,
      class: 'B',
      classSource: 'configuration',
      type: 'Rev5 Agency',
      fedrampId: 'FR2611250001',
      lastPull: { seq: 3, finished: '2026-11-20T06:00:00Z', outcome: 'ok' },
      lastOcr: { periodEnd: '2026-09-30', reviewed: true },
      unreviewedOcrs: [],
      nextOcrDue: '2026-12-31',
      incidents: [],
      scns: { count: 3, latestPlannedCompletion: '2027-02-01' },
      ksiChanges: [],
      documents: { invalid: [], stale: [] },
      actions: [],
      notes: [],
      findings: [],
    });
  });

  it('type, FedRAMP ID and next OCR date from the public information when no CPO came; the configured FedRAMP ID first', () => {
    const pub = {
      serviceIdentification: { fedRampPackageId: 'FR9', certificationType: 'Program' },
      serviceProperties: { nextOngoingCertificationReportDate: '2027-01-15' },
    };
    const row = providerStatus(input({ latest: ok, documents: { public: pub } }));
    expect([row.type, row.fedrampId, row.nextOcrDue]).toEqual(['Program', 'FR2611250001', '2027-01-15']);
    const unconfigured = providerStatus(input({ provider: { ...ACME, fedrampId: undefined }, latest: ok, documents: { public: pub } }));
    expect(unconfigured.fedrampId).toBe('FR9');
    const none = providerStatus(input({ provider: { name: 'acme', url: BASE, auth: { kind: 'none' } }, latest: ok }));
    expect(none).not.toHaveProperty('fedrampId');
    expect(none).not.toHaveProperty('class');
    expect(none).not.toHaveProperty('classSource');
  });

  describe('a pull that failed or half failed', () => {
    const failed = pull(5, '2026-11-20T06:00:00Z', { outcome: 'failed', error: `${BASE}/fedramp/public: connect ECONNREFUSED` });
    it.each<[string, Partial<ProviderStatusInput>, string]>([
      [
        'unreachable for 3 days',
        { lastReached: pull(2, '2026-11-17T05:00:00Z') },
        `pull 5 failed: unreachable for 3 days (${BASE}/fedramp/public: connect ECONNREFUSED)`,
      ],
      [
        'unreachable for 1 day',
        { lastReached: pull(2, '2026-11-19T06:00:00Z') },
        `pull 5 failed: unreachable for 1 day (${BASE}/fedramp/public: connect ECONNREFUSED)`,
      ],
      [
        'unreachable for less than a day: no days said',
        { lastReached: pull(2, '2026-11-20T00:00:00Z') },
        `pull 5 failed: unreachable (${BASE}/fedramp/public: connect ECONNREFUSED)`,
      ],
      ['never reached', {}, `pull 5 failed: never reached (${BASE}/fedramp/public: connect ECONNREFUSED)`],
    ])('%s', (_what, extra, action) => {
      const row = providerStatus(input({ latest: failed, ...extra }));
      expect(row.actions).toEqual([action]);
      expect(row.lastPull).toEqual({ seq: 5, finished: '2026-11-20T06:00:00Z', outcome: 'failed', error: `${BASE}/fedramp/public: connect ECONNREFUSED` });
    });

    it("a failed pull without a reason: the first document's error, else no document came", () => {
      const documents = [document('public', 'failed'), document('cpo', 'failed', { error: `${BASE}/fedramp/cpo: timed out` })];
      expect(providerStatus(input({ latest: { ...failed, error: undefined, documents } })).actions).toEqual([
        `pull 5 failed: never reached (${BASE}/fedramp/cpo: timed out)`,
      ]);
      expect(providerStatus(input({ latest: { ...failed, error: undefined } })).actions).toEqual(['pull 5 failed: never reached (no document came)']);
    });

    it('a partial pull names each failed document and why, and its carried documents are stale', () => {
      const partial = pull(6, '2026-11-20T06:00:00Z', {
        outcome: 'partial',
        documents: [
          document('public', 'fetched'),
          document('vdr', 'failed', {
            status: 500,
            error: `${BASE}/fedramp/vdr: HTTP 500`,
            stored: { sha256: SHA('d'), bytes: 2, url: `${BASE}/fedramp/vdr`, fetchedAt: '2026-11-01T00:00:00Z', delivery: { nosniff: true } },
          }),
          document('avi', 'failed', { error: `${BASE}/fedramp/avi: HTTP 502` }),
          document('scn', 'denied', {
            status: 403,
            error: 'denied',
            stored: { sha256: SHA('e'), bytes: 2, url: `${BASE}/fedramp/scn`, fetchedAt: '2026-11-01T00:00:00Z', delivery: { nosniff: true } },
          }),
        ],
      });
      const row = providerStatus(input({ latest: partial, lastReached: partial }));
      expect(row.actions).toEqual([`pull 6 partial: 2 documents failed (vdr: ${BASE}/fedramp/vdr: HTTP 500; avi: ${BASE}/fedramp/avi: HTTP 502)`]);
      const one = { ...partial, documents: [document('public', 'fetched'), document('ocr', 'failed')] };
      expect(providerStatus(input({ latest: one, lastReached: one })).actions).toEqual(['pull 6 partial: 1 document failed (ocr: failed)']);
      // Only a failure leaves a document stale: a denied one is as the trust center serves it.
      expect(row.documents).toEqual({ invalid: [], stale: ['vdr'] });
    });
  });

  it('action findings become actions (rule: message); notices stay findings only; invalid documents listed', () => {
    const findings: AgencyFinding[] = [
      { level: 'action', rule: 'CDS-CSO-FID', code: 'fedramp-id-mismatch', document: 'sdr', message: 'the FedRAMP ID is "FR9"' },
      { level: 'notice', rule: 'FRC-CSO-JSN', code: 'schema-older-generation', document: 'cpo', message: 'valid under 2026-09-17' },
    ];
    const latest = pull(3, '2026-11-20T06:00:00Z', {
      findings,
      schemas: [
        { document: 'cpo', sha256: SHA('b'), generation: '2026-09-17', current: false, problems: ['advisors: must be array'] },
        { document: 'vdr', sha256: SHA('d'), current: false, problems: ['$: bad'] },
        { document: 'ocr', sha256: SHA('c'), generation: '2026-10-08', current: true, problems: [] },
      ],
    });
    const row = providerStatus(input({ latest, lastReached: latest }));
    expect(row.actions).toEqual(['CDS-CSO-FID: the FedRAMP ID is "FR9"']);
    expect(row.findings).toEqual(findings);
    expect(row.documents).toEqual({ invalid: ['vdr'], stale: [] });
  });

  it('the published package as the newest pull checked it; none when the pull records none', () => {
    const published = { url: `${BASE}/package`, verified: false, files: 3, error: 'sar.json: changed' };
    expect(providerStatus(input({ latest: pull(3, '2026-11-20T06:00:00Z', { package: published }) })).package).toEqual(published);
    expect(providerStatus(input({ latest: ok }))).not.toHaveProperty('package');
  });

  it('OCRs not reviewed: each one an action, oldest first; the last OCR and whether it is reviewed', () => {
    const row = providerStatus(
      input({
        latest: ok,
        documents: { ocr: { reportPeriod: { from: '2026-10-01', to: '2026-12-31' } } },
        ocrPeriods: ['2026-06-30', '2026-09-30', '2026-12-31'],
        reviews: [review('2026-09-30')],
      }),
    );
    expect(row.unreviewedOcrs).toEqual(['2026-06-30', '2026-12-31']);
    expect(row.lastOcr).toEqual({ periodEnd: '2026-12-31', reviewed: false });
    expect(row.actions).toEqual([
      'CCM-AGM-ROR: the OCR for the period ending 2026-06-30 is not reviewed yet (svc agency review acme --ocr 2026-06-30)',
      'CCM-AGM-ROR: the OCR for the period ending 2026-12-31 is not reviewed yet (svc agency review acme --ocr 2026-12-31)',
    ]);
  });

  describe('vulnerabilities, recomputed from the VDR for the class', () => {
    const vdr = {
      vulnerabilities: [
        // N4, internet-reachable and likely exploitable, evaluated on 2026-09-21: long past Class B's timeframe.
        rated('VG-a', '09-21', 4, true, true),
        rated('VG-b', '09-22', 4, true, true),
        // N3, evaluated on 2026-11-19: within its timeframe.
        rated('VG-c', '11-19', 3, false, true),
        // N2 remediated, and a false positive: not open.
        rated('VG-d', '06-01', 2, false, false, { finalDisposition: 'Remediated' }),
        rated('VG-e', '06-01', 2, false, false, { finalDisposition: 'False Positive' }),
        // Not evaluated yet: open, unrated.
        vulnerability('VG-f', '11-19', {}),
      ],
    };
    const avi = {
      acceptedVulnerabilities: [
        { vulnerabilityDetail: rated('VG-g', '05-30', 2, false, false), acceptanceRationale: 'a compensating control' },
        { vulnerabilityDetail: rated('VG-h', '05-30', 1, false, false), acceptanceRationale: 'a compensating control' },
      ],
    };

    it('open and overdue by N-rating (the highest first), accepted apart, and the overdue ones an action', () => {
      const row = providerStatus(input({ latest: ok, documents: { vdr, avi } }));
      expect(row.vulnerabilities).toEqual({ open: { unrated: 1, N4: 2, N3: 1 }, overdue: { N4: 2 }, accepted: 2 });
      expect(row.actions).toEqual(['VER-AGM-RVR: 2 N4 vulnerabilities overdue, recomputed from the VDR']);
    });

    it('one overdue: "vulnerability"; overdue in two ratings: each counted', () => {
      const one = providerStatus(input({ latest: ok, documents: { vdr: { vulnerabilities: [vdr.vulnerabilities[0]] } } }));
      expect(one.actions).toEqual(['VER-AGM-RVR: 1 N4 vulnerability overdue, recomputed from the VDR']);
      const two = providerStatus(
        input({ latest: ok, documents: { vdr: { vulnerabilities: [vdr.vulnerabilities[0], rated('VG-i', '06-01', 2, true, true)] } } }),
      );
      expect(two.vulnerabilities).toEqual({ open: { N4: 1, N2: 1 }, overdue: { N4: 1, N2: 1 }, accepted: 0 });
      expect(two.actions).toEqual(['VER-AGM-RVR: 1 N4, 1 N2 vulnerabilities overdue, recomputed from the VDR']);
    });

    it("the provider's own overdueStatus is not taken: a vulnerability it calls overdue within its timeframe is not", () => {
      const row = providerStatus(
        input({
          latest: ok,
          documents: { vdr: { vulnerabilities: [rated('VG-c', '11-19', 3, false, true, { overdueStatus: { isOverdue: true, explanation: 'x' } })] } },
        }),
      );
      expect(row.vulnerabilities).toEqual({ open: { N3: 1 }, overdue: {}, accepted: 0 });
      expect(row.actions).toEqual([]);
    });

    it('without a class nothing is judged, and without a VDR there is no count', () => {
      const unclassed = providerStatus(input({ provider: { ...ACME, class: undefined }, latest: ok, documents: { vdr, avi } }));
      expect(unclassed).not.toHaveProperty('vulnerabilities');
      expect(unclassed.actions).toEqual([]);
      expect(providerStatus(input({ latest: ok, documents: { avi } }))).not.toHaveProperty('vulnerabilities');
    });
  });

  describe('incidents affecting the agency', () => {
    const report = (id: string, extra: Record<string, unknown>) => ({ providerTrackingId: id, reportType: 'Initial', incidentDescription: 'x', ...extra });
    const incidents = [
      report('INC-1', { affectedAgencies: ['Dept of Examples'], potentialImpact: { currentRating: 3 } }),
      report('INC-2', { affectedAgencies: ['Dept of Elsewhere'], potentialImpact: { currentRating: 4 } }),
      // The rating in words, as FedRAMP's older incident schema writes it.
      report('INC-3', { affectedAgencies: [], potentialImpact: 'Potential Agency Impact N-rating (PAIN): N2. Limited.' }),
      report('INC-4', { affectedAgencies: ['Dept of Examples'] }),
      report('INC-4', { reportType: 'Final', affectedAgencies: ['Dept of Examples'] }),
      report('INC-5', { reportType: 'Ongoing', affectedAgencies: ['Dept of Examples'], resolvedAt: '2026-11-19T00:00:00Z' }),
      report('INC-6', { reportType: 'Initial', affectedAgencies: ['Dept of Examples'] }),
      report('INC-6', { reportType: 'Ongoing', affectedAgencies: ['Dept of Examples'], potentialImpact: { currentRating: '5' } }),
      { reportType: 'Initial' },
      'not a report',
    ];

    // IEC-CSO-OIR for Class B: the next report one business day after svc first pulled it (a Friday: the Monday).
    it("open ones (newest report per id, not final, not resolved) listed for the agency or for all, never another agency's only", () => {
      const row = providerStatus(input({ agencyName: 'Dept of Examples', latest: ok, documents: { incidents }, incidentsFetchedAt: '2026-11-20T06:00:00Z' }));
      expect(row.incidents).toEqual([
        { id: 'INC-1', reportType: 'Initial', rating: 3, nextReportDue: '2026-11-23T06:00:00Z' },
        { id: 'INC-3', reportType: 'Initial', rating: 2, nextReportDue: '2026-11-23T06:00:00Z' },
        { id: 'INC-6', reportType: 'Ongoing', rating: 5, nextReportDue: '2026-11-23T06:00:00Z' },
      ]);
      expect(row.actions).toEqual([
        'incident INC-1 open (Initial report, N3); next report due 2026-11-23T06:00:00Z',
        'incident INC-3 open (Initial report, N2); next report due 2026-11-23T06:00:00Z',
        'incident INC-6 open (Ongoing report, N5); next report due 2026-11-23T06:00:00Z',
      ]);
    });

    it('without the agency name configured, every open incident the trust center serves counts', () => {
      const row = providerStatus(input({ latest: ok, documents: { incidents } }));
      expect(row.incidents.map((i) => i.id)).toEqual(['INC-1', 'INC-2', 'INC-3', 'INC-6']);
    });

    it('no due time without a rating, without the class or without when it was fetched', () => {
      const unrated = [report('INC-7', {})];
      expect(providerStatus(input({ latest: ok, documents: { incidents: unrated }, incidentsFetchedAt: '2026-11-20T06:00:00Z' })).actions).toEqual([
        'incident INC-7 open (Initial report)',
      ]);
      const rated3 = [report('INC-1', { potentialImpact: { currentRating: 3 } })];
      expect(providerStatus(input({ latest: ok, documents: { incidents: rated3 } })).incidents).toEqual([{ id: 'INC-1', reportType: 'Initial', rating: 3 }]);
      const unclassed = providerStatus(
        input({ provider: { ...ACME, class: undefined }, latest: ok, documents: { incidents: rated3 }, incidentsFetchedAt: '2026-11-20T06:00:00Z' }),
      );
      expect(unclassed.incidents).toEqual([{ id: 'INC-1', reportType: 'Initial', rating: 3 }]);
    });
  });

  it('KSI changes against the baseline: changed, new and gone; none without a baseline', () => {
    const sdr = {
      keySecurityIndicators: [
        { ksiId: 'KSI-IAM-MFA', ksiImplementationStatus: 'Implemented' },
        { ksiId: 'KSI-CNA-RNT', ksiImplementationStatus: 'Not Implemented' },
        { ksiId: 'KSI-SVC-ASM', ksiImplementationStatus: 'Implemented' },
        { ksiId: 'KSI-MLA-LET' },
      ],
    };
    const baseline = new Map<string, string | undefined>([
      ['KSI-IAM-MFA', 'Partially Implemented'],
      ['KSI-SVC-ASM', 'Implemented'],
      ['KSI-MLA-LET', 'Implemented'],
      ['KSI-GONE', 'Implemented'],
    ]);
    expect(providerStatus(input({ latest: ok, documents: { sdr }, ksiBaseline: baseline })).ksiChanges).toEqual([
      { id: 'KSI-IAM-MFA', from: 'Partially Implemented', to: 'Implemented' },
      { id: 'KSI-CNA-RNT', to: 'Not Implemented' },
      { id: 'KSI-MLA-LET', from: 'Implemented' },
    ]);
    expect(providerStatus(input({ latest: ok, documents: { sdr } })).ksiChanges).toEqual([]);
  });
});

describe('classOf: the class svc judges by', () => {
  const unclassed: AgencyProvider = { name: 'acme', url: BASE, auth: { kind: 'none' } };
  it.each<[string, AgencyProvider, unknown, ReturnType<typeof classOf>]>([
    ["the configuration's, before the trust center's", ACME, { trustCenter: { certificationClass: 'C' } }, { class: 'B', classSource: 'configuration' }],
    ["the trust center's own statement", unclassed, { trustCenter: { certificationClass: 'C' } }, { class: 'C', classSource: 'trust center' }],
    ['none: a statement not of CR26', unclassed, { trustCenter: { certificationClass: 'c' } }, {}],
    ['none: no statement', unclassed, { serviceIdentification: {} }, {}],
    ['none: no public information', unclassed, undefined, {}],
  ])('%s', (_what, provider, pub, expected) => expect(classOf(provider, pub)).toEqual(expected));
});

describe('ksiStatuses and ocrPeriodEnd', () => {
  it('the KSI statuses by id, an empty status as none, items without an id skipped', () => {
    expect([
      ...ksiStatuses({
        keySecurityIndicators: [
          { ksiId: 'KSI-A', ksiImplementationStatus: 'Implemented' },
          { ksiId: 'KSI-B', ksiImplementationStatus: '' },
          { ksiImplementationStatus: 'x' },
          'KSI-C',
        ],
      }),
    ]).toEqual([
      ['KSI-A', 'Implemented'],
      ['KSI-B', undefined],
    ]);
    expect(ksiStatuses(undefined).size).toBe(0);
    expect(ksiStatuses({ keySecurityIndicators: {} }).size).toBe(0);
  });

  it.each([
    [{ reportPeriod: { from: '2026-07-01', to: '2026-09-30' } }, '2026-09-30'],
    [{ reportPeriod: { to: '' } }, undefined],
    [{ reportPeriod: '2026-09-30' }, undefined],
    [undefined, undefined],
  ])('%j → %s', (ocr, end) => expect(ocrPeriodEnd(ocr)).toBe(end));
});

describe('eventFacts: what the events compare', () => {
  it('the open incidents affecting the agency, the recomputed overdue vulnerabilities with their rating, the OCR period', () => {
    const facts = eventFacts({
      provider: ACME,
      agencyName: 'Dept of Examples',
      documents: {
        vdr: { vulnerabilities: [rated('VG-a', '09-21', 4, true, true), rated('VG-c', '11-19', 3, false, true), vulnerability('VG-f', '11-19', {})] },
        incidents: [
          { providerTrackingId: 'INC-1', reportType: 'Initial', affectedAgencies: ['Dept of Examples'], potentialImpact: { currentRating: 3 } },
          { providerTrackingId: 'INC-2', reportType: 'Initial', affectedAgencies: ['Dept of Elsewhere'] },
        ],
        ocr: { reportPeriod: { to: '2026-09-30' } },
      },
      incidentsFetchedAt: '2026-11-20T06:00:00Z',
      rules,
      now: NOW,
    });
    expect(facts).toEqual({
      incidents: [{ id: 'INC-1', reportType: 'Initial', rating: 3, nextReportDue: '2026-11-23T06:00:00Z' }],
      overdue: [{ id: 'VG-a', rating: 4 }],
      ocrPeriod: '2026-09-30',
    });
  });

  it('an unknown class judges no vulnerability', () => {
    const facts = eventFacts({
      provider: { ...ACME, class: undefined },
      documents: { vdr: { vulnerabilities: [rated('VG-a', '09-21', 4, true, true)] } },
      rules,
      now: NOW,
    });
    expect(facts).toEqual({ incidents: [], overdue: [] });
  });
});
