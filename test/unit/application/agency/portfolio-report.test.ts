import { AGENCY_TEST_BASE, recordPull } from '../../../support/agency-pulls';
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { AgencyStatus } from '../../../../src/application/agency/agency-status';
import { PortfolioReport } from '../../../../src/application/agency/portfolio-report';
import type { PortfolioModel } from '../../../../src/domain/agency/portfolio';
import { DEFAULT_PULL_SETTINGS, type AgencyProvider } from '../../../../src/domain/agency/providers';
import type { AgencyPull, PulledDocumentName } from '../../../../src/domain/agency/pulled-documents';
import { HtmlDashboardRenderer } from '../../../../src/infrastructure/renderers/html/html-dashboard-renderer';
import { AGENCY_CONFIG, type AgencyConfig } from '../../../../src/ports/agency-config';
import { AGENCY_STORE } from '../../../../src/ports/agency-store';
import { HTML_RENDERER, type HtmlRenderer } from '../../../../src/ports/html-renderer';
import { InMemoryAgencyStore } from '../../../fakes/in-memory-agency-store';
import { unitContainer, type UnitDoubles } from '../../../support/unit-container';

const BASE = AGENCY_TEST_BASE;
const EVIL_BASE = 'https://trust.evil.example';
const SCRIPT = `<script>alert("x")</script>`;

/** The agency store that also logs what it was asked, in order. */
class LoggingAgencyStore extends InMemoryAgencyStore {
  readonly log: string[] = [];
  override async readDocument(sha256: string): Promise<Uint8Array> {
    this.log.push(`read ${sha256}`);
    return super.readDocument(sha256);
  }
  override async pulls(provider: string, options: { last?: number } = {}): Promise<AgencyPull[]> {
    this.log.push(`pulls ${provider}`);
    return super.pulls(provider, options);
  }
}

/** HTML_RENDERER that keeps the model it was given and renders it with the real renderer. */
class RecordingRenderer extends HtmlDashboardRenderer implements HtmlRenderer {
  seen?: PortfolioModel;
  override agencyPortfolio(model: PortfolioModel): string {
    this.seen = model;
    return super.agencyPortfolio(model);
  }
}

function agencyConfig(providers: AgencyProvider[], name?: string): AgencyConfig {
  return {
    settings: () => ({ ...(name === undefined ? {} : { name }), providers, pull: DEFAULT_PULL_SETTINGS }),
    file: '/work/svc.config.json',
    addProviders: async () => {
      throw new Error('not reached');
    },
  };
}

const ACME: AgencyProvider = { name: 'acme', url: BASE, fedrampId: 'FR2611250001', class: 'B', auth: { kind: 'none' } };
const EVIL: AgencyProvider = { name: 'evil', url: EVIL_BASE, class: 'C', auth: { kind: 'none' } };
const IDLE: AgencyProvider = { name: 'idle', url: 'https://trust.idle.example', auth: { kind: 'none' } };

interface Doubles extends UnitDoubles {
  agency: LoggingAgencyStore;
  html: RecordingRenderer;
}

function doubles(providers: AgencyProvider[], name?: string): Doubles {
  const d = unitContainer({ now: '2027-01-21T08:00:00Z' });
  const agency = new LoggingAgencyStore();
  const html = new RecordingRenderer();
  d.container.register(AGENCY_STORE, { useValue: agency });
  d.container.register(AGENCY_CONFIG, { useValue: agencyConfig(providers, name) });
  d.container.register(HTML_RENDERER, { useValue: html });
  return { ...d, agency, html };
}

