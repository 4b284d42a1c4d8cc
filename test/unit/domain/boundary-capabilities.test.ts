import {
  BOUNDARY_FEATURES,
  boundaryEndpoints,
  boundaryGaps,
  type EndpointProbe,
  featureAvailability,
} from '../../../src/domain/directory/boundary-capabilities';

const probe = (name: string, reachable: boolean | null): EndpointProbe => ({
  name,
  url: `https://${name}.example/`,
  reachable,
  status: reachable ? 200 : null,
  latency_ms: reachable ? 5 : null,
  ...(reachable === false ? { error: 'connect ECONNREFUSED' } : {}),
});

describe('boundary capabilities', () => {
  it('maps each environment to the sign-in and Graph hosts of its cloud', () => {
    expect(boundaryEndpoints('Commercial').map((e) => e.url)).toEqual([
      'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration',
      'https://graph.microsoft.com/v1.0/$metadata',
    ]);
    expect(boundaryEndpoints('GCC')).toEqual(boundaryEndpoints('Commercial'));
    expect(boundaryEndpoints('GCCHigh').map((e) => new URL(e.url).host)).toEqual(['login.microsoftonline.us', 'graph.microsoft.us']);
    expect(boundaryEndpoints('DoD').map((e) => new URL(e.url).host)).toEqual(['login.microsoftonline.us', 'dod-graph.microsoft.us']);
  });

  it('names a Microsoft source for every feature and has unique ids', () => {
    expect(new Set(BOUNDARY_FEATURES.map((f) => f.id)).size).toBe(BOUNDARY_FEATURES.length);
    expect(featureAvailability('DoD').every((f) => f.source.startsWith('https://learn.microsoft.com/'))).toBe(true);
  });

  it('reports unknown, not offered, unconfirmed and unreachable features, in the order required, once each', () => {
    const gaps = boundaryGaps('GCCHigh', [
      'quantum-vault',
      'conditional-access',
      'lifecycle-workflows',
      'microsoft-365-copilot',
      'my-staff',
      'lifecycle-workflows',
    ]);
    expect(gaps.map((g) => [g.feature, g.reason])).toEqual([
      ['quantum-vault', 'unknown-feature'],
      ['lifecycle-workflows', 'not-offered'],
      ['microsoft-365-copilot', 'unconfirmed'],
      ['my-staff', 'not-offered'],
    ]);
    expect(gaps[3].detail).toBe(
      'Delegated user management portal (My Staff) is not offered in GCCHigh (https://learn.microsoft.com/entra/identity/authentication/feature-availability)',
    );
    expect(boundaryGaps('Commercial', ['lifecycle-workflows', 'my-staff'])).toEqual([]);
  });

  it('counts a feature unreachable when an endpoint it uses did not answer, and not when unprobed', () => {
    const down = [probe('authority', true), probe('graph', false)];
    expect(boundaryGaps('GCC', ['intune', 'conditional-access'], down)).toEqual([
      {
        feature: 'conditional-access',
        reason: 'unreachable',
        detail: 'Conditional Access: the last probe could not reach graph https://graph.example/ (connect ECONNREFUSED)',
      },
    ]);
    expect(boundaryGaps('GCC', ['conditional-access'], [probe('authority', null), probe('graph', null)])).toEqual([]);
    expect(featureAvailability('GCC', down).find((f) => f.id === 'intune')?.reachable).toBe(true);
    expect(featureAvailability('GCC').find((f) => f.id === 'intune')?.reachable).toBeNull();
  });
});
