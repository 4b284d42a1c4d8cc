import { classAMonths, sortFindings, verifyDocuments, type VerificationInput } from '../../../../src/domain/agency/verification';
import type { Delivery, PulledDocumentName } from '../../../../src/domain/agency/pulled-documents';
import { builtInRules } from '../../../fakes/fixed-rules-source';

const rules = builtInRules();
const ID = 'FR2611250001';
const JSON_DELIVERY: Delivery = { contentType: 'application/json; charset=utf-8', nosniff: true };

/** A provider's pull with nothing wrong, as of 2027-01-15, Class B. */
function clean(): VerificationInput {
  const serviceIdentification = { fedRampPackageId: ID, providerName: 'Acme', serviceName: 'Acme Cases', certificationType: '20x' };
  const documents: Partial<Record<PulledDocumentName, unknown>> = {
    public: { serviceIdentification, serviceProperties: { nextOngoingCertificationReportDate: '2027-03-31' } },
    cpo: {
      serviceIdentification,
      serviceProperties: { serviceType: ['SaaS'], nextOngoingCertificationReportDate: '2027-03-31' },
      certifiedServices: [
        { serviceName: 'Cases', serviceDescription: 'Cases.', dateAvailable: '2026-06-01' },
        { serviceName: 'Exports', serviceDescription: 'Exports.', dateAvailable: '2026-09-01' },
      ],
    },
    ocr: { certificationPackageOverviewUri: 'https://trust.acme.example/fedramp/cpo', reportPeriod: { from: '2026-10-01', to: '2026-12-31' } },
    snapshots: {
      snapshots: [
        { snapshot: '2026-09-30', period: { from: '2026-07-01', to: '2026-09-30' } },
        { snapshot: '2026-12-31', period: { from: '2026-10-01', to: '2026-12-31' } },
      ],
    },
    metrics: { fedRampPackageId: ID, ksiMetrics: {} },
    vdr: {
      certificationPackageOverviewUri: 'https://trust.acme.example/fedramp/cpo',
      reportPeriod: { from: '2026-12-15T00:00:00Z', to: '2027-01-14T00:00:00Z' },
      vulnerabilities: [
        {
          providerTrackingId: 'V-1',
          detection: { detectedAt: '2027-01-02T00:00:00Z', detectionSource: 'Nessus' },
          vulnerabilityDescription: 'one',
          evaluationCompletedAt: '2027-01-03T00:00:00Z',
          isInternetReachable: false,
          isLikelyExploitable: false,
          currentRating: 2,
          overdueStatus: { isOverdue: false },
        },
      ],
    },
  };
  const deliveries: Partial<Record<PulledDocumentName, Delivery>> = Object.fromEntries(
    Object.keys(documents).map((name) => [name, name === 'public' ? { ...JSON_DELIVERY, cors: '*' } : JSON_DELIVERY]),
  );
  return { provider: { name: 'acme', fedrampId: ID }, cls: 'B', documents, deliveries, rules, now: new Date('2027-01-15T12:00:00Z') };
}

/** `input` with `patch` laid over a document (a shallow merge at the top level; undefined removes the document). */
function withDocument(input: VerificationInput, name: PulledDocumentName, doc: unknown): VerificationInput {
  const documents = { ...input.documents };
  if (doc === undefined) delete documents[name];
  else documents[name] = doc;
  return { ...input, documents };
}
const cpoOf = (input: VerificationInput) => input.documents.cpo as Record<string, Record<string, unknown>>;

