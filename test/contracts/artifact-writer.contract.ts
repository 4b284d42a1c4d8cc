import { createHash } from 'node:crypto';
import type { ArtifactWriter } from '../../src/ports/artifact-writer';

export interface WriterHarness {
  writer: ArtifactWriter;
  /** A path under which the test may write. */
  root: string;
  /** What a reader sees at `path` now (undefined when nothing is there). */
  read(path: string): string | undefined;
  /** Every path a reader sees under `dir` (names only). */
  list(dir: string): string[];
  /** Puts a file there before the test writes (an earlier bundle). */
  seed(path: string, text: string): void;
}

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What every ARTIFACT_WRITER must do: files appear together at commit, never half-written. */
export function artifactWriterContract(name: string, make: () => Promise<WriterHarness>): void {
  describe(`${name} (ARTIFACT_WRITER contract)`, () => {
    let h: WriterHarness;
    beforeEach(async () => {
      h = await make();
    });

    it('shows a bundle only once it is committed, with the digest and size of the bytes written', async () => {
      const dir = `${h.root}/bundle`;
      const tx = await h.writer.begin(dir);
      const sink = tx.open('a.json');
      sink.write('{"a":');
      sink.write('"é"}');
      const written = await sink.close();
      expect(written).toEqual({ name: 'a.json', sha256: sha('{"a":"é"}'), bytes: 10 });
      expect(h.read(`${dir}/a.json`)).toBeUndefined();
      expect(await tx.commit()).toBe(dir);
      expect(h.read(`${dir}/a.json`)).toBe('{"a":"é"}');
      expect(h.list(dir)).toEqual(['a.json']);
    });

    it('leaves nothing behind when a bundle is aborted', async () => {
      const dir = `${h.root}/never`;
      const tx = await h.writer.begin(dir);
      const sink = tx.open('a.json');
      sink.write('partial');
      await tx.abort();
      expect(h.read(`${dir}/a.json`)).toBeUndefined();
      expect(h.list(h.root)).toEqual([]);
    });

    it('replaces the files of an earlier bundle and keeps it whole when the new one is aborted', async () => {
      const dir = `${h.root}/bundle`;
      h.seed(`${dir}/a.json`, 'old a');
      h.seed(`${dir}/b.json`, 'old b');
      const failed = await h.writer.begin(dir);
      failed.open('a.json').write('new a, half');
      await failed.abort();
      expect(h.read(`${dir}/a.json`)).toBe('old a');
      expect(h.list(dir)).toEqual(['a.json', 'b.json']);
      const tx = await h.writer.begin(dir);
      const sink = tx.open('a.json');
      sink.write('new a');
      await sink.close();
      await tx.commit();
      expect(h.read(`${dir}/a.json`)).toBe('new a');
      expect(h.read(`${dir}/b.json`)).toBe('old b');
    });

    it('writes large text in one piece', async () => {
      const dir = `${h.root}/large`;
      const tx = await h.writer.begin(dir);
      const sink = tx.open('big.txt');
      const line = `${'x'.repeat(999)}\n`;
      for (let i = 0; i < 3000; i++) sink.write(line);
      sink.write('€'.repeat(500_000));
      const written = await sink.close();
      await tx.commit();
      const text = line.repeat(3000) + '€'.repeat(500_000);
      expect(written.bytes).toBe(Buffer.byteLength(text));
      expect(written.sha256).toBe(sha(text));
      expect(h.read(`${dir}/big.txt`)).toBe(text);
    });

    it('refuses a second file of the same name in one bundle', async () => {
      const tx = await h.writer.begin(`${h.root}/twice`);
      tx.open('a.json');
      expect(() => tx.open('a.json')).toThrow(/not a fresh plain file name/);
      await tx.abort();
    });

    it('writes a single file only at close, and not at all when aborted', async () => {
      const path = `${h.root}/out/one.json`;
      const sink = await h.writer.open(path);
      sink.write('[1]');
      expect(h.read(path)).toBeUndefined();
      expect(await sink.close()).toEqual({ name: 'one.json', sha256: sha('[1]'), bytes: 3 });
      expect(h.read(path)).toBe('[1]');
      const again = await h.writer.open(path);
      again.write('[2');
      await again.abort();
      expect(h.read(path)).toBe('[1]');
    });

    it('refuses a directory where a file is to be written, and a file where a bundle directory is', async () => {
      h.seed(`${h.root}/taken/x.json`, '{}');
      await expect(h.writer.open(`${h.root}/taken`)).rejects.toThrow(/is a directory, expected a file path/);
      await expect(h.writer.begin(`${h.root}/taken/x.json`)).rejects.toThrow(/is a file, expected a directory/);
    });
  });
}
