import { acceptedText, buildOcr, incidentSummaries, nextReportDate, ocrPeriodEnding, type OcrInput } from '../../../../src/domain/fedramp/ocr';
import type { IncidentRecord, ScnRecord } from '../../../../src/domain/fedramp/ongoing-records';
import { fedrampSchemaErrors } from '../../../support/fedramp-schemas';

const scn = (over: Partial<ScnRecord>): ScnRecord => ({
  type: 'transformative',
  summary: 'Move to a new region',
  notices: [],
  ksis: [],
  controls: [],
  document: {
    certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
    changeType: over.type === 'adaptive' ? 'Adaptive' : 'Transformative',
    changeDescription: over.summary ?? 'Move to a new region',
    planAndTimeline: { summary: 'Start and completion not yet dated.' },
  },
  ...over,
});
const incident = (over: Partial<IncidentRecord>): IncidentRecord => ({
  report_type: 'initial',
  tracking_id: 'INC-1',
  summary: 'CVE-2026-1000 exploitable on api.example.com',
  occurred_at: '2026-10-05T10:00:00Z',
  due_at: '2026-10-05T16:00:00Z',
  affected_agencies: [],
  lessons_learned: [],
  document: {
    certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
    reportType: 'Initial',
    providerTrackingId: over.tracking_id ?? 'INC-1',
    incidentDescription: over.summary ?? 'CVE-2026-1000 exploitable on api.example.com',
    potentialImpact: { historicalRating: [4], currentRating: 4 },
  },
  ...over,
});
const input = (over: Partial<OcrInput> = {}): OcrInput => ({
  packageUri: 'https://trust.example.com/fedramp/cpo.json',
  period: { from: '2026-09-01', to: '2026-11-30' },
  daily: new Map(),
  agencies: ['Department of Examples'],
  scns: [],
  incidents: [],
  plannedChanges: [],
  recommendations: [],
  ...over,
});

describe('buildOcr', () => {
  it("is valid against FedRAMP's schema, empty as full, and always attests the incidents", () => {
    expect(fedrampSchemaErrors('ocr', buildOcr(input()))).toEqual([]);
    expect(buildOcr(input()).reportableIncidents).toEqual({ incidents: [] });
    const full = buildOcr(
      input({
        scns: [scn({ start: '2026-10-01', finish: '2026-10-20' })],
        incidents: [incident({})],
        accepted: { count: 2, byN: { 4: 1, 2: 1 }, aviUri: 'https://trust.example.com/fedramp/avi.json' },
      }),
    );
    expect(fedrampSchemaErrors('ocr', full)).toEqual([]);
  });

  it('sorts the SCNs: transformative work in the period, planned changes by the horizon, adaptive changes finished in it', () => {
    const ocr = buildOcr(
      input({
        scns: [
          scn({ summary: 'Region move', start: '2026-10-01', finish: '2026-10-20', verified: '2026-10-27' }),
          scn({ summary: 'New database engine', start: '2027-01-10' }),
          scn({ summary: 'Too far ahead', start: '2027-06-01' }),
          scn({ type: 'adaptive', summary: 'Patch the load balancers', finish: '2026-11-03' }),
          scn({ type: 'adaptive', summary: 'Rotate the HSM', finish: '2027-02-01' }),
        ],
        plannedChanges: ['From the profile'],
      }),
    );
    expect(ocr.transformativeChanges).toEqual(['Region move (start 2026-10-01, finish 2026-10-20, verified 2026-10-27)']);
    expect(ocr.plannedCertificationDataChanges).toEqual({
      planningHorizonThrough: '2027-02-28',
      changes: ['Transformative change starting 2027-01-10: New database engine', 'Adaptive change finishing 2027-02-01: Rotate the HSM', 'From the profile'],
    });
    expect(ocr.certificationDataChanges).toEqual(['Adaptive change finished 2026-11-03: Patch the load balancers']);
  });

  it('lists each incident of the period once: its first time, the latest summary, the resolution and every lesson', () => {
    const reports = [
      incident({}),
      incident({ report_type: 'ongoing', summary: 'Exploit attempts blocked by the WAF', lessons_learned: ['Add a WAF rule before the patch'] }),
      incident({
        report_type: 'final',
        summary: 'Patched',
        resolved_at: '2026-10-09T12:00:00Z',
        lessons_learned: ['Add a WAF rule before the patch', 'Scan the edge daily'],
      }),
      incident({ tracking_id: 'INC-OLD', occurred_at: '2026-06-01T00:00:00Z' }),
      incident({ tracking_id: 'INC-OLD', report_type: 'final', resolved_at: '2026-06-02T00:00:00Z' }),
      incident({ tracking_id: 'INC-OPEN', occurred_at: '2026-08-20T00:00:00Z' }),
    ];
    expect(incidentSummaries(reports, '2026-09-01', '2026-11-30')).toEqual([
      { summary: 'INC-OPEN: CVE-2026-1000 exploitable on api.example.com', occurredAt: '2026-08-20T00:00:00Z', incidentLessonsLearned: [] },
      {
        summary: 'INC-1: Patched',
        occurredAt: '2026-10-05T10:00:00Z',
        resolvedAt: '2026-10-09T12:00:00Z',
        incidentLessonsLearned: ['Add a WAF rule before the patch', 'Scan the edge daily'],
      },
    ]);
  });

  it('summarizes the accepted vulnerabilities with their N-ratings and the AVI', () => {
    expect(acceptedText({ count: 3, byN: { 2: 1, 4: 2 }, aviUri: 'https://t.example/avi.json', aviRule: 'VER-RPT-AVI' })).toBe(
      '3 accepted vulnerabilities (N4: 2, N2: 1); full records in the Accepted Vulnerability Info (VER-RPT-AVI) at https://t.example/avi.json.',
    );
    expect(acceptedText({ count: 0, byN: {}, aviUri: 'https://t.example/avi.json', aviRule: 'VER-RPT-AVI' })).toBe(
      'No accepted vulnerabilities; the Accepted Vulnerability Info (VER-RPT-AVI) is at https://t.example/avi.json.',
    );
    // A release without VER-RPT-AVI: the text cites no rule (issue 34).
    expect(acceptedText({ count: 0, byN: {}, aviUri: 'https://t.example/avi.json' })).toBe(
      'No accepted vulnerabilities; the Accepted Vulnerability Info is at https://t.example/avi.json.',
    );
  });

  it('counts periods in calendar months: 3 months ending a day, and the next report 3 months after it (CCM-OCR-NRD)', () => {
    expect(ocrPeriodEnding('2026-11-30')).toEqual({ from: '2026-08-31', to: '2026-11-30' });
    expect(nextReportDate('2026-11-30')).toBe('2027-02-28');
    expect(nextReportDate('2027-02-28')).toBe('2027-05-28');
  });
});
