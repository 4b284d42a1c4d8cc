import { createHash } from 'node:crypto';
import { DraftNotice } from '../../../../src/application/agency/draft-notice';
import { agencyContainer, recordPull, twoPulls, PULL_1, PULL_2 } from './agency-fixtures';

const sha = (json: unknown) => createHash('sha256').update(JSON.stringify(json)).digest('hex');

describe('DraftNotice (svc agency notice)', () => {
  it("drafts the notice to FedRAMP of the latest pull's action findings and the overdue vulnerabilities, each cited", async () => {
    const { container, agency } = agencyContainer(undefined, { agency: 'Dept of Examples' });
    await twoPulls(agency);
    const r = await container.resolve(DraftNotice).execute({ provider: 'acme', to: 'fedramp', now: new Date('2027-01-21T00:00:00Z') });
    const vdr = `   - Document: vdr, https://trust.acme.example/fedramp/vdr, SHA-256 ${sha(PULL_2.vdr)}`;
    expect(r.markdown).toBe(
      [
        '# Notification of concerns about acme',
        '',
        '- To: FedRAMP: Report Concerns on Ongoing Certifications (form: https://help.fedramp.gov/hc/en-us/requests/new?ticket_form_id=51821301979547)',
        '- From: Dept of Examples',
        '- Rule: AGU-USE-NFC Notify FedRAMP of Monitoring Concerns (MUST)',
        '- Provider: acme, FedRAMP ID FR2611250001, trust center https://trust.acme.example',
        "- Drafted: 2027-01-21T00:00:00Z, from pull 2 (2027-01-20T00:00:00Z); overdue vulnerabilities recomputed by svc from the provider's VDR and AVI, not taken from its overdueStatus",
        '',
        '## Concerns',
        '',
        '1. CCM-OCR-NRD (ocr-late): the OCR for the period ending 2026-12-31 was due &lt;by> 2027-01-15 and has not been published',
        `   - Document: ocr, https://trust.acme.example/fedramp/ocr, SHA-256 ${sha(PULL_2.ocr)}`,
        '   - Field: reportPeriod.to',
        '2. VDR-TFR-PVR (vulnerability-overdue): VG-000000000000000a (N4) is overdue as svc recomputes it: N4 not mitigated or remediated by 2026-09-29T00:00:00Z (VDR-TFR-PVR); the provider reports it as not overdue',
        vdr,
        '   - Field: vulnerabilities\\[0\\]',
        '3. VDR-TFR-PVR (vulnerability-overdue): VG-000000000000000b (N3) is overdue as svc recomputes it: N3 not mitigated or remediated by 2026-12-02T00:00:00Z (VDR-TFR-PVR); the provider reports it as not overdue',
        vdr,
        '   - Field: vulnerabilities\\[1\\]',
        '4. VER-TFR-EVU (vulnerability-overdue): VG-000000000000000d is overdue as svc recomputes it: not evaluated within 7 days of detection (VER-TFR-EVU, due 2027-01-09T00:00:00Z); the provider reports it as not overdue',
        vdr,
        '   - Field: vulnerabilities\\[3\\]',
        '',
      ].join('\n'),
    );
    expect(r.concerns.map((c) => c.source)).toEqual(['finding', 'overdue', 'overdue', 'overdue']);
  });

  it('says there is no concern, to the provider, and writes --out', async () => {
    const { container, agency, writer } = agencyContainer();
    const { vdr: _vdr, avi: _avi, ...rest } = PULL_1;
    await recordPull(agency, 'acme', '2026-10-01T00:00:00Z', rest, [{ level: 'notice', rule: 'svc:schema', code: 'older-generation', message: 'older' }]);
    const r = await container.resolve(DraftNotice).execute({ provider: 'acme', to: 'provider', out: 'notice.md' });
    expect(r.concerns).toEqual([]);
    expect(writer.files.get('notice.md')).toBe(
      [
        '# Notification of concerns about acme',
        '',
        "- To: Provider: The provider's security contact email or form. (varies: varies by provider)",
        '- From: the agency',
        '- Rule: AGU-USE-NPC Notify Provider of Concerns (SHOULD)',
        '- Provider: acme, FedRAMP ID FR2611250001, trust center https://trust.acme.example',
        "- Drafted: 2026-11-20T12:00:00Z, from pull 1 (2026-10-01T00:00:00Z); overdue vulnerabilities recomputed by svc from the provider's VDR and AVI, not taken from its overdueStatus",
        '',
        '## Concerns',
        '',
        "No concern: the latest pull's verification found nothing the agency must act on, and no vulnerability is overdue as svc recomputes it. There is nothing to notify.",
        '',
      ].join('\n'),
    );
    expect(r.file).toEqual({ name: 'notice.md', path: 'notice.md', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), bytes: expect.any(Number) });
  });

  it("escapes the provider's text so it reads as text", async () => {
    const { container, agency } = agencyContainer();
    await recordPull(agency, 'acme', '2026-10-01T00:00:00Z', { cpo: PULL_1.cpo }, [
      {
        level: 'action',
        rule: 'CDS-CSO-FID',
        code: 'fedramp-id-mismatch',
        document: 'cpo',
        at: 'serviceIdentification.fedRampPackageId',
        message: 'CPO says "FR1|<img src=x>"\n# [x](http://evil)',
      },
    ]);
    const r = await container.resolve(DraftNotice).execute({ provider: 'acme', to: 'fedramp' });
    expect(r.markdown.split('\n').slice(10, 11)).toEqual(['1. CDS-CSO-FID (fedramp-id-mismatch): CPO says "FR1\\|&lt;img src=x>" # \\[x\\](http://evil)']);
  });

  it('says to pull a provider never pulled', async () => {
    const { container } = agencyContainer();
    await expect(container.resolve(DraftNotice).execute({ provider: 'zeta', to: 'fedramp' })).rejects.toThrow(
      'provider "zeta" has never been pulled; run `svc agency pull zeta` first',
    );
  });
});
