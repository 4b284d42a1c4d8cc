import { AgencyStatus } from '../../../../src/application/agency/agency-status';
import { pullFacts } from '../../../../src/domain/agency/provider-status';
import { reviewSignedBytes } from '../../../../src/application/agency/review-ocr';
import { toBase64 } from '../../../../src/domain/encoding/base64';
import { InMemorySigner } from '../../../fakes/in-memory-signer';
import type { AgencyProvider } from '../../../../src/domain/agency/providers';
import type { AgencyPull, AgencyReview } from '../../../../src/domain/agency/pulled-documents';
import type { InMemoryAgencyStore } from '../../../fakes/in-memory-agency-store';
import { builtInRules } from '../../../fakes/fixed-rules-source';
import { unitContainer } from '../../../support/unit-container';
import { ACME, BASE, OCR_LATE, PULL_1, PULL_2, recordPull, twoPulls } from './agency-fixtures';

const FILE = '/work/svc.config.json';
const VERSION = builtInRules().info.version;
const status = (providers: AgencyProvider[], options: { now?: string; agency?: string } = {}) => {
  const doubles = unitContainer({
    now: options.now ?? '2027-01-21T00:00:00Z',
    agency: { providers, ...(options.agency === undefined ? {} : { name: options.agency }) },
  });
  return { ...doubles, run: (input: Parameters<AgencyStatus['execute']>[0] = {}) => doubles.container.resolve(AgencyStatus).execute(input) };
};
/** The agency's signing key of these tests' reviews. */
const REVIEWER = new InMemorySigner();
/** Records a review of the OCR acme's pull `seq` got, signed as ReviewOcr signs one (`change` alters it after signing). */
const review = async (store: InMemoryAgencyStore, periodEnd: string, seq: number, change: (r: AgencyReview) => AgencyReview = (r) => r): Promise<void> => {
  const ocr = (await store.pulls('acme')).find((p) => p.seq === seq)!.documents.find((d) => d.name === 'ocr')!.stored!.sha256;
  const unsigned = { provider: 'acme', ocrPeriodEnd: periodEnd, ocrSha256: ocr, reviewedAt: '2027-01-20T12:00:00Z', note: 'read' };
  const key = await REVIEWER.load();
  const sig = toBase64(key.sign(reviewSignedBytes(unsigned)));
  await store.appendReview(change({ ...unsigned, signature: { keyid: key.keyid, alg: key.algorithm, sig, publicJwk: key.publicJwk } }));
};
/** A failed pull as PullProviders records it: every document failed, the bytes held carried. */
const failedPull = async (store: InMemoryAgencyStore, finished: string, error: string): Promise<AgencyPull> => {
  const [previous] = await store.pulls('acme', { last: 1 });
  return store.appendPull({
    provider: 'acme',
    started: finished,
    finished,
    url: BASE,
    outcome: 'failed',
    error,
    documents: previous!.documents.map((d) => ({
      name: d.name,
      url: d.url,
      outcome: 'failed',
      error,
      attempts: 3,
      ...(d.stored === undefined ? {} : { stored: d.stored }),
    })),
    schemas: previous!.schemas,
    findings: [],
  });
};

