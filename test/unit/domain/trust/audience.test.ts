import { audienceKey, incidentAgencies, ocrForAudience, seesIncident, WITHHELD_INCIDENT, withheldIncident } from '../../../../src/domain/trust/audience';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import type { OcrDocument } from '../../../../src/domain/fedramp/ocr-document';
import { asciiLower, principalNameProblem } from '../../../../src/domain/trust/principal-name';
import fc from 'fast-check';

const OCR: OcrDocument = {
  certificationPackageOverviewUri: 'https://trust.example.com/fedramp/cpo.json',
  reportPeriod: { from: '2026-09-01', to: '2026-11-30' },
  certificationDataChanges: [],
  plannedCertificationDataChanges: { planningHorizonThrough: '2027-02-28', changes: [] },
  acceptedVulnerabilities: 'No accepted vulnerabilities.',
  transformativeChanges: [],
  updatedRecommendations: [],
  activeAgencies: ['A', 'B'],
  reportableIncidents: {
    incidents: [
      { summary: 'INC-1: exports of A exposed', occurredAt: '2026-11-10T10:00:00Z', incidentLessonsLearned: ['rotate keys'] },
      { summary: 'INC-2: outage at B', occurredAt: '2026-11-11T10:00:00Z', resolvedAt: '2026-11-12T10:00:00Z', incidentLessonsLearned: [] },
      { summary: 'INC-3: shared', occurredAt: '2026-11-12T10:00:00Z', incidentLessonsLearned: ['x'] },
      { summary: "not svc's: no tracking id", occurredAt: '2026-11-13T10:00:00Z', incidentLessonsLearned: [] },
    ],
  },
};
const REPORTS = [
  { tracking_id: 'INC-1', affected_agencies: ['A'] },
  { tracking_id: 'INC-2', affected_agencies: ['B'] },
  { tracking_id: 'INC-3', affected_agencies: ['A'] },
  { tracking_id: 'INC-3', affected_agencies: ['B'] },
];

describe('audiences of the trust center (incidents and the OCR)', () => {
  const agencies = incidentAgencies(REPORTS);
  const summaries = (audience: Parameters<typeof ocrForAudience>[2]) =>
    (ocrForAudience(OCR, agencies, audience).reportableIncidents as typeof OCR.reportableIncidents).incidents.map((i) => i.summary);

  it('joins every report of an incident: an ongoing report that adds an agency makes it affected', () => {
    expect(Object.fromEntries(agencies)).toEqual({ 'INC-1': ['A'], 'INC-2': ['B'], 'INC-3': ['A', 'B'] });
  });

  it('an auditor reads the OCR exactly as recorded', () => {
    expect(ocrForAudience(OCR, agencies, { all: true })).toBe(OCR);
  });

  it('an agency reads the incidents that list it; every other entry keeps its place as the withheld sentence, so the list never attests that none occurred', () => {
    expect(summaries({ agency: 'A' })).toEqual(['INC-1: exports of A exposed', WITHHELD_INCIDENT, 'INC-3: shared', WITHHELD_INCIDENT]);
    expect(summaries({ agency: 'B' })).toEqual([WITHHELD_INCIDENT, 'INC-2: outage at B', 'INC-3: shared', WITHHELD_INCIDENT]);
    expect(summaries({})).toEqual([WITHHELD_INCIDENT, WITHHELD_INCIDENT, WITHHELD_INCIDENT, WITHHELD_INCIDENT]);
    const withheld = (ocrForAudience(OCR, agencies, { agency: 'B' }).reportableIncidents as typeof OCR.reportableIncidents).incidents[0];
    expect(withheld).toEqual({ summary: WITHHELD_INCIDENT });
  });

  it('a tracking id that only starts another one does not match it ("INC-1" is not "INC-10")', () => {
    const ocr: OcrDocument = {
      ...OCR,
      reportableIncidents: { incidents: [{ summary: 'INC-10: other', occurredAt: '2026-11-10T10:00:00Z', incidentLessonsLearned: [] }] },
    };
    expect(
      (
        ocrForAudience(ocr, incidentAgencies([{ tracking_id: 'INC-1', affected_agencies: ['A'] }]), { agency: 'A' }).reportableIncidents as {
          incidents: unknown[];
        }
      ).incidents,
    ).toEqual([{ summary: WITHHELD_INCIDENT }]);
  });

  it('keys audiences apart, and an agency named "all" or "none" apart from those', () => {
    expect([audienceKey({ all: true }), audienceKey({}), audienceKey(undefined), audienceKey({ agency: 'all' }), audienceKey({ agency: 'none' })]).toEqual([
      'all',
      'none',
      'none',
      'agency:"all"',
      'agency:"none"',
    ]);
    expect(seesIncident({ agency: 'A' }, ['B'])).toBe(false);
  });
});

describe('principal names (one rule for every method)', () => {
  it.each([
    ['alice@SVC.TEST', undefined],
    ['CONTOSO\\josé', undefined],
    ['a'.repeat(256), undefined],
    ['a'.repeat(257), 'it is 257 characters long, more than 256'],
    ['', 'it is empty'],
    ['alice\u2028@SVC.TEST', 'it holds U+2028, a control, format or line-separator character'],
    ['alice\u0085', 'it holds U+0085, a control, format or line-separator character'],
    ['al\u200dice', 'it holds U+200D, a control, format or line-separator character'],
    ['\ud800alice', 'it holds U+D800, a control, format or line-separator character'],
    [' alice', 'it begins or ends with white space'],
    ['jose\u0301', 'it is not in Unicode normalization form C (NFC)'],
    ['fran\u212Ak', 'it is not in Unicode normalization form C (NFC)'],
  ])('%j: %s', (name, problem) => {
    expect(principalNameProblem(name)).toBe(problem);
  });

  it('whatever it accepts is NFC, at most 256 code points, and holds no Cc, Cf, Zl, Zp or Cs character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (name) => {
        if (principalNameProblem(name) !== undefined) return;
        expect(name.normalize('NFC')).toBe(name);
        expect([...name].length).toBeLessThanOrEqual(256);
        expect(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(name)).toBe(false);
      }),
    );
  });

  it('folds A-Z alone: KELVIN SIGN, LONG S and DOTTED I stay what they are', () => {
    expect(asciiLower('ALICE@SVC.TEST')).toBe('alice@svc.test');
    expect(asciiLower('\u212A\u017F\u0130')).toBe('\u212A\u017F\u0130');
  });
});

describe('withheldIncident', () => {
  const agencies = incidentAgencies(REPORTS);
  it('cites CCM-OCR-AVL only where the rules release in use holds it (issue 34)', () => {
    const rules = builtInRules();
    expect(withheldIncident(rules)).toBe(WITHHELD_INCIDENT);
    const lacking = withheldIncident({ rules: rules.rules.filter((r) => r.id !== 'CCM-OCR-AVL') });
    expect(lacking).toBe(
      'A FedRAMP Reportable Incident that did not affect your agency occurred in this period. Its summary, times and lessons learned are withheld here; they go to the agencies it affected, to FedRAMP and to the assessor.',
    );
    const withheld = (ocrForAudience(OCR, agencies, {}, lacking).reportableIncidents as typeof OCR.reportableIncidents).incidents.map((i) => i.summary);
    expect(withheld).toEqual([lacking, lacking, lacking, lacking]);
  });
});
