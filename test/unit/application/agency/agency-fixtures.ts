import type { AgencyFinding, AgencyPull, PulledDocumentName } from '../../../../src/domain/agency/pulled-documents';
import { AGENCY_TEST_BASE, recordPull as recordAgencyPull } from '../../../support/agency-pulls';
import type { AgencyProvider } from '../../../../src/domain/agency/providers';
import { POAM_WORKBOOK } from '../../../../src/ports/poam-workbook';
import { ExceljsPoamWorkbook } from '../../../../src/infrastructure/renderers/xlsx/exceljs-poam-workbook';
import type { InMemoryAgencyStore } from '../../../fakes/in-memory-agency-store';
import { unitContainer, type UnitDoubles } from '../../../support/unit-container';

export const BASE = AGENCY_TEST_BASE;

/** Records a pull of `provider` that fetched `documents` (as JSON bytes), finishing at `finished`. */
export function recordPull(
  store: InMemoryAgencyStore,
  provider: string,
  finished: string,
  documents: Partial<Record<PulledDocumentName, unknown>>,
  findings: AgencyFinding[] = [],
): Promise<AgencyPull> {
  return recordAgencyPull(store, provider, finished, documents, { findings, base: BASE });
}

/** The unit container (its agency store and configuration over `providers`) with the real POA&M workbook bound. */
export function agencyContainer(
  providers: AgencyProvider[] = [ACME],
  options: { now?: string; agency?: string } = {},
): UnitDoubles & { agency: InMemoryAgencyStore } {
  const doubles = unitContainer({
    ...(options.now === undefined ? {} : { now: options.now }),
    agency: { providers, ...(options.agency === undefined ? {} : { name: options.agency }) },
  });
  doubles.container.register(POAM_WORKBOOK, { useValue: new ExceljsPoamWorkbook() });
  return { ...doubles, agency: doubles.agencyStore };
}

export const ACME: AgencyProvider = { name: 'acme', url: BASE, fedrampId: 'FR2611250001', class: 'B', auth: { kind: 'none' } };

const detail = (id: string, extra: Record<string, unknown>) => ({
  providerTrackingId: id,
  detection: { detectedAt: '2026-09-20T00:00:00Z', detectionSource: 'scanner' },
  vulnerabilityDescription: `Weakness ${id}`,
  overdueStatus: { isOverdue: false },
  ...extra,
});

export const VG_A = detail('VG-000000000000000a', {
  evaluationCompletedAt: '2026-09-21T00:00:00Z',
  isInternetReachable: true,
  isLikelyExploitable: true,
  currentRating: 4,
});
export const VG_B = detail('VG-000000000000000b', {
  detection: { detectedAt: '2026-09-28T00:00:00Z', detectionSource: 'scanner' },
  evaluationCompletedAt: '2026-09-29T00:00:00Z',
  isInternetReachable: false,
  isLikelyExploitable: true,
  currentRating: 3,
});
export const VG_C = detail('VG-000000000000000c', {
  evaluationCompletedAt: '2026-09-26T00:00:00Z',
  isInternetReachable: false,
  isLikelyExploitable: false,
  currentRating: 2,
});
export const HOSTILE = '=HYPERLINK("http://evil.example")|<b>x</b>\n# not a heading';
export const VG_D = detail('VG-000000000000000d', {
  detection: { detectedAt: '2027-01-02T00:00:00Z', detectionSource: 'scanner' },
  vulnerabilityDescription: HOSTILE,
});
export const VG_E = detail('VG-000000000000000e', {
  detection: { detectedAt: '2026-05-30T00:00:00Z', detectionSource: 'scanner' },
  evaluationCompletedAt: '2026-06-01T00:00:00Z',
  isInternetReachable: false,
  isLikelyExploitable: false,
  currentRating: 2,
});

const cpo = (next: string) => ({
  serviceIdentification: { fedRampPackageId: 'FR2611250001', serviceName: 'Acme Cloud' },
  serviceProperties: { nextOngoingCertificationReportDate: next },
  certificationPackageOverviewUri: `${BASE}/fedramp/cpo`,
});

/** Two quarters of acme: pull 1 at the end of Q3 2026, pull 2 in January 2027 (see each document). */
export const PULL_1 = {
  cpo: cpo('2026-12-31'),
  sdr: {
    fedRampRequirements: [{ frrID: 'VDR-TFR-PVR', frrImplementationStatus: 'Implemented', frrImplementation: [] }],
    keySecurityIndicators: [{ ksiId: 'KSI-IAM-MFA', ksiImplementationStatus: 'Partially Implemented' }],
  },
  ocr: { reportPeriod: { from: '2026-07-01', to: '2026-09-30' } },
  vdr: { reportPeriod: { from: '2026-09-01T00:00:00Z', to: '2026-09-30T23:59:59Z' }, vulnerabilities: [VG_A, VG_B, VG_C] },
  avi: { acceptedVulnerabilities: [] },
  scn: [],
  incidents: [{ providerTrackingId: 'INC-1', reportType: 'Initial', incidentDescription: 'Phishing of an operator', affectedAgencies: ['Dept of Examples'] }],
};

export const PULL_2 = {
  cpo: cpo('2027-03-31'),
  sdr: {
    fedRampRequirements: [{ frrID: 'VDR-TFR-PVR', frrImplementationStatus: 'Implemented', frrImplementation: [] }],
    keySecurityIndicators: [
      { ksiId: 'KSI-IAM-MFA', ksiImplementationStatus: 'Implemented' },
      { ksiId: 'KSI-CNA-RNT', ksiImplementationStatus: 'Not Implemented' },
    ],
  },
  ocr: { reportPeriod: { from: '2026-10-01', to: '2026-12-31' } },
  vdr: {
    reportPeriod: { from: '2026-12-01T00:00:00Z', to: '2026-12-31T23:59:59Z' },
    vulnerabilities: [VG_A, VG_B, { ...VG_C, finalDisposition: 'Remediated' }, VG_D],
  },
  avi: { acceptedVulnerabilities: [{ vulnerabilityDetail: VG_E, acceptanceRationale: 'A compensating control | WAF rule 7' }] },
  scn: [{ changeType: 'Transformative', changeDescription: 'Move to *Kubernetes*', planAndTimeline: { summary: 'Plan', plannedCompletion: '2027-02-01' } }],
  incidents: [
    PULL_1.incidents[0],
    {
      providerTrackingId: 'INC-1',
      reportType: 'Final',
      incidentDescription: 'Phishing of an operator',
      affectedAgencies: ['Dept of Examples'],
      resolvedAt: '2026-12-20T00:00:00Z',
    },
  ],
};

export const OCR_LATE: AgencyFinding = {
  level: 'action',
  rule: 'CCM-OCR-NRD',
  code: 'ocr-late',
  document: 'ocr',
  at: 'reportPeriod.to',
  message: 'the OCR for the period ending 2026-12-31 was due <by> 2027-01-15 and has not been published',
};
export const NOTICE_ONLY: AgencyFinding = {
  level: 'notice',
  rule: 'svc:schema',
  code: 'older-generation',
  document: 'sdr',
  message: 'valid under an older generation only',
};

/** acme pulled twice: PULL_1 on 2026-10-01, PULL_2 (with OCR_LATE and NOTICE_ONLY) on 2027-01-20. */
export async function twoPulls(agency: InMemoryAgencyStore): Promise<void> {
  await recordPull(agency, 'acme', '2026-10-01T00:00:00Z', PULL_1);
  await recordPull(agency, 'acme', '2027-01-20T00:00:00Z', PULL_2, [OCR_LATE, NOTICE_ONLY]);
}