/** Records a failed pull: every document failed, the previous pull's bytes carried forward. */
async function recordFailedPull(store: InMemoryAgencyStore, provider: string, finished: string): Promise<AgencyPull> {
  const previous = (await store.pulls(provider)).at(-1)!;
  return store.appendPull({
    provider,
    started: finished,
    finished,
    url: previous.url,
    outcome: 'failed',
    error: 'connect ECONNREFUSED 127.0.0.1:443',
    documents: previous.documents.map((d) => ({ ...d, outcome: 'failed', attempts: 3, error: 'connect ECONNREFUSED 127.0.0.1:443' })),
    schemas: [],
    findings: [],
  });
}

const vuln = (id: string, extra: Record<string, unknown>) => ({ providerTrackingId: id, detection: { detectedAt: '2026-09-20T00:00:00Z' }, ...extra });
/** Class B: due 2026-09-29 (N4, internet-reachable, likely exploitable). */
const VG_A = vuln('VG-A', { evaluationCompletedAt: '2026-09-21T00:00:00Z', isInternetReachable: true, isLikelyExploitable: true, currentRating: 4 });
/** Class B: due 2027-04-01 (N2). */
const VG_B = vuln('VG-B', { evaluationCompletedAt: '2026-09-21T00:00:00Z', isInternetReachable: false, isLikelyExploitable: false, currentRating: 2 });

const sdr = (statuses: string[]) => ({ keySecurityIndicators: statuses.map((s, i) => ({ ksiId: `KSI-X-${i + 1}`, ksiImplementationStatus: s })) });
const cpo = (id: string, type: string) => ({ serviceIdentification: { fedRampPackageId: id, certificationType: type } });

/** acme: pulled on 2026-09-22, unreachable on 2026-10-15, pulled again on 2027-01-20 with one vulnerability remediated. */
async function acmePulls(store: InMemoryAgencyStore): Promise<void> {
  await recordPull(store, 'acme', '2026-09-22T00:00:00Z', {
    cpo: cpo('FR2611250001', '20x'),
    sdr: sdr(['Implemented', 'Partially Implemented', 'Not Implemented']),
    ocr: { reportPeriod: { from: '2026-07-01', to: '2026-09-30' } },
    vdr: { vulnerabilities: [VG_A, VG_B] },
  });
  await recordFailedPull(store, 'acme', '2026-10-15T00:00:00Z');
  await recordPull(store, 'acme', '2027-01-20T00:00:00Z', {
    cpo: cpo('FR2611250001', '20x'),
    sdr: sdr(['Implemented', 'Implemented', 'Not Implemented']),
    vdr: { vulnerabilities: [{ ...VG_A, finalDisposition: 'Remediated' }, VG_B] },
  });
}

/** evil: its documents carry script and quotes where a string goes. */
async function evilPulls(store: InMemoryAgencyStore): Promise<void> {
  await recordPull(
    store,
    'evil',
    '2027-01-19T00:00:00Z',
    {
      cpo: cpo(`FR"'${SCRIPT}`, `${SCRIPT} & 'Rev5'`),
      sdr: sdr(['Implemented']),
      vdr: { vulnerabilities: [{ ...VG_A, providerTrackingId: `"><img src=x onerror=alert(1)>` }] },
      incidents: [{ providerTrackingId: `INC-${SCRIPT}`, reportType: `Initial"'`, incidentDescription: SCRIPT }],
    },
    { base: EVIL_BASE, findings: [{ level: 'action', rule: 'CDS-CSO-FID', code: 'fedramp-id-mismatch', message: `the CPO says ${SCRIPT}` }] },
  );
}

