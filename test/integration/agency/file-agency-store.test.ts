import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { IntegrityError } from '../../../src/domain/errors';
import { FileAgencyStore } from '../../../src/infrastructure/agency/file-agency-store';
import { tempTag } from '../../../src/infrastructure/shared/lock-owner';
import { agencyStoreContract, pullOf, reviewOf } from './agency-store.contract';

const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-agency-store-'));
  temps.push(dir);
  return join(dir, 'agency');
};
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The file an object is kept in. */
const objectFile = (dir: string, sha256: string) => join(dir, 'objects', sha256.slice(0, 2), `${sha256.slice(2)}.br`);

agencyStoreContract('FileAgencyStore', async () => {
  const dir = tempDir();
  return {
    store: new FileAgencyStore(dir),
    location: dir,
    twin: () => new FileAgencyStore(dir),
    corrupt: async (sha256) => {
      const path = objectFile(dir, sha256);
      // Still Brotli, but of other bytes: only the hash can tell.
      writeFileSync(path, brotliCompressSync(Buffer.from('{"document":"to be damaged!"}')));
      return path;
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('FileAgencyStore (files)', () => {
  let dir: string;
  let store: FileAgencyStore;
  beforeEach(() => {
    dir = tempDir();
    store = new FileAgencyStore(dir);
  });

  it('keeps a document Brotli-compressed at objects/<2 hex>/<62 hex>.br, written once', async () => {
    const json = JSON.stringify({ entries: Array.from({ length: 2000 }, (_, i) => ({ ksi: `KSI-CNA-${i % 46}`, status: 'implemented', at: i })) });
    const sha256 = await store.putDocument(Buffer.from(json));
    const path = objectFile(dir, sha256);
    expect(readdirSync(join(dir, 'objects'))).toEqual([sha256.slice(0, 2)]);
    expect(readdirSync(join(dir, 'objects', sha256.slice(0, 2)))).toEqual([`${sha256.slice(2)}.br`]);
    const kept = readFileSync(path);
    expect(brotliDecompressSync(kept).toString('utf8')).toBe(json);
    expect(kept.length).toBeLessThan(json.length / 4);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // An intact object is not written again (writing replaces the file: a new inode).
    const inode = statSync(path).ino;
    await store.putDocument(Buffer.from(json));
    expect(statSync(path).ino).toBe(inode);
  });

  it('refuses an object cut short (no longer Brotli) as corrupt', async () => {
    const sha256 = await store.putDocument(Buffer.from('{"cut":"short", "padding":"' + 'x'.repeat(500) + '"}'));
    const path = objectFile(dir, sha256);
    writeFileSync(path, readFileSync(path).subarray(0, 5));
    const refused = store.readDocument(sha256);
    await expect(refused).rejects.toThrow(IntegrityError);
    await expect(store.readDocument(sha256)).rejects.toMatchObject({
      code: 'agency-document-corrupt',
      message: `${path}: the stored bytes no longer hash to ${sha256}; pull the provider again`,
    });
  });

  it('keeps a pull at providers/<name>/pulls/<seq, 10 digits>.json and a review under reviews/', async () => {
    await store.appendPull(pullOf('acme', 1));
    await store.appendPull(pullOf('acme', 2));
    await store.appendReview(reviewOf('acme', 1));
    expect(readdirSync(join(dir, 'providers', 'acme', 'pulls'))).toEqual(['0000000001.json', '0000000002.json']);
    expect(readdirSync(join(dir, 'providers', 'acme', 'reviews'))).toEqual(['0000000001.json']);
    expect(JSON.parse(readFileSync(join(dir, 'providers', 'acme', 'pulls', '0000000002.json'), 'utf8'))).toEqual({ ...pullOf('acme', 2), seq: 2 });
    expect(JSON.parse(readFileSync(join(dir, 'providers', 'acme', 'reviews', '0000000001.json'), 'utf8'))).toEqual(reviewOf('acme', 1));
  });

  it('reads only the newest n files with last: an older damaged one is not read', async () => {
    for (let n = 1; n <= 4; n++) await store.appendPull(pullOf('acme', n));
    const first = join(dir, 'providers', 'acme', 'pulls', '0000000001.json');
    const cut = '{"provider":"acme","seq":1,';
    writeFileSync(first, cut);
    const problem = (() => {
      try {
        return JSON.parse(cut) as never;
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect((await store.pulls('acme', { last: 3 })).map((p) => p.seq)).toEqual([2, 3, 4]);
    const refused = store.pulls('acme');
    await expect(refused).rejects.toThrow(IntegrityError);
    await expect(store.pulls('acme')).rejects.toMatchObject({
      code: 'agency-pull-corrupt',
      message: `${first}: not the pull record stored there (not JSON: ${problem}); restore it from a backup or remove it`,
    });
  });

  it('refuses a pull file moved to another seq or another provider', async () => {
    await store.appendPull(pullOf('acme', 1));
    await store.appendPull(pullOf('beta', 1));
    const pulls = join(dir, 'providers', 'acme', 'pulls');
    writeFileSync(join(pulls, '0000000002.json'), readFileSync(join(pulls, '0000000001.json')));
    await expect(store.pulls('acme', { last: 1 })).rejects.toMatchObject({
      code: 'agency-pull-corrupt',
      message: `${join(pulls, '0000000002.json')}: not the pull record stored there (it holds seq 1); restore it from a backup or remove it`,
    });
    writeFileSync(join(pulls, '0000000002.json'), readFileSync(join(dir, 'providers', 'beta', 'pulls', '0000000001.json')));
    await expect(store.pulls('acme', { last: 1 })).rejects.toMatchObject({
      code: 'agency-pull-corrupt',
      message: `${join(pulls, '0000000002.json')}: not the pull record stored there (it names provider "beta"); restore it from a backup or remove it`,
    });
    await store.appendReview(reviewOf('acme', 1));
    const review = join(dir, 'providers', 'acme', 'reviews', '0000000001.json');
    writeFileSync(review, '[]');
    await expect(store.reviews('acme')).rejects.toMatchObject({
      code: 'agency-review-corrupt',
      message: `${review}: not the review record stored there (not a JSON object); restore it from a backup or remove it`,
    });
  });

  it('ignores what a crash leaves: temporary files, empty and foreign directories', async () => {
    await store.appendPull(pullOf('acme', 1));
    const sha256 = await store.putDocument(Buffer.from('{"kept":true}'));
    const pulls = join(dir, 'providers', 'acme', 'pulls');
    // A pull and a review cut short while being written, and an object's temporary file.
    writeFileSync(join(pulls, `.0000000002.json.${tempTag()}`), '{"provider":"acme","se');
    mkdirSync(join(dir, 'providers', 'acme', 'reviews'), { recursive: true });
    writeFileSync(join(dir, 'providers', 'acme', 'reviews', `.0000000001.json.${tempTag()}`), '');
    writeFileSync(join(dir, 'objects', sha256.slice(0, 2), `.${sha256.slice(2)}.br.${tempTag()}`), 'partial');
    // A provider whose directories were made but whose first pull never landed; one holding only a temporary file.
    mkdirSync(join(dir, 'providers', 'ghost', 'pulls'), { recursive: true });
    mkdirSync(join(dir, 'providers', 'half', 'reviews'), { recursive: true });
    writeFileSync(join(dir, 'providers', 'half', 'reviews', `.0000000001.json.${tempTag()}`), '{');
    // Not the store's: a stray file and a directory that is no provider name.
    writeFileSync(join(dir, 'providers', 'README'), 'notes');
    mkdirSync(join(dir, 'providers', '.trash', 'pulls'), { recursive: true });
    writeFileSync(join(dir, 'providers', '.trash', 'pulls', '0000000001.json'), '{}');

    expect(await store.providers()).toEqual(['acme']);
    expect((await store.pulls('acme')).map((p) => p.seq)).toEqual([1]);
    expect(await store.reviews('acme')).toEqual([]);
    expect(await store.pulls('ghost')).toEqual([]);
    expect(Buffer.from(await store.readDocument(sha256)).toString('utf8')).toBe('{"kept":true}');
    // The next pull takes seq 2 all the same, and reads as the only one after 1.
    expect((await store.appendPull(pullOf('acme', 2))).seq).toBe(2);
    expect((await store.pulls('acme', { last: 5 })).map((p) => p.seq)).toEqual([1, 2]);
    // A successful append leaves no temporary file of its own.
    expect(
      readdirSync(pulls)
        .filter((name) => !name.startsWith('.0000000002.json.svc-tmp-'))
        .sort(),
    ).toEqual(['0000000001.json', '0000000002.json']);
  });

  it('makes nothing on disk for reads of an empty store', async () => {
    expect(await store.providers()).toEqual([]);
    expect(await store.pulls('acme')).toEqual([]);
    await expect(store.readDocument('0'.repeat(64))).rejects.toMatchObject({ code: 'agency-document-missing' });
    expect(() => statSync(dir)).toThrow(/ENOENT/);
  });
});
