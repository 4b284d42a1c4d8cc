import { createHash } from 'node:crypto';
import { DiffProvider } from '../../../../src/application/agency/diff-provider';
import { providerDiffMarkdown } from '../../../../src/domain/agency/provider-diff';
import { agencyContainer, recordPull, twoPulls, ACME, PULL_1, PULL_2 } from './agency-fixtures';

const sha = (json: unknown) => createHash('sha256').update(JSON.stringify(json)).digest('hex').slice(0, 12);

describe('DiffProvider (svc agency diff)', () => {
  it('compares the last two pulls by default, overdue recomputed at each pull', async () => {
    const { container, agency } = agencyContainer();
    await twoPulls(agency);
    const diff = await container.resolve(DiffProvider).execute({ provider: 'acme' });
    const changed = (['avi', 'cpo', 'incidents', 'ocr', 'scn', 'sdr', 'vdr'] as const).map((n) => `${n} (${sha(PULL_1[n])} → ${sha(PULL_2[n])})`).join(', ');
    expect(providerDiffMarkdown(diff)).toBe(
      [
        '# Changes at acme',
        '',
        'From pull 1 (2026-10-01T00:00:00Z, OCR for the period ending 2026-09-30) to pull 2 (2027-01-20T00:00:00Z, OCR for the period ending 2026-12-31).',
        '',
        `Documents changed: ${changed}.`,
        '',
        '## Key Security Indicators',
        '',
        '| KSI | Was | Now |',
        '| --- | --- | --- |',
        '| KSI-CNA-RNT | not listed | Not Implemented |',
        '| KSI-IAM-MFA | Partially Implemented | Implemented |',
        '',
        '## FedRAMP requirements',
        '',
        'No change.',
        '',
        '## Vulnerabilities',
        '',
        'Overdue as svc recomputes it from the VDR and AVI at each pull, not as the provider marks it.',
        '',
        'New:',
        '',
        '- VG-000000000000000d (not rated; vdr vulnerabilities\\[3\\])',
        '- VG-000000000000000e (N2; avi acceptedVulnerabilities\\[0\\].vulnerabilityDetail)',
        '',
        'Remediated:',
        '',
        '- VG-000000000000000c (N2; vdr vulnerabilities\\[2\\]): Remediated',
        '',
        'Accepted:',
        '',
        '- VG-000000000000000e (N2; avi acceptedVulnerabilities\\[0\\].vulnerabilityDetail)',
        '',
        'Newly overdue:',
        '',
        '- VG-000000000000000b (N3; vdr vulnerabilities\\[1\\]): N3 not mitigated or remediated by 2026-12-02T00:00:00Z (VDR-TFR-PVR)',
        '- VG-000000000000000d (not rated; vdr vulnerabilities\\[3\\]): not evaluated within 7 days of detection (VER-TFR-EVU, due 2027-01-09T00:00:00Z)',
        '',
        '## Incidents',
        '',
        'Updated:',
        '',
        '- INC-1: Phishing of an operator (Initial → Final report, 1 → 2 reports; affects Dept of Examples, resolved 2026-12-20T00:00:00Z)',
        '',
        '## Significant Change Notifications',
        '',
        'New:',
        '',
        '- Transformative: Move to *Kubernetes* (planned completion 2027-02-01)',
        '',
        '## CPO fields',
        '',
        '| Field | Was | Now |',
        '| --- | --- | --- |',
        '| serviceProperties.nextOngoingCertificationReportDate | "2026-12-31" | "2027-03-31" |',
        '',
      ].join('\n'),
    );
    // VG-a was overdue at both pulls (N4, due 2026-09-29): not newly overdue, whatever the provider's overdueStatus says.
    expect(diff.vulnerabilities.newlyOverdue.map((v) => v.id)).toEqual(['VG-000000000000000b', 'VG-000000000000000d']);
  });

  it('names pulls by number or by OCR period end (the pull that first got that OCR)', async () => {
    const { container, agency } = agencyContainer();
    await twoPulls(agency);
    await recordPull(agency, 'acme', '2027-02-01T00:00:00Z', PULL_2);
    const diff = container.resolve(DiffProvider);
    expect((await diff.execute({ provider: 'acme' })).documents).toEqual([]);
    const byPeriod = await diff.execute({ provider: 'acme', from: '2026-09-30', to: '2026-12-31' });
    expect([byPeriod.from.seq, byPeriod.to.seq]).toEqual([1, 2]);
    const byNumber = await diff.execute({ provider: 'acme', from: '1', to: '3' });
    expect([byNumber.from, byNumber.to]).toEqual([
      { seq: 1, pulledAt: '2026-10-01T00:00:00Z', ocrPeriodEnd: '2026-09-30' },
      { seq: 3, pulledAt: '2027-02-01T00:00:00Z', ocrPeriodEnd: '2026-12-31' },
    ]);
    expect((await diff.execute({ provider: 'acme', to: '2' })).from.seq).toBe(1);
  });

  it.each([
    [{ from: '4' }, '--from 4: provider "acme" has pulls 1 to 2; give one of them or an OCR period end'],
    [
      { to: '2026-06-30' },
      '--to 2026-06-30: provider "acme" has no pulled OCR for the period ending 2026-06-30; the periods pulled end 2026-09-30, 2026-12-31',
    ],
    [{ from: 'last' }, "--from last: expected a pull number such as 3 or an OCR's reporting period end such as 2026-09-30"],
    [{ from: '2', to: '1' }, "--from names pull 2, which is not before --to's pull 1; give the older pull as --from"],
    [{ from: '2', to: '2' }, "--from names pull 2, which is not before --to's pull 2; give the older pull as --from"],
    [{ to: '1' }, 'provider "acme" has no pull before pull 1 to compare it with; run `svc agency pull acme` again later, or give --from'],
  ])('refuses %j', async (flags, message) => {
    const { container, agency } = agencyContainer();
    await twoPulls(agency);
    await expect(container.resolve(DiffProvider).execute({ provider: 'acme', ...flags })).rejects.toThrow(message);
  });

  it('needs two pulls, and a pulled provider', async () => {
    const { container, agency } = agencyContainer();
    await recordPull(agency, 'acme', '2026-10-01T00:00:00Z', PULL_1);
    await expect(container.resolve(DiffProvider).execute({ provider: 'acme' })).rejects.toThrow(
      'provider "acme" has no pull before pull 1 to compare it with; run `svc agency pull acme` again later, or give --from',
    );
    await expect(container.resolve(DiffProvider).execute({ provider: 'zeta' })).rejects.toThrow(
      'provider "zeta" has never been pulled; run `svc agency pull zeta` first',
    );
  });

  it('reads the class the trust center states when the configuration gives none, and refuses when neither does', async () => {
    const unclassed = { ...ACME, class: undefined };
    const stated = agencyContainer([unclassed]);
    await recordPull(stated.agency, 'acme', '2026-10-01T00:00:00Z', { ...PULL_1, public: { trustCenter: { certificationClass: 'D' } } });
    await recordPull(stated.agency, 'acme', '2026-10-03T00:00:00Z', PULL_1);
    // Class D evaluates within 2 days: VG-b (detected 2026-09-28, evaluated 2026-09-29) is on time, VG-a's N4 is overdue.
    expect((await stated.container.resolve(DiffProvider).execute({ provider: 'acme' })).vulnerabilities).toEqual({
      new: [],
      remediated: [],
      accepted: [],
      newlyOverdue: [],
    });
    const none = agencyContainer([unclassed]);
    await recordPull(none.agency, 'acme', '2026-10-01T00:00:00Z', PULL_1);
    await recordPull(none.agency, 'acme', '2026-10-03T00:00:00Z', PULL_1);
    await expect(none.container.resolve(DiffProvider).execute({ provider: 'acme' })).rejects.toThrow(
      'provider "acme": its certification class is unknown (FedRAMP\'s documents carry none and its trust center states none); set "class" (A, B, C or D) on it in agency.providers[] of /work/svc.config.json',
    );
  });
});
