import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PemSigner } from '../../src/infrastructure/signing/pem-signer';
import { signerContract } from '../contracts/signer.contract';
import { InMemorySigner } from '../fakes/in-memory-signer';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

for (const [type, options] of [
  ['ec', { namedCurve: 'P-256' }],
  ['ed25519', {}],
  ['rsa', { modulusLength: 2048 }],
] as const) {
  signerContract(`PemSigner (${type})`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-signer-contract-'));
    roots.push(root);
    const keyPath = join(root, 'key.pem');
    const { privateKey } = generateKeyPairSync(type as 'ec', options as { namedCurve: string });
    writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    return { signer: new PemSigner({ svcHome: root }), keyPath };
  });
}

signerContract('InMemorySigner (test double)', async () => ({ signer: new InMemorySigner(), keyPath: '/keys/k.pem' }));
