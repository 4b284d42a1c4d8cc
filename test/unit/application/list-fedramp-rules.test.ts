import { ListFedrampRules } from '../../../src/application/fedramp/list-fedramp-rules';
import type { FedrampProfile } from '../../../src/domain/fedramp/profile';
import { FixedClock } from '../../fakes/fixed-clock';
import { FixedRulesSource } from '../../fakes/fixed-rules-source';

const useCase = (profile: FedrampProfile, official: Record<string, unknown> = {}) =>
  new ListFedrampRules(
    new FixedRulesSource(undefined, official),
    { file: '/etc/svc/svc.config.json', profile },
    new FixedClock(new Date('2026-11-20T12:00:00Z')),
  );

describe('ListFedrampRules (svc fedramp rules)', () => {
  it("reads type and class from the profile, defaults path and status, and judges at the clock's time", async () => {
    const result = await useCase({ type: '20x', class: 'B' }).execute({ family: 'vdr' });
    expect(result.profile).toEqual({ type: '20x', class: 'B', path: 'program', status: 'applying', defaults: ['path', 'status'] });
    expect(result.now).toBe('2026-11-20T12:00:00Z');
    expect(result.family).toBe('VDR');
    expect(result.rules.every((r) => r.family === 'VDR' && r.effective.state === 'required_from')).toBe(true);
    expect(result.ksis).toEqual([]);
  });

  it('lets --type and --class override the profile, and keeps its path, status and next assessment', async () => {
    const result = await useCase({ type: 'rev5', class: 'D', path: 'agency', status: 'certified', next_assessment: '2027-05-15' }).execute({
      type: '20x',
      class: 'A',
      now: new Date('2027-02-01T00:00:00Z'),
    });
    expect(result.profile).toEqual({ type: '20x', class: 'A', path: 'agency', status: 'certified', next_assessment: '2027-05-15', defaults: [] });
    // FRC-CLA-MFR is for the program path: on the agency path Class A names nothing more.
    expect([result.counts.ksis, result.counts.recommended, result.counts.optional]).toEqual([0, 0, 0]);
  });

  it('names the missing profile key, the command and the flag', async () => {
    await expect(useCase({ class: 'B' }).execute({})).rejects.toMatchObject({
      code: 'invalid-config',
      message: '/etc/svc/svc.config.json: fedramp.type: missing; svc fedramp rules needs it: write "20x" or "rev5", or pass --type; see docs/configuration.md',
    });
    await expect(useCase({}).execute({ type: '20x' })).rejects.toMatchObject({
      message: expect.stringContaining('fedramp.class: missing; svc fedramp rules needs it: write A, B, C or D, or pass --class'),
    });
  });

  it('refuses a family the release does not have (usage), and reads --rules-file through the rules source', async () => {
    await expect(useCase({ type: '20x', class: 'B' }).execute({ family: 'XYZ' })).rejects.toMatchObject({ code: 'unknown-family', kind: 'usage' });
    await expect(useCase({ type: '20x', class: 'B' }).execute({ rulesFile: 'missing.json' })).rejects.toMatchObject({ code: 'file-not-found' });
  });
});
