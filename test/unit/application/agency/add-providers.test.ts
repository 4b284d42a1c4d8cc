import { AddProvider, ImportProviders, type AddProviderInput } from '../../../../src/application/agency/add-providers';
import type { AgencyProvider } from '../../../../src/domain/agency/providers';
import { unitContainer } from '../../../support/unit-container';

const FILE = '/work/svc.config.json';
const EXISTING: AgencyProvider = { name: 'acme', url: 'https://trust.acme.example', auth: { kind: 'none' } };
const add = (extra: Partial<AddProviderInput> = {}): AddProviderInput => ({
  name: 'beta',
  url: 'https://trust.beta.example/',
  auth: { kind: 'negotiate' },
  replace: false,
  ...extra,
});

describe('AddProvider (svc agency add)', () => {
  it('adds the provider, its URL normalized, and says which file it wrote', async () => {
    const { container, agencyConfig } = unitContainer({ agency: { providers: [EXISTING] } });
    const result = await container
      .resolve(AddProvider)
      .execute(add({ fedrampId: 'FR2611250002', class: 'C', auth: { kind: 'cert', cert: '/pki/agency.crt', key: '/pki/agency.key' }, ca: '/pki/ca.pem' }));
    const beta: AgencyProvider = {
      name: 'beta',
      url: 'https://trust.beta.example',
      fedrampId: 'FR2611250002',
      class: 'C',
      auth: { kind: 'cert', cert: '/pki/agency.crt', key: '/pki/agency.key' },
      ca: '/pki/ca.pem',
    };
    expect(result).toEqual({ file: FILE, providers: [beta], skipped: [] });
    expect(agencyConfig.settings().providers).toEqual([EXISTING, beta]);
  });

  it('leaves out what is not given', async () => {
    const { container } = unitContainer();
    const { providers } = await container.resolve(AddProvider).execute(add());
    expect(providers).toEqual([{ name: 'beta', url: 'https://trust.beta.example', auth: { kind: 'negotiate' } }]);
  });

  it('refuses a name already there, and replaces it with --replace', async () => {
    const { container, agencyConfig } = unitContainer({ agency: { providers: [EXISTING] } });
    await expect(container.resolve(AddProvider).execute(add({ name: 'acme' }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'agency-provider-exists',
      message: `${FILE}: agency.providers already names "acme"; pass --replace to replace it, or choose another name`,
    });
    expect([agencyConfig.writes, agencyConfig.settings().providers]).toEqual([0, [EXISTING]]);
    await container.resolve(AddProvider).execute(add({ name: 'acme', replace: true }));
    expect(agencyConfig.settings().providers).toEqual([{ name: 'acme', url: 'https://trust.beta.example', auth: { kind: 'negotiate' } }]);
  });

  it.each<[string, Partial<AddProviderInput>, string, string]>([
    [
      'a name with a slash',
      { name: 'a/b' },
      'agency-provider-name',
      '<name> "a/b": use letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit',
    ],
    [
      'a name starting with a dash',
      { name: '-acme' },
      'agency-provider-name',
      '<name> "-acme": use letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit',
    ],
    [
      'a URL without a scheme',
      { url: 'trust.beta.example' },
      'agency-provider-url',
      '--url: "trust.beta.example" is not a URL; give the trust center\'s base, such as https://trust.example.com',
    ],
    [
      'a URL with a token in it',
      { url: 'https://t:secret@trust.beta.example' },
      'agency-provider-url',
      '--url: the URL holds credentials; give them with --auth instead',
    ],
    [
      'a URL with a query',
      { url: 'https://trust.beta.example/?x=1' },
      'agency-provider-url',
      '--url: the URL holds a query or fragment; give the trust center base only',
    ],
    ['a file URL', { url: 'file:///etc/passwd' }, 'agency-provider-url', '--url: file: is not http or https'],
    [
      'a bearer token over http to another machine',
      { url: 'http://trust.beta.example', auth: { kind: 'token', tokenFile: '/t' } },
      'agency-provider-url',
      "--url: http://trust.beta.example is http: svc would send the bearer token in clear text; use the trust center's https URL (http only to one on this machine)",
    ],
    [
      'Negotiate over http to another machine',
      { url: 'http://10.0.0.7:8000', auth: { kind: 'negotiate' } },
      'agency-provider-url',
      "--url: http://10.0.0.7:8000 is http: svc would send the Kerberos token in clear text; use the trust center's https URL (http only to one on this machine)",
    ],
    [
      'a client certificate over http, even on this machine',
      { url: 'http://localhost:8000', auth: { kind: 'cert', cert: '/c', key: '/k' } },
      'agency-provider-url',
      '--url: http://localhost:8000 is http: a client certificate needs https',
    ],
    ['a blank FedRAMP ID', { fedrampId: ' ' }, 'agency-fedramp-id', '--fedramp-id " ": give the FedRAMP ID as FedRAMP assigned it, such as FR2611250001'],
  ])('refuses %s', async (_what, extra, code, message) => {
    const { container, agencyConfig } = unitContainer();
    await expect(container.resolve(AddProvider).execute(add(extra))).rejects.toMatchObject({ kind: 'invalid-input', code, message });
    expect(agencyConfig.writes).toBe(0);
  });
});

describe('ImportProviders (svc agency import)', () => {
  const cpo = (acronym: string, url: string | undefined, id?: string) => ({
    serviceIdentification: { serviceAcronym: acronym, ...(id === undefined ? {} : { fedRampPackageId: id }) },
    ...(url === undefined ? {} : { serviceProperties: { trustCenter: { url } } }),
  });
  const EXPORT = {
    offerings: [
      cpo('ACME', 'https://trust.acme2.example/fedramp/cpo', 'FR2611250001'),
      cpo('BETA', 'https://trust.beta.example', 'FR2611250002'),
      cpo('GAMMA', undefined),
    ],
  };

  it('adds each CPO naming a trust center, with the authentication given, and says which were skipped', async () => {
    const { container, agencyConfig } = unitContainer({ files: { '/in/marketplace.json': EXPORT }, agency: { providers: [EXISTING] } });
    const result = await container
      .resolve(ImportProviders)
      .execute({ file: '/in/marketplace.json', auth: { kind: 'token', tokenFile: '/keys/token' }, ca: '/pki/ca.pem', replace: false });
    const imported: AgencyProvider[] = [
      // acme is configured already: the CPO's is named beside it.
      { name: 'acme-2', url: 'https://trust.acme2.example', fedrampId: 'FR2611250001', auth: { kind: 'token', tokenFile: '/keys/token' }, ca: '/pki/ca.pem' },
      { name: 'beta', url: 'https://trust.beta.example', fedrampId: 'FR2611250002', auth: { kind: 'token', tokenFile: '/keys/token' }, ca: '/pki/ca.pem' },
    ];
    expect(result).toEqual({
      file: FILE,
      providers: imported,
      skipped: [{ at: '$.offerings[2]', reason: 'names no trust center (serviceProperties.trustCenter.url)' }],
    });
    expect(agencyConfig.settings().providers).toEqual([EXISTING, ...imported]);
  });

  it('with --replace a CPO takes over its name', async () => {
    const { container, agencyConfig } = unitContainer({ files: { '/in/acme.json': EXPORT.offerings[0] }, agency: { providers: [EXISTING] } });
    const result = await container.resolve(ImportProviders).execute({ file: '/in/acme.json', auth: { kind: 'none' }, replace: true });
    expect(result.providers).toEqual([{ name: 'acme', url: 'https://trust.acme2.example', fedrampId: 'FR2611250001', auth: { kind: 'none' } }]);
    expect(agencyConfig.settings().providers).toEqual(result.providers);
  });

  it('a file with no CPO: an input error, nothing written', async () => {
    const { container, agencyConfig } = unitContainer({ files: { '/in/list.json': { offerings: [] } } });
    await expect(container.resolve(ImportProviders).execute({ file: '/in/list.json', auth: { kind: 'none' }, replace: false })).rejects.toMatchObject({
      kind: 'invalid-input',
      code: 'agency-import-empty',
      message: '/in/list.json: holds no CPO (an object with serviceIdentification, or a list of them); give a CPO document or a marketplace export of them',
    });
    expect(agencyConfig.writes).toBe(0);
  });

  it('CPOs none of which names a usable trust center: each reason said', async () => {
    const { container } = unitContainer({ files: { '/in/list.json': [cpo('GAMMA', undefined), cpo('DELTA', 'ftp://delta.example')] } });
    await expect(container.resolve(ImportProviders).execute({ file: '/in/list.json', auth: { kind: 'none' }, replace: false })).rejects.toThrow(
      '/in/list.json: no CPO names a usable trust center ($[0] names no trust center (serviceProperties.trustCenter.url); $[1] serviceProperties.trustCenter.url: ftp: is not http or https); give a CPO document or a marketplace export of them',
    );
  });

  it('a file that is not there: the reader says so', async () => {
    const { container } = unitContainer();
    await expect(container.resolve(ImportProviders).execute({ file: '/in/none.json', auth: { kind: 'none' }, replace: false })).rejects.toMatchObject({
      kind: 'not-found',
    });
  });
});
