import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBase64 } from '../../src/domain/encoding/base64';
import { IN_TOTO_PAYLOAD_TYPE, pae, readDsseEnvelope } from '../../src/domain/signing/dsse';
import { inTotoStatement } from '../../src/domain/signing/in-toto';
import type { PublicJwk, SignatureAlgorithm } from '../../src/domain/signing/jwk';
import { PemSigner } from '../../src/infrastructure/signing/pem-signer';
import type { SigningKey } from '../../src/ports/signer';
import { verifyDsseEnvelope } from '../support/dsse-verifier';

const root = mkdtempSync(join(tmpdir(), 'svc-signer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (name: string) => join(root, name);

function openssl(...args: string[]): string {
  try {
    return execFileSync('openssl', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('openssl is not on PATH: install OpenSSL 3 (CI does) to run the PemSigner tests');
    throw error;
  }
}

const genpkey = (out: string, ...options: string[]) => openssl('genpkey', ...options, '-out', at(out));

beforeAll(() => {
  genpkey('ec.pem', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256');
  openssl('pkey', '-in', at('ec.pem'), '-traditional', '-out', at('ec-traditional.pem'));
  genpkey('ed25519.pem', '-algorithm', 'ED25519');
  genpkey('rsa.pem', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048');
  openssl('pkey', '-in', at('rsa.pem'), '-traditional', '-out', at('rsa-traditional.pem'));
  const pss = ['-algorithm', 'RSA-PSS', '-pkeyopt', 'rsa_keygen_bits:2048'];
  genpkey('rsa-pss.pem', ...pss);
  genpkey(
    'rsa-pss-restricted.pem',
    ...pss,
    '-pkeyopt',
    'rsa_pss_keygen_md:sha256',
    '-pkeyopt',
    'rsa_pss_keygen_mgf1_md:sha256',
    '-pkeyopt',
    'rsa_pss_keygen_saltlen:32',
  );
  genpkey('rsa-pss-sha512.pem', ...pss, '-pkeyopt', 'rsa_pss_keygen_md:sha512');
  genpkey('rsa-pss-mgf1-sha1.pem', ...pss, '-pkeyopt', 'rsa_pss_keygen_md:sha256');
  genpkey(
    'rsa-pss-salt64.pem',
    ...pss,
    '-pkeyopt',
    'rsa_pss_keygen_md:sha256',
    '-pkeyopt',
    'rsa_pss_keygen_mgf1_md:sha256',
    '-pkeyopt',
    'rsa_pss_keygen_saltlen:64',
  );
  genpkey('p384.pem', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384');
  genpkey('secp256k1.pem', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:secp256k1');
  genpkey('x25519.pem', '-algorithm', 'X25519');
  genpkey('rsa1024.pem', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024');
  genpkey('encrypted.pem', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-aes256', '-pass', 'pass:x');
  openssl('pkey', '-in', at('rsa.pem'), '-traditional', '-aes256', '-passout', 'pass:x', '-out', at('encrypted-traditional.pem'));
  openssl('pkey', '-in', at('ec.pem'), '-pubout', '-out', at('public.pem'));
  openssl('req', '-x509', '-new', '-key', at('ec.pem'), '-subj', '/CN=svc', '-days', '1', '-out', at('certificate.pem'));
  writeFileSync(at('garbage.pem'), 'not a key at all\n');
  writeFileSync(at('empty.pem'), '');
});

/** The public JWK as node:crypto exports it, or from `openssl rsa -modulus` for RSA-PSS keys, which Node will not export. */
function expectedJwk(file: string): Record<string, string> {
  if (file.startsWith('rsa-pss')) {
    const modulus = openssl('rsa', '-in', at(file), '-modulus', '-noout').trim().replace('Modulus=', '');
    return { kty: 'RSA', n: Buffer.from(modulus, 'hex').toString('base64url'), e: 'AQAB' };
  }
  return crypto.createPublicKey(readFileSync(at(file))).export({ format: 'jwk' }) as Record<string, string>;
}

/** RFC 7638, computed here rather than by the code under test. */
function thumbprint(jwk: Record<string, string>): string {
  const members = jwk.kty === 'EC' ? ['crv', 'kty', 'x', 'y'] : jwk.kty === 'OKP' ? ['crv', 'kty', 'x'] : ['e', 'kty', 'n'];
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]]))))
    .digest('base64url');
}

/** Checks a signature as a third party would, with the openssl CLI; throws when it does not verify. */
function opensslVerifies(key: string, algorithm: SignatureAlgorithm, data: Uint8Array, signature: Uint8Array): string {
  writeFileSync(at('pae.bin'), data);
  writeFileSync(at('sig.bin'), signature);
  openssl('pkey', '-in', at(key), '-pubout', '-out', at('pub.pem'));
  if (algorithm === 'EdDSA') return openssl('pkeyutl', '-verify', '-pubin', '-inkey', at('pub.pem'), '-rawin', '-in', at('pae.bin'), '-sigfile', at('sig.bin'));
  const pss = algorithm === 'PS256' ? ['-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:32'] : [];
  return openssl('dgst', '-sha256', '-verify', at('pub.pem'), '-signature', at('sig.bin'), ...pss, at('pae.bin'));
}

const unusedHome = () => join(root, 'unused-home');

describe('PemSigner with real keys', () => {
  const usable: [string, SignatureAlgorithm, Record<string, string>][] = [
    ['ec.pem', 'ES256', { kty: 'EC', crv: 'P-256' }],
    ['ec-traditional.pem', 'ES256', { kty: 'EC', crv: 'P-256' }],
    ['ed25519.pem', 'EdDSA', { kty: 'OKP', crv: 'Ed25519' }],
    ['rsa.pem', 'PS256', { kty: 'RSA', e: 'AQAB' }],
    ['rsa-traditional.pem', 'PS256', { kty: 'RSA', e: 'AQAB' }],
    ['rsa-pss.pem', 'PS256', { kty: 'RSA', e: 'AQAB' }],
    ['rsa-pss-restricted.pem', 'PS256', { kty: 'RSA', e: 'AQAB' }],
  ];

  it.each(usable)('signs with %s (%s) so that the adapter, openssl and an independent DSSE verifier agree', async (file, algorithm, members) => {
    const signer = new PemSigner({ svcHome: unusedHome() });
    const key = await signer.load(at(file));
    const jwk = expectedJwk(file);
    expect(key.algorithm).toBe(algorithm);
    expect(key.publicJwk).toEqual({ ...jwk, alg: algorithm });
    expect(key.publicJwk).toMatchObject(members);
    expect(key.keyid).toBe(thumbprint(jwk));
    expect(key.origin).toEqual({ kind: 'file', path: at(file), created: false });

    const payload = new TextEncoder().encode(
      JSON.stringify(inTotoStatement({ name: 'sar.json', sha256Hex: 'c'.repeat(64) }, 'https://example.com/p/v1', { n: 1 })),
    );
    const data = pae(IN_TOTO_PAYLOAD_TYPE, payload);
    const signature = key.sign(data);
    expect(signer.verify(key.publicJwk, data, signature)).toBe(true);
    const tampered = Uint8Array.from(data);
    tampered[tampered.length - 2] ^= 1;
    expect(signer.verify(key.publicJwk, tampered, signature)).toBe(false);
    expect(signer.verify(key.publicJwk, data, signature.subarray(1))).toBe(false);

    expect(opensslVerifies(file, algorithm, data, signature)).toMatch(/Verified OK|Signature Verified Successfully/);
    expect(() => opensslVerifies(file, algorithm, tampered, signature)).toThrow();

    const envelope = {
      payloadType: IN_TOTO_PAYLOAD_TYPE,
      payload: toBase64(payload),
      signatures: [{ keyid: key.keyid, sig: toBase64(signature), jwk: key.publicJwk }],
    };
    const json = JSON.stringify(envelope);
    const verified = verifyDsseEnvelope(json);
    expect(verified.payload).toEqual(Buffer.from(payload));
    expect(verified.keyid).toBe(key.keyid);
    expect(verified.jwk).toEqual(key.publicJwk);
    expect(readDsseEnvelope(JSON.parse(json), 'x.dsse.json')).toEqual(envelope);
    expect(() => verifyDsseEnvelope(JSON.stringify({ ...envelope, payload: toBase64(tampered) }))).toThrow(/does not verify/);
  });

  it('signs ES256 in DER, not as raw r||s', async () => {
    const key = await new PemSigner({ svcHome: unusedHome() }).load(at('ec.pem'));
    const signature = key.sign(new Uint8Array([1, 2, 3]));
    expect(signature[0]).toBe(0x30);
    expect(signature.length).toBe(signature[1] + 2);
  });

  it('does not verify an RSA signature that is not as long as the modulus (RFC 8017 §8.1.2), even one that only drops a leading zero octet', async () => {
    const signer = new PemSigner({ svcHome: unusedHome() });
    const key = await signer.load(at('rsa.pem'));
    // About 1 signature in 256 starts with a zero octet; OpenSSL alone reads it without that octet as the same integer.
    let data = new Uint8Array([0]);
    let signature = key.sign(data);
    for (let n = 1; signature[0] !== 0; n += 1) {
      data = new TextEncoder().encode(String(n));
      signature = key.sign(data);
    }
    expect(signature.length).toBe(256);
    expect(signer.verify(key.publicJwk, data, signature)).toBe(true);
    expect(
      crypto.verify(
        'sha256',
        data,
        { key: crypto.createPublicKey(readFileSync(at('rsa.pem'))), padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
        signature.subarray(1),
      ),
    ).toBe(true);
    expect(signer.verify(key.publicJwk, data, signature.subarray(1))).toBe(false);
    expect(signer.verify(key.publicJwk, data, Buffer.concat([Buffer.from([0]), signature]))).toBe(false);
  });

  it('does not verify with another key, and refuses a JWK that is no key', async () => {
    const signer = new PemSigner({ svcHome: unusedHome() });
    const [ec, ed] = [await signer.load(at('ec.pem')), await signer.load(at('ed25519.pem'))];
    const data = new Uint8Array([7]);
    expect(signer.verify(ed.publicJwk, data, ec.sign(data))).toBe(false);
    expect(signer.verify(ec.publicJwk, data, new Uint8Array([0x30, 0x02, 0x01]))).toBe(false);
    const broken = { ...ec.publicJwk, x: 'AAAA' } as PublicJwk;
    expect(() => signer.verify(broken, data, ec.sign(data))).toThrow(
      expect.objectContaining({
        kind: 'invalid-input',
        code: 'bad-public-key',
        message:
          'public JWK (alg "ES256"): cannot be turned into a key; give an ES256 (EC P-256), EdDSA (Ed25519) or PS256 (RSA, 2048 bits or more) public key',
      }),
    );
    const mislabelled = { ...ed.publicJwk, alg: 'ES256' } as unknown as PublicJwk;
    expect(() => signer.verify(mislabelled, data, ed.sign(data))).toThrow(/public JWK \(alg "ES256"\): a ed25519 key does not fit the algorithm;/);
  });
});

describe('PemSigner key sources', () => {
  it('takes SVC_SIGNING_KEY when no --key is given, and --key over it', async () => {
    const signer = new PemSigner({ envKeyPath: at('ed25519.pem'), svcHome: unusedHome() });
    expect((await signer.load()).origin).toEqual({ kind: 'env', path: at('ed25519.pem'), created: false });
    expect((await signer.load()).algorithm).toBe('EdDSA');
    expect((await signer.load(at('ec.pem'))).origin).toEqual({ kind: 'file', path: at('ec.pem'), created: false });
  });

  it('creates the development key once, mode 0600 in a 0700 svc home, and reuses it after', async () => {
    const home = join(root, 'project', '.svc');
    const path = join(home, 'dev-signing-key.pem');
    const first = await new PemSigner({ svcHome: home }).load();
    expect(first.origin).toEqual({ kind: 'development', path, created: true });
    expect(first.algorithm).toBe('ES256');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(readdirSync(home)).toEqual(['dev-signing-key.pem']);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(first.keyid).toBe(thumbprint(crypto.createPublicKey(readFileSync(path)).export({ format: 'jwk' }) as Record<string, string>));

    const second = await new PemSigner({ envKeyPath: '', svcHome: home }).load();
    expect(second.origin).toEqual({ kind: 'development', path, created: false });
    expect(second.keyid).toBe(first.keyid);
    const data = new Uint8Array([1, 2, 3]);
    expect(new PemSigner({ svcHome: home }).verify(second.publicJwk, data, first.sign(data))).toBe(true);
  });
});

describe('PemSigner refusals', () => {
  const FIX = 'give a PEM private key: EC P-256, Ed25519, or RSA of 2048 bits or more';

  /** What a message must never carry: PEM armour or any piece of the key's base64 body. */
  function expectNoKeyMaterial(message: string, file: string) {
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(/BEGIN|END /);
    const body = readFileSync(at(file), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line));
    for (const line of body) for (let i = 0; i + 16 <= line.length; i += 8) expect(message).not.toContain(line.slice(i, i + 16));
  }

  async function refusal(load: () => Promise<SigningKey>): Promise<Error & { kind: string; code: string }> {
    const error = await load().then(
      () => undefined,
      (e: unknown) => e as Error & { kind: string; code: string },
    );
    if (!error) throw new Error('expected load() to refuse');
    return error;
  }

  it.each([
    ['p384.pem', 'EC curve P-384'],
    ['secp256k1.pem', 'EC curve secp256k1'],
    ['x25519.pem', 'x25519 key'],
    ['rsa1024.pem', 'RSA of 1024 bits'],
    ['rsa-pss-sha512.pem', 'RSA-PSS key restricted to sha512'],
    ['rsa-pss-mgf1-sha1.pem', 'RSA-PSS key restricted to MGF1 sha1'],
    ['rsa-pss-salt64.pem', 'RSA-PSS key restricted to salts of 64 bytes or more'],
    ['encrypted.pem', 'encrypted PEM'],
    ['encrypted-traditional.pem', 'encrypted PEM'],
    ['public.pem', 'a public key'],
    ['certificate.pem', 'a certificate'],
    ['garbage.pem', 'no PEM private key found'],
    ['empty.pem', 'no PEM private key found'],
  ])('refuses %s as unusable (%s) without echoing the key', async (file, reason) => {
    const error = await refusal(() => new PemSigner({ svcHome: unusedHome() }).load(at(file)));
    expect(error).toMatchObject({ kind: 'config', code: 'signing-key-unusable', message: `${at(file)}: not a usable signing key (${reason}); ${FIX}` });
    expectNoKeyMaterial(error.message, file);
  });

  it('names a missing key file, from --key or from SVC_SIGNING_KEY', async () => {
    const missing = at('missing.pem');
    const message = `${missing}: no such key file; pass --key <pem>, set SVC_SIGNING_KEY, or omit both to use the development key`;
    for (const load of [
      () => new PemSigner({ svcHome: unusedHome() }).load(missing),
      () => new PemSigner({ envKeyPath: missing, svcHome: unusedHome() }).load(),
    ]) {
      expect(await refusal(load)).toMatchObject({ kind: 'config', code: 'signing-key-missing', message });
    }
  });

  // root reads any file whatever its mode, so the OS refusal can only be seen as another user.
  (process.getuid?.() === 0 ? it.skip : it)('reports an unreadable key file as a permission error', async () => {
    const file = at('unreadable.pem');
    writeFileSync(file, readFileSync(at('ec.pem')));
    chmodSync(file, 0o000);
    const error = await refusal(() => new PemSigner({ svcHome: unusedHome() }).load(file));
    expect(error).toMatchObject({ kind: 'permission', message: `${file}: permission denied; check the signing key's permissions` });
  });
});
