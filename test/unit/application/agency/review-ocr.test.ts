import { ReviewOcr, reviewSignedBytes, pulledOcrs } from '../../../../src/application/agency/review-ocr';
import { fromBase64 } from '../../../../src/domain/encoding/base64';
import { SIGNER } from '../../../../src/ports/signer';
import type { InMemorySigner } from '../../../fakes/in-memory-signer';
import { agencyContainer, recordPull, twoPulls, PULL_1 } from './agency-fixtures';

describe('ReviewOcr (svc agency review)', () => {
  it('records a signed review of the OCR pulled for the period, by the key given', async () => {
    const { container, agency } = agencyContainer();
    await twoPulls(agency);
    const result = await container
      .resolve(ReviewOcr)
      .execute({ provider: 'acme', periodEnd: '2026-09-30', reviewer: 'J. Doe', note: 'Looked fine', key: '/keys/agency.pem' });
    const signer = container.resolve(SIGNER) as InMemorySigner;
    const key = await signer.load('/keys/agency.pem');
    const [stored] = await agency.reviews('acme');
    const ocrSha = (await agency.pulls('acme'))[0].documents.find((d) => d.name === 'ocr')!.stored!.sha256;
    expect(stored).toEqual({
      provider: 'acme',
      ocrPeriodEnd: '2026-09-30',
      ocrSha256: ocrSha,
      reviewedAt: '2026-11-20T12:00:00Z',
      reviewer: 'J. Doe',
      note: 'Looked fine',
      signature: { keyid: key.keyid, alg: 'EdDSA', sig: expect.any(String), publicJwk: key.publicJwk },
    });
    expect(signer.loaded).toEqual(['/keys/agency.pem', '/keys/agency.pem']);
    // The signature verifies over PAE(type, canonical review without signature), and over nothing else.
    expect(signer.verify(key.publicJwk, reviewSignedBytes(stored), fromBase64(stored.signature.sig))).toBe(true);
    expect(signer.verify(key.publicJwk, reviewSignedBytes({ ...stored, note: 'changed' }), fromBase64(stored.signature.sig))).toBe(false);
    expect(new TextDecoder().decode(reviewSignedBytes(stored))).toBe(
      `DSSEv1 38 application/vnd.svc.agency-review+json 203 {"note":"Looked fine","ocrPeriodEnd":"2026-09-30","ocrSha256":"${ocrSha}","provider":"acme","reviewedAt":"2026-11-20T12:00:00Z","reviewer":"J. Doe"}`,
    );
    expect(result.earlier).toEqual([]);
    expect(result.ocr).toEqual({ seq: 1, url: 'https://trust.acme.example/fedramp/ocr', fetchedAt: '2026-10-01T00:00:00Z' });
  });

  it('records a second review beside the first and lists the first', async () => {
    const { container, agency } = agencyContainer();
    await twoPulls(agency);
    const first = await container.resolve(ReviewOcr).execute({ provider: 'acme', periodEnd: '2026-12-31' });
    const second = await container.resolve(ReviewOcr).execute({ provider: 'acme', periodEnd: '2026-12-31' });
    expect(second.earlier).toEqual([first.review]);
    expect(await agency.reviews('acme')).toEqual([first.review, second.review]);
    expect(first.review).not.toHaveProperty('note');
    expect(first.review).not.toHaveProperty('reviewer');
  });

  it('lists the periods pulled when the period is not among them', async () => {
    const { container, agency } = agencyContainer();
    await twoPulls(agency);
    await expect(container.resolve(ReviewOcr).execute({ provider: 'acme', periodEnd: '2026-06-30' })).rejects.toThrow(
      'provider "acme": no pulled OCR has a reporting period ending 2026-06-30; the periods pulled end 2026-09-30, 2026-12-31',
    );
    expect(await agency.reviews('acme')).toEqual([]);
  });

  it('says to pull a provider never pulled', async () => {
    const { container } = agencyContainer();
    await expect(container.resolve(ReviewOcr).execute({ provider: 'zeta', periodEnd: '2026-09-30' })).rejects.toThrow(
      'provider "zeta" has never been pulled; run `svc agency pull zeta` first',
    );
  });

  it('says so when no pull got an OCR', async () => {
    const { container, agency } = agencyContainer();
    await recordPull(agency, 'acme', '2026-10-01T00:00:00Z', { cpo: PULL_1.cpo, ocr: { reportPeriod: 'Q3' } });
    await expect(container.resolve(ReviewOcr).execute({ provider: 'acme', periodEnd: '2026-09-30' })).rejects.toThrow(
      'provider "acme": no pull has got an OCR with a reporting period; run `svc agency pull acme` once it publishes one',
    );
  });

  it('keeps the newest bytes of a period the provider republished', async () => {
    const { agency } = agencyContainer();
    await recordPull(agency, 'acme', '2026-10-01T00:00:00Z', { ocr: PULL_1.ocr });
    await recordPull(agency, 'acme', '2026-10-02T00:00:00Z', { ocr: { ...PULL_1.ocr, transformativeChanges: ['corrected'] } });
    const ocrs = await pulledOcrs(agency, await agency.pulls('acme'));
    expect(ocrs.map((o) => [o.periodStart, o.periodEnd, o.seq])).toEqual([['2026-07-01', '2026-09-30', 2]]);
  });
});