describe('AgencyStatus (svc agency status)', () => {
  it('one row per provider in the configuration order, a never-pulled one told to pull; the rules version and the time judged at', async () => {
    const beta: AgencyProvider = { name: 'beta', url: 'https://trust.beta.example', auth: { kind: 'none' } };
    const { run, agencyStore } = status([beta, ACME]);
    await recordPull(agencyStore, 'acme', '2027-01-20T00:00:00Z', { cpo: PULL_2.cpo });
    const result = await run();
    expect(result).toEqual({
      now: '2027-01-21T00:00:00.000Z',
      rules: `CR26 ${VERSION}`,
      providers: [
        {
          provider: 'beta',
          url: 'https://trust.beta.example',
          unreviewedOcrs: [],
          incidents: [],
          scns: { count: 0 },
          ksiChanges: [],
          documents: { invalid: [], stale: [] },
          actions: ['never pulled: run svc agency pull beta'],
          notes: [],
          findings: [],
        },
        {
          provider: 'acme',
          url: BASE,
          class: 'B',
          classSource: 'configuration',
          fedrampId: 'FR2611250001',
          lastPull: { seq: 1, finished: '2027-01-20T00:00:00Z', outcome: 'ok' },
          unreviewedOcrs: [],
          nextOcrDue: '2027-03-31',
          incidents: [],
          scns: { count: 0 },
          ksiChanges: [],
          documents: { invalid: [], stale: [] },
          actions: [],
          notes: [],
          findings: [],
        },
      ],
      needingAction: 1,
    });
  });

  it('two quarters of acme: the OCRs not reviewed, overdue vulnerabilities recomputed, the KSI changes since the first pull, the findings', async () => {
    const { run, agencyStore } = status([ACME], { agency: 'Dept of Examples' });
    await twoPulls(agencyStore);
    const [row] = (await run()).providers;
    expect(row).toEqual({
      provider: 'acme',
      url: BASE,
      class: 'B',
      classSource: 'configuration',
      fedrampId: 'FR2611250001',
      lastPull: { seq: 2, finished: '2027-01-20T00:00:00Z', outcome: 'ok' },
      lastOcr: { periodEnd: '2026-12-31', reviewed: false },
      unreviewedOcrs: ['2026-09-30', '2026-12-31'],
      nextOcrDue: '2027-03-31',
      vulnerabilities: { open: { unrated: 1, N4: 1, N3: 1 }, overdue: { unrated: 1, N4: 1, N3: 1 }, accepted: 1 },
      // INC-1's newest report is final.
      incidents: [],
      scns: { count: 1, latestPlannedCompletion: '2027-02-01' },
      ksiChanges: [
        { id: 'KSI-IAM-MFA', from: 'Partially Implemented', to: 'Implemented' },
        { id: 'KSI-CNA-RNT', to: 'Not Implemented' },
      ],
      documents: { invalid: [], stale: [] },
      actions: [
        `CCM-OCR-NRD: ${OCR_LATE.message}`,
        'CCM-AGM-ROR: the OCR for the period ending 2026-09-30 is not reviewed yet (svc agency review acme --ocr 2026-09-30)',
        'CCM-AGM-ROR: the OCR for the period ending 2026-12-31 is not reviewed yet (svc agency review acme --ocr 2026-12-31)',
        'VER-AGM-RVR: 1 N4, 1 N3, 1 unrated vulnerabilities overdue, recomputed from the VDR',
      ],
      // The pull's notice-level finding, said without asking anything of the agency.
      notes: ['svc:schema: valid under an older generation only'],
      findings: (await agencyStore.pulls('acme'))[1]!.findings,
    });
  });

  it('KSI changes are since the SDR current when the reviewed OCR was first pulled; the reviewed OCRs drop out', async () => {
    const { run, agencyStore } = status([ACME]);
    await twoPulls(agencyStore);
    const sdr3 = { ...PULL_2.sdr, keySecurityIndicators: [{ ksiId: 'KSI-IAM-MFA', ksiImplementationStatus: 'Not Implemented' }] };
    await recordPull(agencyStore, 'acme', '2027-01-21T00:00:00Z', { ...PULL_2, sdr: sdr3 });
    expect((await run()).providers[0]!.ksiChanges).toEqual([{ id: 'KSI-IAM-MFA', from: 'Partially Implemented', to: 'Not Implemented' }]);
    await review(agencyStore, '2026-12-31', 2);
    const [row] = (await run()).providers;
    expect(row!.ksiChanges).toEqual([{ id: 'KSI-IAM-MFA', from: 'Implemented', to: 'Not Implemented' }]);
    expect([row!.unreviewedOcrs, row!.lastOcr]).toEqual([['2026-09-30'], { periodEnd: '2026-12-31', reviewed: true }]);
  });

  it('a review changed after it was signed, or with another key id, does not count: an action says so and the OCR is still owed', async () => {
    const { run, agencyStore } = status([ACME]);
    await twoPulls(agencyStore);
    await review(agencyStore, '2026-12-31', 2, (r) => ({ ...r, note: 'changed afterwards' }));
    await review(agencyStore, '2026-09-30', 1, (r) => ({ ...r, signature: { ...r.signature, keyid: 'someone-else' } }));
    const [row] = (await run()).providers;
    const keyid = (await agencyStore.reviews('acme'))[0]!.signature.keyid;
    expect(row!.actions.filter((a) => a.startsWith('CCM-AGM-ROR'))).toEqual([
      `CCM-AGM-ROR: the review recorded for the OCR ending 2026-12-31 does not verify (its signature does not verify with key ${keyid}: it was changed after it was signed); it is not counted: review it again (svc agency review acme --ocr 2026-12-31)`,
      `CCM-AGM-ROR: the review recorded for the OCR ending 2026-09-30 does not verify (its key id someone-else is not its public key's (${keyid})); it is not counted: review it again (svc agency review acme --ocr 2026-09-30)`,
      'CCM-AGM-ROR: the OCR for the period ending 2026-09-30 is not reviewed yet (svc agency review acme --ocr 2026-09-30)',
      'CCM-AGM-ROR: the OCR for the period ending 2026-12-31 is not reviewed yet (svc agency review acme --ocr 2026-12-31)',
    ]);
    expect(row!.lastOcr).toEqual({ periodEnd: '2026-12-31', reviewed: false });
  });

  it('reads the statuses and OCR periods kept with the pulls, not the SDRs and OCRs; a record without them is read as before', async () => {
    const { run, agencyStore } = status([ACME]);
    await twoPulls(agencyStore);
    const expected = (await run()).providers[0]!;
    const kept = (await agencyStore.pulls('acme')).map((p) => ({
      ...p,
      facts: pullFacts(PULLED[p.seq - 1]!.sdr, PULLED[p.seq - 1]!.ocr),
    }));
    agencyStore.pullsByProvider.set('acme', kept);
    const sdrsAndOcrs = new Set(kept.flatMap((p) => p.documents.filter((d) => d.name === 'sdr' || d.name === 'ocr').map((d) => d.stored!.sha256)));
    const read = agencyStore.readDocument.bind(agencyStore);
    agencyStore.readDocument = (sha256) =>
      sdrsAndOcrs.has(sha256) && !isCurrentOcr(kept, sha256) ? Promise.reject(new Error(`read ${sha256}`)) : read(sha256);
    expect((await run()).providers[0]).toEqual(expected);
  });

  it('no KSI change when the baseline SDR is the current one', async () => {
    const { run, agencyStore } = status([ACME]);
    await recordPull(agencyStore, 'acme', '2026-10-01T00:00:00Z', PULL_1);
    await recordPull(agencyStore, 'acme', '2026-10-02T00:00:00Z', PULL_1);
    expect((await run({ now: new Date('2026-10-02T00:00:00Z') })).providers[0]!.ksiChanges).toEqual([]);
  });

  it('a trust center down since the last good pull: days unreachable, and the documents it left stale', async () => {
    const { run, agencyStore } = status([ACME], { now: '2026-10-04T06:00:00Z' });
    await recordPull(agencyStore, 'acme', '2026-10-01T00:00:00Z', { cpo: PULL_1.cpo, ocr: PULL_1.ocr });
    await failedPull(agencyStore, '2026-10-03T00:00:00Z', `${BASE}/fedramp/public: connect ECONNREFUSED`);
    await failedPull(agencyStore, '2026-10-04T00:00:00Z', `${BASE}/fedramp/public: connect ECONNREFUSED`);
    const [row] = (await run()).providers;
    expect(row!.lastPull).toEqual({ seq: 3, finished: '2026-10-04T00:00:00Z', outcome: 'failed', error: `${BASE}/fedramp/public: connect ECONNREFUSED` });
    expect(row!.actions).toEqual([
      `pull 3 failed: unreachable for 3 days (${BASE}/fedramp/public: connect ECONNREFUSED)`,
      'CCM-AGM-ROR: the OCR for the period ending 2026-09-30 is not reviewed yet (svc agency review acme --ocr 2026-09-30)',
    ]);
    expect(row!.documents).toEqual({ invalid: [], stale: ['cpo', 'ocr'] });
    // The carried documents still say what is known.
    expect([row!.nextOcrDue, row!.lastOcr]).toEqual(['2026-12-31', { periodEnd: '2026-09-30', reviewed: false }]);
  });

  it('an open incident affecting the agency, its next report due from when svc first pulled it; one affecting only another agency not counted', async () => {
    const { run, agencyStore } = status([ACME], { agency: 'Dept of Examples', now: '2026-10-02T00:00:00Z' });
    const ours = { providerTrackingId: 'INC-1', reportType: 'Initial', affectedAgencies: ['Dept of Examples'], potentialImpact: { currentRating: 4 } };
    const theirs = { ...ours, providerTrackingId: 'INC-2', affectedAgencies: ['Dept of Elsewhere'] };
    await recordPull(agencyStore, 'acme', '2026-10-01T00:00:00Z', { incidents: [ours, theirs] });
    // The same bytes confirmed a day later (304): the clock runs from the first fetch.
    const [first] = await agencyStore.pulls('acme');
    await agencyStore.appendPull({
      ...first!,
      started: '2026-10-02T00:00:00Z',
      finished: '2026-10-02T00:00:00Z',
      documents: first!.documents.map((d) => ({ ...d, outcome: 'unchanged', status: 304 })),
    });
    const [row] = (await run()).providers;
    expect(row!.incidents).toEqual([{ id: 'INC-1', reportType: 'Initial', rating: 4, nextReportDue: '2026-10-02T00:00:00Z' }]);
    expect(row!.actions).toEqual(['incident INC-1 open (Initial report, N4); next report due 2026-10-02T00:00:00Z']);
  });

  it("the class: the configuration's, else the trust center's statement, else none (and no vulnerability judged)", async () => {
    const unclassed: AgencyProvider = { ...ACME, class: undefined };
    const stated = { serviceIdentification: { fedRampPackageId: 'FR2611250001', certificationType: 'Program' }, trustCenter: { certificationClass: 'C' } };
    for (const [provider, pub, expected] of [
      [ACME, stated, { class: 'B', classSource: 'configuration' }],
      [unclassed, stated, { class: 'C', classSource: 'trust center' }],
      [unclassed, { serviceIdentification: {} }, {}],
    ] as const) {
      const { run, agencyStore } = status([provider]);
      await recordPull(agencyStore, 'acme', '2027-01-20T00:00:00Z', { public: pub, vdr: PULL_2.vdr });
      const [row] = (await run()).providers;
      expect({ class: row!.class, classSource: row!.classSource }).toEqual(Object.assign({ class: undefined, classSource: undefined }, expected));
      expect(row!.vulnerabilities === undefined).toBe(!('class' in expected));
    }
  });

  it('only the providers named; an unknown name or no provider is a usage error', async () => {
    const beta: AgencyProvider = { name: 'beta', url: 'https://trust.beta.example', auth: { kind: 'none' } };
    const { run } = status([ACME, beta]);
    expect((await run({ names: ['beta'] })).providers.map((p) => p.provider)).toEqual(['beta']);
    await expect(run({ names: ['zeta'] })).rejects.toMatchObject({
      kind: 'usage',
      code: 'agency-unknown-provider',
      message: `zeta: not a provider of ${FILE} (known: acme, beta); add one with svc agency add`,
    });
    await expect(status([]).run()).rejects.toMatchObject({
      kind: 'usage',
      code: 'agency-no-providers',
      message: `${FILE}: agency.providers names no provider; add one with svc agency add <name> --url <trust center>`,
    });
  });
});

/** The documents of twoPulls' pulls, by seq - 1. */
const PULLED = [PULL_1, PULL_2];
/** Whether `sha256` is the OCR the newest pull holds (status still reads the current OCR for the row's last OCR and dates). */
const isCurrentOcr = (pulls: AgencyPull[], sha256: string) => pulls.at(-1)!.documents.find((d) => d.name === 'ocr')?.stored?.sha256 === sha256;