describe('PortfolioReport', () => {
  it("puts svc agency status's rows on the page as they are, and each provider's trend over its pulls", async () => {
    const d = doubles([ACME, EVIL, IDLE], 'Dept of Examples');
    await acmePulls(d.agency);
    await evilPulls(d.agency);

    const result = await d.container.resolve(PortfolioReport).execute({ out: 'out/portfolio.html' });

    const status = await d.container.resolve(AgencyStatus).execute({ now: new Date('2027-01-21T08:00:00Z') });
    const page = d.writer.files.get('out/portfolio.html')!;
    expect(result).toEqual({
      out: 'out/portfolio.html',
      providers: 3,
      needingAction: 3,
      file: { name: 'portfolio.html', sha256: createHash('sha256').update(page).digest('hex'), bytes: Buffer.byteLength(page) },
    });
    const model = d.html.seen!;
    expect(model).toEqual({
      title: 'Portfolio of Dept of Examples',
      tool: { name: 'svc', version: '0.5.0' },
      generatedAt: '2027-01-21T08:00:00Z',
      now: '2027-01-21T08:00:00.000Z',
      rules: status.rules,
      agency: 'Dept of Examples',
      providers: [
        {
          status: status.providers[0],
          trend: [
            { seq: 1, at: '2026-09-22T00:00:00Z', outcome: 'ok', ksis: { implemented: 1, listed: 3 }, vulnerabilities: { open: 2, overdue: 0 } },
            { seq: 2, at: '2026-10-15T00:00:00Z', outcome: 'failed', ksis: { implemented: 1, listed: 3 }, vulnerabilities: { open: 2, overdue: 1 } },
            { seq: 3, at: '2027-01-20T00:00:00Z', outcome: 'ok', ksis: { implemented: 2, listed: 3 }, vulnerabilities: { open: 1, overdue: 0 } },
          ],
        },
        {
          status: status.providers[1],
          trend: [{ seq: 1, at: '2027-01-19T00:00:00Z', outcome: 'ok', ksis: { implemented: 1, listed: 1 }, vulnerabilities: { open: 1, overdue: 1 } }],
        },
        { status: status.providers[2], trend: [] },
      ],
      needingAction: 3,
    });
    expect(status.providers.map((r) => r.provider)).toEqual(['acme', 'evil', 'idle']);
    expect(status.providers[2].actions).toEqual(['never pulled: run svc agency pull idle']);
    expect(page.match(/<p class="no-data">No data: idle was never pulled.<\/p>/g)).toHaveLength(2);
    expect(page.match(/<svg /g)).toHaveLength(4);
  });

  it('reads one provider at a time, each distinct SDR and VDR once for the trend, beside what status reads', async () => {
    const d = doubles([ACME, EVIL]);
    await acmePulls(d.agency);
    await evilPulls(d.agency);
    d.agency.log.length = 0;
    await d.container.resolve(AgencyStatus).execute({});
    const statusLog = [...d.agency.log];
    d.agency.log.length = 0;

    await d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html' });

    const trendLog = d.agency.log.slice(statusLog.length);
    expect(d.agency.log.slice(0, statusLog.length)).toEqual(statusLog);
    const acme = await d.agency.pulls('acme');
    const evil = await d.agency.pulls('evil');
    const sha = (pull: AgencyPull, name: PulledDocumentName) => pull.documents.find((x) => x.name === name)!.stored!.sha256;
    expect(trendLog).toEqual([
      'pulls acme',
      `read ${sha(acme[0], 'sdr')}`,
      `read ${sha(acme[0], 'vdr')}`,
      `read ${sha(acme[2], 'sdr')}`,
      `read ${sha(acme[2], 'vdr')}`,
      'pulls evil',
      `read ${sha(evil[0], 'sdr')}`,
      `read ${sha(evil[0], 'vdr')}`,
    ]);
  });

  it('judges at --now, and stamps the page with the clock', async () => {
    const d = doubles([ACME]);
    await acmePulls(d.agency);
    await d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html', now: new Date('2027-05-01T00:00:00Z') });
    const model = d.html.seen!;
    expect([model.title, model.generatedAt, model.now]).toEqual(['Agency portfolio', '2027-01-21T08:00:00Z', '2027-05-01T00:00:00.000Z']);
    const status = await d.container.resolve(AgencyStatus).execute({ now: new Date('2027-05-01T00:00:00Z') });
    expect(model.providers.map((p) => p.status)).toEqual(status.providers);
    // The trend judges each pull at its own time, whatever --now says.
    expect(model.providers[0].trend.map((p) => p.vulnerabilities)).toEqual([
      { open: 2, overdue: 0 },
      { open: 2, overdue: 1 },
      { open: 1, overdue: 0 },
    ]);
  });

  it('escapes every string a hostile provider wrote, and names it only as text', async () => {
    const d = doubles([EVIL]);
    await evilPulls(d.agency);
    await d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html' });
    const page = d.writer.files.get('portfolio.html')!;
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<img');
    expect(page).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Rev5&#39;');
    expect(page).toContain('FR&quot;&#39;&lt;script&gt;');
    expect(page).toContain('incident INC-&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; open (Initial&quot;&#39; report)');
    expect(page).toContain('CDS-CSO-FID: the CPO says &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('says why a chart or the actions have nothing to show: nothing to act on, no class to judge vulnerabilities by, no SDR pulled', async () => {
    const d = doubles([{ ...ACME, class: undefined }]);
    await recordPull(d.agency, 'acme', '2027-01-20T00:00:00Z', { vdr: { vulnerabilities: [VG_A] } });
    await d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html' });
    expect(d.html.seen!.providers[0].trend).toEqual([{ seq: 1, at: '2027-01-20T00:00:00Z', outcome: 'ok' }]);
    const page = d.writer.files.get('portfolio.html')!;
    expect(page.match(/<p class="no-data">No data: [^<]*<\/p>/g)).toEqual([
      '<p class="no-data">No data: nothing to act on.</p>',
      '<p class="no-data">No data: no SDR was pulled.</p>',
      '<p class="no-data">No data: no class to judge by (svc agency add --class).</p>',
    ]);
  });

  it('refuses, as status does, when no provider is configured, and writes nothing', async () => {
    const d = doubles([]);
    await expect(d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html' })).rejects.toThrow(
      '/work/svc.config.json: agency.providers names no provider; add one with svc agency add <name> --url <trust center>',
    );
    expect([...d.writer.files.keys()]).toEqual([]);
  });

  it('leaves nothing behind when the page cannot be written', async () => {
    const d = doubles([ACME]);
    await acmePulls(d.agency);
    d.writer.failWriting = 'portfolio.html';
    await expect(d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html' })).rejects.toThrow('injected failure writing portfolio.html');
    expect([...d.writer.files.keys()]).toEqual([]);
  });

  it('refuses an out path that is a directory, with the writer’s one line, before reading any provider', async () => {
    const d = doubles([ACME]);
    await acmePulls(d.agency);
    d.agency.log.length = 0;
    d.writer.files.set('out/other.html', '');
    await expect(d.container.resolve(PortfolioReport).execute({ out: 'out' })).rejects.toThrow(
      'out: is a directory, expected a file path; name the file to write',
    );
    expect(d.agency.log).toEqual([]);
  });

  it('names an older stored document that is not JSON, or is gone, by its digest', async () => {
    const d = doubles([ACME]);
    await recordPull(d.agency, 'acme', '2026-09-22T00:00:00Z', { sdr: sdr(['Implemented']) });
    const broken = await recordPull(d.agency, 'acme', '2026-10-15T00:00:00Z', { sdr: '{"keySecurityIndicators": [' });
    await recordPull(d.agency, 'acme', '2027-01-20T00:00:00Z', { sdr: sdr(['Implemented', 'Implemented']) });
    const sha = broken.documents[0].stored!.sha256;
    await expect(d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html' })).rejects.toThrow(
      `the agency store's document ${sha} is not JSON; pull the provider again`,
    );
    d.agency.documents.delete(sha);
    await expect(d.container.resolve(PortfolioReport).execute({ out: 'portfolio.html' })).rejects.toThrow(`no document ${sha} in the agency store`);
    expect([...d.writer.files.keys()]).toEqual([]);
  });
});
