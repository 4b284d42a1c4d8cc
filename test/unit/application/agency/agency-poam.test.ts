import { createHash } from 'node:crypto';
import { AgencyPoam } from '../../../../src/application/agency/agency-poam';
import { agencyContainer, recordPull, twoPulls, ACME, PULL_1, PULL_2 } from './agency-fixtures';

const sha = (json: unknown) => createHash('sha256').update(JSON.stringify(json)).digest('hex');
const NOW = new Date('2027-01-21T00:00:00Z');

describe('AgencyPoam (svc agency poam)', () => {
  it("writes one item per vulnerability of the current VDR and AVI, due dates and overdue recomputed, not the provider's", async () => {
    const { container, agency, writer } = agencyContainer();
    await twoPulls(agency);
    const r = await container.resolve(AgencyPoam).execute({ provider: 'acme', format: 'json', out: 'poam.json', now: NOW });
    const vdr = { url: 'https://trust.acme.example/fedramp/vdr', sha256: sha(PULL_2.vdr), fetchedAt: '2027-01-20T00:00:00Z' };
    const avi = { url: 'https://trust.acme.example/fedramp/avi', sha256: sha(PULL_2.avi), fetchedAt: '2027-01-20T00:00:00Z' };
    expect({ ...r, file: undefined }).toEqual({
      provider: 'acme',
      fedrampId: 'FR2611250001',
      class: 'B',
      now: '2027-01-21T00:00:00Z',
      format: 'json',
      out: 'poam.json',
      file: undefined,
      vdr,
      avi,
      rows: 5,
      open: 4,
      overdue: 3,
    });
    const json = JSON.parse(writer.files.get('poam.json')!);
    expect(Object.keys(json)).toEqual(['avi', 'class', 'fedrampId', 'now', 'provider', 'rows', 'schema', 'vdr']);
    expect(json.schema).toBe('svc.agency-poam/v1');
    const rows = json.rows.map((i: Record<string, unknown>) => [
      i.poam_id,
      i.status,
      i.overdue,
      i.risk_rating,
      i.original_detection_date,
      i.scheduled_completion_date,
      i.remediation_plan,
    ]);
    expect(rows).toEqual([
      [
        'VG-000000000000000a',
        'Open',
        true,
        'High',
        '2026-09-20',
        '2026-09-29',
        'The provider mitigates or remediates it by 2026-09-29T00:00:00Z (VDR-TFR-PVR).',
      ],
      [
        'VG-000000000000000b',
        'Open',
        true,
        'Moderate',
        '2026-09-28',
        '2026-12-02',
        'The provider mitigates or remediates it by 2026-12-02T00:00:00Z (VDR-TFR-PVR).',
      ],
      ['VG-000000000000000c', 'Closed', false, 'Low', '2026-09-20', '2027-04-06', "Remediated (the provider's final disposition)."],
      ['VG-000000000000000d', 'Open', true, 'Moderate', '2027-01-02', '2027-01-09', 'The provider evaluates it by 2027-01-09T00:00:00Z (VER-TFR-EVU).'],
      ['VG-000000000000000e', 'Open', false, 'Low', '2026-05-30', '2026-12-10', 'Risk accepted by the provider: A compensating control | WAF rule 7.'],
    ]);
    expect(json.rows[0].weakness_description).toBe(
      `Weakness VG-000000000000000a Evaluated 2026-09-21T00:00:00Z: internet-reachable, likely exploitable, N4. Overdue as svc recomputes it: N4 not mitigated or remediated by 2026-09-29T00:00:00Z (VDR-TFR-PVR). The provider reports it as not overdue. From acme (FedRAMP ID FR2611250001)'s VDR vulnerabilities[0], SHA-256 ${vdr.sha256}.`,
    );
    expect(json.rows[0].weakness_source).toBe(`acme (FedRAMP ID FR2611250001) VDR ${vdr.sha256}`);
    expect(json.rows[4].weakness_source).toBe(`acme (FedRAMP ID FR2611250001) AVI ${avi.sha256}`);
  });

  it('escapes a hostile description in the CSV (no formula, no broken record)', async () => {
    const { container, agency, writer } = agencyContainer();
    await twoPulls(agency);
    await container.resolve(AgencyPoam).execute({ provider: 'acme', format: 'csv', out: 'poam.csv', now: NOW });
    const csv = writer.files.get('poam.csv')!;
    expect(csv.startsWith('\uFEFFPOAM ID,Controls,Weakness Name,Weakness Description,')).toBe(true);
    const v = sha(PULL_2.vdr);
    const record = csv.split('\r\n').find((line) => line.startsWith('VG-000000000000000d'));
    expect(record).toBe(
      `VG-000000000000000d,RA-5,"VG-000000000000000d =HYPERLINK(""http://evil.example"")|<b>x</b> # not a heading","'=HYPERLINK(""http://evil.example"")|<b>x</b>\n# not a heading Not evaluated yet. Overdue as svc recomputes it: not evaluated within 7 days of detection (VER-TFR-EVU, due 2027-01-09T00:00:00Z). The provider reports it as not overdue. From acme (FedRAMP ID FR2611250001)'s VDR vulnerabilities[3], SHA-256 ${v}.",acme (FedRAMP ID FR2611250001) VDR ${v},VG-000000000000000d,acme (FedRAMP ID FR2611250001),acme,,The provider evaluates it by 2027-01-09T00:00:00Z (VER-TFR-EVU).,2027-01-02,2027-01-09,1. Evaluation (VER-TFR-EVU) (due 2027-01-09),,2027-01-02,No,,,Moderate,Moderate,No,No,No,,,Overdue since 2027-01-09,No,,,,,Open`,
    );
    expect(csv.split('\r\n')).toHaveLength(7); // the header, five records, and the empty tail after the last CRLF
  });

  it('writes the template as .xlsx', async () => {
    const { container, agency, writer } = agencyContainer();
    await twoPulls(agency);
    const r = await container.resolve(AgencyPoam).execute({ provider: 'acme', format: 'xlsx', out: 'poam.xlsx', now: NOW });
    expect(writer.files.get('poam.xlsx')!.slice(0, 2)).toBe('PK');
    expect(r.rows).toBe(5);
  });

  it('takes the FedRAMP ID from the CPO when the configuration gives none, and says when there is no VDR', async () => {
    const { container, agency, writer } = agencyContainer([{ ...ACME, fedrampId: undefined }]);
    await recordPull(agency, 'acme', '2026-10-01T00:00:00Z', { cpo: PULL_1.cpo, vdr: PULL_1.vdr });
    const r = await container.resolve(AgencyPoam).execute({ provider: 'acme', format: 'json', out: 'p.json', now: NOW });
    expect([r.fedrampId, r.rows, r.avi]).toEqual(['FR2611250001', 3, undefined]);
    expect(JSON.parse(writer.files.get('p.json')!).rows[0].asset_identifier).toBe('acme (FedRAMP ID FR2611250001)');
    const bare = agencyContainer();
    await recordPull(bare.agency, 'acme', '2026-10-01T00:00:00Z', { cpo: PULL_1.cpo });
    await expect(bare.container.resolve(AgencyPoam).execute({ provider: 'acme', format: 'csv', out: 'p.csv' })).rejects.toThrow(
      'provider "acme": no pull has got its VDR or AVI; run `svc agency pull acme` (its trust center must grant the agency /fedramp/vdr)',
    );
    await expect(bare.container.resolve(AgencyPoam).execute({ provider: 'zeta', format: 'csv', out: 'p.csv' })).rejects.toThrow(
      'provider "zeta" has never been pulled; run `svc agency pull zeta` first',
    );
  });
});
