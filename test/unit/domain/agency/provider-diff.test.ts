import { diffProvider, providerDiffMarkdown, type DiffSide } from '../../../../src/domain/agency/provider-diff';
import type { RecomputedVulnerability } from '../../../../src/domain/agency/vulnerability-clock';

const v = (id: string, extra: Partial<RecomputedVulnerability> = {}): RecomputedVulnerability => ({
  id,
  at: 'vulnerabilities[0]',
  accepted: false,
  remediated: false,
  overdue: false,
  reasons: [],
  disagrees: false,
  unreadable: [],
  ...extra,
});

const side = (seq: number, extra: Partial<DiffSide>): DiffSide => ({
  seq,
  pulledAt: `2026-10-0${seq}T00:00:00Z`,
  documents: {},
  vulnerabilities: { vdr: [], avi: [] },
  ...extra,
});

describe('diffProvider', () => {
  it('reports what left, what lost its status, and escapes provider text', () => {
    const from = side(1, {
      documents: { sdr: 'a'.repeat(64) },
      sdr: {
        keySecurityIndicators: [
          { ksiId: 'KSI-A', ksiImplementationStatus: 'Implemented' },
          { ksiId: 'KSI-B', ksiImplementationStatus: 'Implemented' },
        ],
        fedRampRequirements: [{ frrID: 'R-1' }],
      },
      incidents: [{ providerTrackingId: 'INC|9', reportType: 'Initial', incidentDescription: '<script>x</script>' }],
      scn: [{ changeType: 'Adaptive', changeDescription: '# New MFA | provider' }],
      cpo: { serviceIdentification: { serviceName: 'Acme', logo: 'x.png' } },
      vulnerabilities: { vdr: [v('VG-1', { rating: 3 })], avi: [] },
    });
    const to = side(2, {
      documents: {},
      sdr: { keySecurityIndicators: [{ ksiId: 'KSI-A' }], fedRampRequirements: [{ frrID: 'R-1', frrImplementationStatus: 'Implemented' }] },
      cpo: { serviceIdentification: { serviceName: 'Acme [beta]' } },
    });
    const d = diffProvider('acme|x', from, to);
    expect(d.ksis).toEqual([
      { id: 'KSI-A', from: 'Implemented', to: '(no status)' },
      { id: 'KSI-B', from: 'Implemented', to: null },
    ]);
    expect(d.requirements).toEqual([{ id: 'R-1', from: '(no status)', to: 'Implemented' }]);
    expect(d.vulnerabilities.remediated).toEqual([{ id: 'VG-1', rating: 3, document: 'vdr', at: 'vulnerabilities[0]', disposition: 'no longer listed' }]);
    expect(providerDiffMarkdown(d)).toBe(
      [
        '# Changes at acme\\|x',
        '',
        'From pull 1 (2026-10-01T00:00:00Z) to pull 2 (2026-10-02T00:00:00Z).',
        '',
        `Documents changed: sdr (${'a'.repeat(12)} → none).`,
        '',
        '## Key Security Indicators',
        '',
        '| KSI | Was | Now |',
        '| --- | --- | --- |',
        '| KSI-A | Implemented | (no status) |',
        '| KSI-B | Implemented | not listed |',
        '',
        '## FedRAMP requirements',
        '',
        '| Requirement | Was | Now |',
        '| --- | --- | --- |',
        '| R-1 | (no status) | Implemented |',
        '',
        '## Vulnerabilities',
        '',
        'Overdue as svc recomputes it from the VDR and AVI at each pull, not as the provider marks it.',
        '',
        'Remediated:',
        '',
        '- VG-1 (N3; vdr vulnerabilities\\[0\\]): no longer listed',
        '',
        '## Incidents',
        '',
        'No longer listed:',
        '',
        '- INC\\|9: &lt;script>x&lt;/script> (Initial report; no agency named)',
        '',
        '## Significant Change Notifications',
        '',
        'No longer listed:',
        '',
        '- Adaptive: \\# New MFA \\| provider',
        '',
        '## CPO fields',
        '',
        '| Field | Was | Now |',
        '| --- | --- | --- |',
        '| serviceIdentification.logo | "x.png" | absent |',
        '| serviceIdentification.serviceName | "Acme" | "Acme \\[beta\\]" |',
        '',
      ].join('\n'),
    );
  });

  it('says No change. everywhere when the pulls agree', () => {
    const same = { documents: { cpo: 'b'.repeat(64) }, cpo: { a: 1 } };
    const md = providerDiffMarkdown(diffProvider('acme', side(1, same), side(2, same)));
    expect(md.split('\n').filter((l) => l === 'No change.')).toHaveLength(6);
    expect(md).toContain('No document changed.');
  });
});
