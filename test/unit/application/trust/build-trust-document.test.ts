import { BuildTrustDocument } from '../../../../src/application/trust/build-trust-document';
import { WriteScn } from '../../../../src/application/fedramp/write-scn';
import { TRUST_DOCUMENT_BUILDERS } from '../../../../src/application/trust/trust-builders';
import { TRUST_DOCUMENTS, type BuildTrustDocumentInput } from '../../../../src/application/trust/trust-documents';
import { TRUST_PAGES, type TrustPages } from '../../../../src/ports/trust-pages';
import { unitContainer } from '../../../support/unit-container';

const PROFILE = { type: '20x' as const, class: 'B' as const, fedramp_id: 'FR2612345678', package_uri: 'https://trust.example.com/fedramp/cpo.json' };
const LISTING = { documents: [], authentication: [] };
const input = (document: BuildTrustDocumentInput['document'], format: 'json' | 'html' = 'json'): BuildTrustDocumentInput => ({
  document,
  format,
  listing: LISTING,
});

const trust = () => {
  const d = unitContainer({ now: '2026-11-20T12:00:00Z', profile: PROFILE });
  const pages: TrustPages & { made: number } = { made: 0, page: (page) => `<h1>${page.title}</h1><p>${(pages.made += 1)}</p>` };
  d.container.register(TRUST_PAGES, { useValue: pages });
  return { ...d, pages, build: d.container.resolve(BuildTrustDocument) };
};
const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe('BuildTrustDocument, unit: a builder per document, parts shared and built once per store state', () => {
  it('has a builder for every trust-center document', () => {
    expect(Object.keys(TRUST_DOCUMENT_BUILDERS).sort()).toEqual([...TRUST_DOCUMENTS].sort());
  });

  it('answers the OCR and the SDR with NotFoundError before anything is recorded, and an empty list of SCNs and snapshots', async () => {
    const t = trust();
    await expect(t.build.execute(input('ocr'))).rejects.toMatchObject({ code: 'no-ocr-recorded' });
    // The SDR needs profile keys this profile lacks: the server's configuration (ConfigError), not the caller's request.
    await expect(t.build.execute(input('sdr'))).rejects.toMatchObject({
      kind: 'config',
      code: 'invalid-config',
      message: expect.stringContaining('/work/svc.config.json'),
    });
    expect(text((await t.build.execute(input('scn'))).body)).toBe('[]');
    expect(JSON.parse(text((await t.build.execute(input('snapshots'))).body))).toEqual({ rule: 'CDS-CSO-HAD', snapshots: [] });
  });

  it('keeps the bytes of a state until the store is written, then builds again: the SCN recorded shows', async () => {
    const t = trust();
    const before = await t.build.execute(input('scn'));
    expect(await t.build.execute(input('scn'))).toBe(before);
    await t.container
      .resolve(WriteScn)
      .execute({ type: 'adaptive', summary: 'New region', dates: { start: '2026-11-02', finish: '2026-11-16' }, out: '/out/scn.json' });
    // StoreState asks the store again at most once a second (its clock's).
    t.clock.time = new Date('2026-11-20T12:00:02Z');
    const after = await t.build.execute(input('scn'));
    expect(after).not.toBe(before);
    expect(JSON.parse(text(after.body))).toEqual([JSON.parse(t.writer.files.get('/out/scn.json')!)]);
    expect(after.state).toMatchObject({ journal: { seq: 1 }, asOf: '2026-11-20T12:00:00Z' });
  });

  it('makes the page from the JSON of the same state, once, naming the JSON by its digest', async () => {
    const t = trust();
    const json = await t.build.execute(input('snapshots'));
    const page = await t.build.execute(input('snapshots', 'html'));
    expect(await t.build.execute(input('snapshots', 'html'))).toBe(page);
    expect(t.pages.made).toBe(1);
    expect(page).toMatchObject({ mediaType: 'text/html; charset=utf-8', document: 'snapshots', format: 'html' });
    expect(text(page.body)).toBe('<h1>Snapshots of the Certification Data (CDS-CSO-HAD)</h1><p>1</p>');
    expect(json.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses the snapshot of a period no OCR recorded', async () => {
    await expect(trust().build.snapshotBounds('2026-09-30')).rejects.toMatchObject({
      code: 'no-such-snapshot',
      message: expect.stringContaining('no Ongoing Certification Report with the period ending 2026-09-30 is recorded'),
    });
  });
});