describe('verifyDocuments: what an agency checks in a pull (DESIGN §14)', () => {
  it('finds nothing in a provider whose documents are right', () => {
    expect(verifyDocuments(clean())).toEqual([]);
  });

  describe('CDS-CSO-FID: one FedRAMP ID everywhere, the configured one', () => {
    it('names each document and field that carries another', () => {
      const input = clean();
      const wrong = withDocument(input, 'metrics', { fedRampPackageId: 'FR0000000000' });
      const public_ = withDocument(wrong, 'public', { serviceIdentification: { fedRampPackageId: 'FR2611250002' } });
      expect(verifyDocuments(public_)).toEqual([
        {
          level: 'action',
          rule: 'CDS-CSO-FID',
          code: 'fedramp-id-mismatch',
          document: 'metrics',
          at: 'fedRampPackageId',
          message: 'the FedRAMP ID is "FR0000000000", not the FedRAMP ID configured for acme (agency.providers[].fedramp_id) "FR2611250001"',
        },
        {
          level: 'action',
          rule: 'CDS-CSO-FID',
          code: 'fedramp-id-mismatch',
          document: 'public',
          at: 'serviceIdentification.fedRampPackageId',
          message: 'the FedRAMP ID is "FR2611250002", not the FedRAMP ID configured for acme (agency.providers[].fedramp_id) "FR2611250001"',
        },
      ]);
    });

    it("without a configured ID holds every document to the CPO's, and says so", () => {
      const input = { ...withDocument(clean(), 'metrics', { fedRampPackageId: 'FR0000000000' }), provider: { name: 'acme' } };
      expect(verifyDocuments(input)).toEqual([
        {
          level: 'action',
          rule: 'CDS-CSO-FID',
          code: 'fedramp-id-mismatch',
          document: 'metrics',
          at: 'fedRampPackageId',
          message: `the FedRAMP ID is "FR0000000000", not the CPO's "${ID}"`,
        },
        {
          level: 'notice',
          rule: 'CDS-CSO-FID',
          code: 'fedramp-id-not-configured',
          document: 'cpo',
          at: 'serviceIdentification.fedRampPackageId',
          message: `no FedRAMP ID is configured for acme; the CPO gives "${ID}" (set agency.providers[].fedramp_id to check every pull against it)`,
        },
      ]);
    });

    it('a CPO without one, an ID that is not a string, and IDs in the items of a list', () => {
      const input = clean();
      const cpo = cpoOf(input);
      const noId = withDocument(input, 'cpo', { ...cpo, serviceIdentification: { providerName: 'Acme' } });
      const odd = withDocument(noId, 'ocr', { ...(input.documents.ocr as object), metadata: { fedRampPackageId: 42 } });
      const listed = withDocument(odd, 'scn', [{ fedRampPackageId: ID }, { fedRampPackageId: 'FR9' }]);
      expect(verifyDocuments(listed)).toEqual([
        {
          level: 'action',
          rule: 'CDS-CSO-FID',
          code: 'fedramp-id-mismatch',
          document: 'ocr',
          at: 'metadata.fedRampPackageId',
          message: 'the FedRAMP ID is 42, not a string',
        },
        {
          level: 'action',
          rule: 'CDS-CSO-FID',
          code: 'fedramp-id-mismatch',
          document: 'scn',
          at: '[1].fedRampPackageId',
          message: `the FedRAMP ID is "FR9", not the FedRAMP ID configured for acme (agency.providers[].fedramp_id) "${ID}"`,
        },
        {
          level: 'action',
          rule: 'CDS-CSO-FID',
          code: 'fedramp-id-missing',
          document: 'cpo',
          at: 'serviceIdentification.fedRampPackageId',
          message: "the CPO gives no FedRAMP ID; every document of FedRAMP certification data must carry the offering's",
        },
      ]);
    });
  });

  describe('CCM-OCR-NRD and CCM-OCR-AVL: the OCR on schedule', () => {
    const withNext = (next: unknown, input = clean()) => {
      const cpo = cpoOf(input);
      const serviceProperties = { ...cpo.serviceProperties, nextOngoingCertificationReportDate: next };
      if (next === undefined) delete serviceProperties.nextOngoingCertificationReportDate;
      return withDocument(input, 'cpo', { ...cpo, serviceProperties });
    };

    it('a CPO without the next report date, or with one that is not a date', () => {
      expect(verifyDocuments(withNext(undefined))).toEqual([
        {
          level: 'action',
          rule: 'CCM-OCR-NRD',
          code: 'next-ocr-date-missing',
          document: 'cpo',
          at: 'serviceProperties.nextOngoingCertificationReportDate',
          message: 'the CPO gives no date for the next Ongoing Certification Report',
        },
      ]);
      expect(verifyDocuments(withNext('soon'))[0].message).toBe('the CPO gives no date for the next Ongoing Certification Report ("soon" is not a date)');
    });

    it('the next report date passed with no newer OCR: overdue (the cadence finding is not repeated)', () => {
      const input = { ...withNext('2027-01-14'), now: new Date('2027-04-15T00:00:00Z') };
      // The snapshot list and the VDR stay as they were; only the schedule is judged here.
      expect(verifyDocuments(input).filter((f) => f.rule.startsWith('CCM-'))).toEqual([
        {
          level: 'action',
          rule: 'CCM-OCR-NRD',
          code: 'ocr-overdue',
          document: 'ocr',
          message: "the OCR due 2027-01-14 (the CPO's next report date) is overdue: the latest OCR covers 2026-10-01 to 2026-12-31",
        },
      ]);
    });

    it('is on time through the last second of the next report date', () => {
      expect(verifyDocuments({ ...withNext('2027-01-15'), now: new Date('2027-01-15T23:59:59Z') })).toEqual([]);
      expect(verifyDocuments({ ...withNext('2027-01-15'), now: new Date('2027-01-16T00:00:00Z') }).map((f) => f.code)).toEqual(['ocr-overdue']);
    });

    it('a newer OCR published but the CPO not updated: the CPO is stale', () => {
      expect(verifyDocuments(withNext('2026-12-31'))).toEqual([
        {
          level: 'action',
          rule: 'CCM-OCR-NRD',
          code: 'next-ocr-date-stale',
          document: 'cpo',
          at: 'serviceProperties.nextOngoingCertificationReportDate',
          message:
            'the CPO still gives 2026-12-31 as the next OCR date, which has passed; the latest OCR covers 2026-10-01 to 2026-12-31, so the CPO was not updated',
        },
      ]);
    });

    it("an OCR older than CCM-OCR-AVL's 3 months while the CPO promises a later date", () => {
      const input = { ...withNext('2027-06-30'), now: new Date('2027-04-01T00:00:00Z') };
      const old = withDocument(input, 'ocr', { reportPeriod: { from: '2026-10-01', to: '2026-12-31' } });
      expect(verifyDocuments(old).filter((f) => f.rule.startsWith('CCM-'))).toEqual([
        {
          level: 'action',
          rule: 'CCM-OCR-AVL',
          code: 'ocr-stale',
          document: 'ocr',
          at: 'reportPeriod.to',
          message: 'the latest OCR covers 2026-10-01 to 2026-12-31: the next was due by 2027-03-31, 3 months after it',
        },
        {
          level: 'notice',
          rule: 'CCM-OCR-NRD',
          code: 'next-ocr-date-beyond-cadence',
          document: 'cpo',
          at: 'serviceProperties.nextOngoingCertificationReportDate',
          message: "the CPO gives 2027-06-30 as the next OCR date, later than 2027-03-31 (3 months after the latest OCR's period, CCM-OCR-AVL)",
        },
      ]);
    });

    it('no OCR fetched: the overdue finding says so; no OCR, no cadence or snapshot judged', () => {
      const input = { ...withDocument(withNext('2027-01-10'), 'ocr', undefined) };
      expect(verifyDocuments(input)).toEqual([
        {
          level: 'action',
          rule: 'CCM-OCR-NRD',
          code: 'ocr-overdue',
          document: 'ocr',
          message: "the OCR due 2027-01-10 (the CPO's next report date) is overdue: no OCR was fetched",
        },
      ]);
    });

    it('judges nothing by a rule the release does not hold', () => {
      const lacking = { ...rules, rules: rules.rules.filter((r) => !r.id.startsWith('CCM-OCR')) };
      expect(verifyDocuments({ ...withNext(undefined), rules: lacking })).toEqual([]);
    });
  });

  describe('CDS-CSO-HAD: a snapshot for the latest OCR', () => {
    it('no list of snapshots at all (the route absent; FedRAMP names none): a notice asking how, not an action', () => {
      expect(verifyDocuments(withDocument(clean(), 'snapshots', undefined))).toEqual([
        {
          level: 'notice',
          rule: 'CDS-CSO-HAD',
          code: 'snapshots-missing',
          document: 'snapshots',
          message:
            'the trust center lists no snapshots of its certification data at /fedramp/snapshots, so svc cannot check that the data of the OCR of 2026-10-01 to 2026-12-31 stays available; ask the provider how it makes historical certification data available',
        },
      ]);
    });

    it('a list without the latest OCR, a list keyed by period only, a list not shaped as one', () => {
      const older = withDocument(clean(), 'snapshots', { snapshots: [{ snapshot: '2026-09-30' }] });
      expect(verifyDocuments(older)).toEqual([
        {
          level: 'action',
          rule: 'CDS-CSO-HAD',
          code: 'snapshot-missing',
          document: 'snapshots',
          at: 'snapshots',
          message: 'no snapshot is listed for the latest OCR (2026-10-01 to 2026-12-31); 1 is listed',
        },
      ]);
      expect(verifyDocuments(withDocument(clean(), 'snapshots', { snapshots: [{ period: { from: '2026-10-01', to: '2026-12-31' } }] }))).toEqual([]);
      expect(verifyDocuments(withDocument(clean(), 'snapshots', ['2026-12-31']))).toEqual([
        {
          level: 'action',
          rule: 'CDS-CSO-HAD',
          code: 'snapshots-unreadable',
          document: 'snapshots',
          at: 'snapshots',
          message: 'the list of snapshots holds no `snapshots` array',
        },
      ]);
    });
  });

  describe('FRC-CSO-JSN: delivered as JSON for automation', () => {
    it('a wrong or missing content type, no nosniff, no CORS on the public JSON', () => {
      const input = clean();
      input.deliveries = {
        ...input.deliveries,
        public: { contentType: 'application/json', nosniff: true },
        cpo: { contentType: 'text/html; charset=utf-8', nosniff: false },
        vdr: { nosniff: true },
        sdr: { contentType: 'application/schema-instance+json', nosniff: true },
        ocr: { contentType: 'application/json', nosniff: true, cors: '*' },
      };
      expect(verifyDocuments(input)).toEqual([
        {
          level: 'action',
          rule: 'FRC-CSO-JSN',
          code: 'cors-missing',
          document: 'public',
          at: 'Access-Control-Allow-Origin',
          message:
            'the public JSON answered a request carrying an Origin without Access-Control-Allow-Origin, so a web application on another domain cannot read it',
        },
        {
          level: 'action',
          rule: 'FRC-CSO-JSN',
          code: 'json-content-type',
          document: 'cpo',
          at: 'Content-Type',
          message: 'served as "text/html; charset=utf-8", not application/json',
        },
        {
          level: 'action',
          rule: 'FRC-CSO-JSN',
          code: 'json-content-type',
          document: 'vdr',
          at: 'Content-Type',
          message: 'served as no Content-Type, not application/json',
        },
        {
          level: 'action',
          rule: 'FRC-CSO-JSN',
          code: 'nosniff-missing',
          document: 'cpo',
          at: 'X-Content-Type-Options',
          message: 'served without X-Content-Type-Options: nosniff',
        },
      ]);
    });

    it('CORS of "null" is none', () => {
      const input = clean();
      input.deliveries = { ...input.deliveries, public: { ...JSON_DELIVERY, cors: 'null' } };
      expect(verifyDocuments(input).map((f) => f.message)).toEqual([
        'the public JSON answered a request carrying an Origin with Access-Control-Allow-Origin "null", so a web application on another domain cannot read it',
      ]);
    });
  });

  describe('vulnerabilities: overdue recomputed, the provider contradicted', () => {
    const vdr = (entries: object[]) => ({
      certificationPackageOverviewUri: 'x',
      reportPeriod: { from: '2026-12-15T00:00:00Z', to: '2027-01-14T00:00:00Z' },
      vulnerabilities: entries,
    });
    const entry = (id: string, extra: object) => ({
      providerTrackingId: id,
      detection: { detectedAt: '2027-01-02T00:00:00Z', detectionSource: 'Nessus' },
      vulnerabilityDescription: id,
      ...extra,
    });

    it('an action per rule for the overdue, a notice each way for disagreements, a notice for what cannot be read', () => {
      const input = withDocument(
        clean(),
        'vdr',
        vdr([
          entry('V-5', {
            evaluationCompletedAt: '2027-01-03T00:00:00Z',
            isInternetReachable: true,
            isLikelyExploitable: true,
            currentRating: 5,
            overdueStatus: { isOverdue: false },
          }),
          entry('V-new', { overdueStatus: { isOverdue: false } }),
          entry('V-2', {
            evaluationCompletedAt: '2027-01-03T00:00:00Z',
            isInternetReachable: false,
            isLikelyExploitable: false,
            currentRating: 2,
            overdueStatus: { isOverdue: true, explanation: 'late' },
          }),
          entry('V-bad', { evaluationCompletedAt: 'tuesday', overdueStatus: { isOverdue: true, explanation: 'late' } }),
        ]),
      );
      expect(verifyDocuments(input)).toEqual([
        {
          level: 'action',
          rule: 'VDR-TFR-PVR',
          code: 'vulnerabilities-overdue',
          document: 'vdr',
          message: "1 vulnerability is overdue by VDR-TFR-PVR for Class B, recomputed from the VDR's dates and N-ratings: V-5 (N5, due 2027-01-07T00:00:00Z)",
        },
        {
          level: 'action',
          rule: 'VER-TFR-EVU',
          code: 'vulnerabilities-overdue',
          document: 'vdr',
          message:
            "2 vulnerabilities are overdue by VER-TFR-EVU for Class B, recomputed from the VDR's dates and N-ratings: V-new (not rated, due 2027-01-09T00:00:00Z), V-bad (not rated, due 2027-01-09T00:00:00Z)",
        },
        {
          level: 'notice',
          rule: 'VDR-TFR-PVR',
          code: 'overdue-status-disagrees',
          document: 'vdr',
          message: 'the VDR says 1 vulnerability is overdue that svc recomputes as not overdue: V-2',
        },
        {
          level: 'notice',
          rule: 'VDR-TFR-PVR',
          code: 'overdue-status-disagrees',
          document: 'vdr',
          message: 'the VDR says 2 vulnerabilities are not overdue that svc recomputes as overdue: V-5, V-new',
        },
        {
          level: 'notice',
          rule: 'svc:vulnerability-clock',
          code: 'vulnerabilities-unreadable',
          document: 'vdr',
          message: '1 vulnerability has fields the clock cannot read: V-bad (evaluationCompletedAt: "tuesday" is not a date-time)',
        },
      ]);
    });

    it('names ten and counts the rest', () => {
      const many = Array.from({ length: 12 }, (_, i) => entry(`V-${String(i).padStart(2, '0')}`, {}));
      const [finding] = verifyDocuments(withDocument(clean(), 'vdr', vdr(many)));
      expect(finding.message).toBe(
        `12 vulnerabilities are overdue by VER-TFR-EVU for Class B, recomputed from the VDR's dates and N-ratings: ${many
          .slice(0, 10)
          .map((v) => `${v.providerTrackingId} (not rated, due 2027-01-09T00:00:00Z)`)
          .join(', ')} and 2 more`,
      );
    });

    it('without the class, a notice instead of a guess', () => {
      expect(verifyDocuments({ ...clean(), cls: undefined })).toEqual([
        {
          level: 'notice',
          rule: 'svc:class',
          code: 'class-unknown',
          document: 'vdr',
          message: "the Certification Class of acme is not known, so its vulnerabilities' timeframes are not recomputed",
        },
      ]);
    });
  });

  describe('AGU-USE-CLA: Class A for 12 months at most', () => {
    const classA = (now: string) => ({ ...clean(), cls: 'A' as const, now: new Date(now) });

    it("counts from the CPO's earliest certified service: nothing before the last 30 days, a notice in them, an action after", () => {
      expect(verifyDocuments(classA('2027-05-01T00:00:00Z')).filter((f) => f.rule === 'AGU-USE-CLA')).toEqual([]);
      const nearing = verifyDocuments(classA('2027-05-02T00:00:01Z'));
      expect(nearing.filter((f) => f.rule === 'AGU-USE-CLA')).toEqual([
        {
          level: 'notice',
          rule: 'AGU-USE-CLA',
          code: 'class-a-nearing-12-months',
          document: 'cpo',
          at: 'certifiedServices[].dateAvailable',
          message:
            'a Class A certification used since 2026-06-01 reaches 12 months on 2027-06-01; plan not to authorize its use beyond it unless the offering is actively seeking a Class B, C or D certification',
        },
      ]);
      expect(verifyDocuments(classA('2027-06-01T23:59:59Z')).find((f) => f.rule === 'AGU-USE-CLA')?.level).toBe('notice');
      expect(verifyDocuments(classA('2027-06-02T00:00:00Z')).filter((f) => f.rule === 'AGU-USE-CLA')).toEqual([
        {
          level: 'action',
          rule: 'AGU-USE-CLA',
          code: 'class-a-over-12-months',
          document: 'cpo',
          at: 'certifiedServices[].dateAvailable',
          message:
            'a Class A certification used since 2026-06-01 passed 12 months on 2027-06-01; do not authorize its use further unless the offering is actively seeking a Class B, C or D certification',
        },
      ]);
    });

    it('a notice when the CPO dates no certified service; nothing for other classes', () => {
      const input = clean();
      const undated = withDocument({ ...input, cls: 'A' }, 'cpo', { ...cpoOf(input), certifiedServices: [{ serviceName: 'Cases' }] });
      expect(verifyDocuments(undated)).toEqual([
        {
          level: 'notice',
          rule: 'AGU-USE-CLA',
          code: 'class-a-start-unknown',
          document: 'cpo',
          at: 'certifiedServices[].dateAvailable',
          message: 'acme is Class A, but the CPO dates no certified service, so its 12 months cannot be counted',
        },
      ]);
      expect(verifyDocuments({ ...clean(), now: new Date('2028-01-01T00:00:00Z') }).some((f) => f.rule === 'AGU-USE-CLA')).toBe(false);
    });

    it("reads the months from the rule's statement when the release gives statements", () => {
      expect(classAMonths(rules)).toBe(12);
      const text = 'Agencies SHOULD NOT authorize the use of a FedRAMP Class A Certified cloud service offering for more than 18 months UNLESS …';
      expect(classAMonths({ statements: { 'AGU-USE-CLA': { text } } })).toBe(18);
    });
  });

  it('sorts actions first, then by rule, code, document, path and message', () => {
    const f = (level: 'action' | 'notice', rule: string, code: string, document?: PulledDocumentName) => ({
      level,
      rule,
      code,
      ...(document ? { document } : {}),
      message: 'm',
    });
    expect(sortFindings([f('notice', 'A', 'a'), f('action', 'B', 'b', 'vdr'), f('action', 'B', 'b', 'cpo'), f('action', 'A', 'z')])).toEqual([
      f('action', 'A', 'z'),
      f('action', 'B', 'b', 'cpo'),
      f('action', 'B', 'b', 'vdr'),
      f('notice', 'A', 'a'),
    ]);
  });
});
