import { cposOf, providerNameOf, providersFromCpos, trustCenterBase } from '../../../../src/domain/agency/cpo-import';

/** A CPO in FedRAMP's shape, as far as import reads it. */
const cpo = (identification: Record<string, unknown>, trustCenterUrl?: unknown) => ({
  serviceIdentification: identification,
  ...(trustCenterUrl === undefined ? {} : { serviceProperties: { trustCenter: { url: trustCenterUrl } } }),
});
const ACME = cpo({ serviceAcronym: 'ACME', serviceName: 'Acme Cloud', fedRampPackageId: 'FR2611250001' }, 'https://trust.acme.example/fedramp/cpo');

describe('cposOf: the CPOs of a file', () => {
  it('one CPO document', () => expect(cposOf(ACME)).toEqual([{ at: '$', cpo: ACME }]));

  it('a list of CPOs, skipping items that are not CPOs', () => {
    expect(cposOf([ACME, { serviceIdentification: 'x' }, 7, ACME])).toEqual([
      { at: '$[0]', cpo: ACME },
      { at: '$[3]', cpo: ACME },
    ]);
  });

  it('a marketplace export: every array of an object, by its key', () => {
    expect(cposOf({ generated: '2026-11-01', offerings: [ACME], withdrawn: [{}, ACME] })).toEqual([
      { at: '$.offerings[0]', cpo: ACME },
      { at: '$.withdrawn[1]', cpo: ACME },
    ]);
  });

  it.each([null, 'cpo', 3, {}, { serviceIdentification: [] }])('nothing in %j', (value) => expect(cposOf(value)).toEqual([]));
});

describe('trustCenterBase: the base of the CPO trust-center URL', () => {
  it.each([
    ['https://trust.acme.example', 'https://trust.acme.example'],
    ['https://trust.acme.example/', 'https://trust.acme.example'],
    ['https://trust.acme.example/fedramp', 'https://trust.acme.example'],
    ['https://trust.acme.example/fedramp/', 'https://trust.acme.example'],
    ['https://trust.acme.example/fedramp/public', 'https://trust.acme.example'],
    ['https://trust.acme.example/tc/fedramp/cpo?format=json#top', 'https://trust.acme.example/tc'],
    ['https://trust.acme.example/fedramp/a/b', 'https://trust.acme.example/fedramp/a/b'],
  ])('%s → %s', (given, base) => expect(trustCenterBase(given)).toEqual({ url: base }));

  it.each([
    ['acme', { problem: '"acme" is not a URL; give the trust center\'s base, such as https://trust.example.com' }],
    ['mailto:trust@acme.example', { problem: 'mailto: is not http or https' }],
    ['https://u:p@acme.example/fedramp', { problem: 'the URL holds credentials; give them with --auth instead' }],
  ])('%s: %j', (given, problem) => expect(trustCenterBase(given)).toEqual(problem));
});

describe('providerNameOf: a provider name from the CPO', () => {
  it.each<[Record<string, unknown>, string | undefined]>([
    [{ serviceAcronym: 'ACME', serviceName: 'Acme Cloud' }, 'acme'],
    [{ serviceName: 'Acme Cloud for Government' }, 'acme-cloud-for-government'],
    [{ serviceAcronym: '  ', serviceName: '(Acme) Cloud!' }, 'acme-cloud'],
    [{ serviceAcronym: '!!!', providerName: 'Acme, Inc.' }, 'acme-inc.'],
    [{ serviceAcronym: 7, serviceName: 'Ünïcode Cloud' }, 'n-code-cloud'],
    [{ serviceName: 'x'.repeat(80) }, 'x'.repeat(64)],
    [{ serviceName: '***' }, undefined],
    [{}, undefined],
  ])('%j → %s', (identification, name) => expect(providerNameOf(identification)).toBe(name));
});

describe('providersFromCpos', () => {
  it('each CPO with a usable trust center, its FedRAMP ID trimmed; the others skipped with the reason', () => {
    const file = {
      offerings: [
        ACME,
        cpo({ serviceAcronym: 'ACME', fedRampPackageId: ' FR2611250002 ' }, 'https://acme2.example'),
        cpo({ serviceAcronym: 'ACME', fedRampPackageId: '' }, 'https://acme3.example'),
        cpo({ serviceAcronym: 'NOTC' }),
        { serviceIdentification: { serviceAcronym: 'TCNOURL' }, serviceProperties: { trustCenter: { href: 'https://x.example' } } },
        cpo({ serviceAcronym: 'FTP' }, 'ftp://ftp.example'),
        cpo({ serviceName: '***' }, 'https://nameless.example'),
      ],
    };
    expect(providersFromCpos(file)).toEqual({
      providers: [
        { name: 'acme', url: 'https://trust.acme.example', fedrampId: 'FR2611250001', at: '$.offerings[0]' },
        { name: 'acme-2', url: 'https://acme2.example', fedrampId: 'FR2611250002', at: '$.offerings[1]' },
        { name: 'acme-3', url: 'https://acme3.example', at: '$.offerings[2]' },
      ],
      skipped: [
        { at: '$.offerings[3]', reason: 'names no trust center (serviceProperties.trustCenter.url)' },
        { at: '$.offerings[4]', reason: 'names no trust center (serviceProperties.trustCenter.url)' },
        { at: '$.offerings[5]', reason: 'serviceProperties.trustCenter.url: ftp: is not http or https' },
        { at: '$.offerings[6]', reason: 'names no service acronym, service name or provider name to call it by' },
      ],
    });
  });

  it('names already taken are not reused', () => {
    const { providers } = providersFromCpos([ACME], new Set(['acme', 'acme-2']));
    expect(providers.map((p) => p.name)).toEqual(['acme-3']);
  });

  it('a long name keeps its numbered suffix within 64 characters', () => {
    const long = 'x'.repeat(64);
    const { providers } = providersFromCpos([cpo({ serviceName: long }, 'https://a.example'), cpo({ serviceName: long }, 'https://b.example')]);
    expect(providers.map((p) => p.name)).toEqual([long, `${'x'.repeat(60)}-2`]);
  });

  it('a file with no CPO: nothing, nothing skipped', () => expect(providersFromCpos({ offerings: [] })).toEqual({ providers: [], skipped: [] }));
});
