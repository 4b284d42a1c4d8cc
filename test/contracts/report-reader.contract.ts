import { createHash } from 'node:crypto';
import type { ReportReader } from '../../src/ports/report-reader';

export interface ReaderHarness {
  reader: ReportReader;
  /** Puts a file at `path` (relative to the harness root); returns the path to give read(). */
  put(path: string, bytes: Buffer): string;
  /** A directory's path (it holds at least one file). */
  dir(): string;
}

/** What every REPORT_READER must do with good and bad files. */
export function reportReaderContract(name: string, make: () => ReaderHarness): void {
  describe(`${name} (REPORT_READER contract)`, () => {
    let h: ReaderHarness;
    beforeEach(() => {
      h = make();
    });

    it('parses JSON and digests the exact bytes', async () => {
      const bytes = Buffer.from('[{"ksi_id":"KSI-AC-02","status":"PASS"}]\n');
      const path = h.put('r.json', bytes);
      const doc = await h.reader.read(path);
      expect(doc).toEqual({
        name: 'r.json',
        path,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
        document: [{ ksi_id: 'KSI-AC-02', status: 'PASS' }],
      });
    });

    it('accepts a UTF-8 byte-order mark and still digests every byte', async () => {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"results":[]}')]);
      const doc = await h.reader.read(h.put('bom.json', bytes));
      expect(doc.document).toEqual({ results: [] });
      expect(doc.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    });

    it.each([
      ['a trailing comma', '[\n  {"ksi_id": "KSI-AC-02",}\n]', 'line 2, column 26: Expected double-quoted property name'],
      ['a missing bracket', '[\n  {"ksi_id": "KSI-AC-02"}\n', "line 3, column 1: Expected ',' or ']' after array element"],
      ['a bad literal', '[\n  tru\n]', 'line 2, column 3'],
      ['an empty file', '', 'line 1, column 1: the file is empty'],
    ])('reports invalid JSON (%s) with line and column', async (_what, text, where) => {
      const path = h.put('bad.json', Buffer.from(text));
      await expect(h.reader.read(path)).rejects.toThrow(`${path}: invalid JSON at ${where}`);
    });

    it('reads a report an item at a time: its header, each result as JSON text, and then the digest of every byte', async () => {
      const results = Array.from({ length: 12_000 }, (_, i) => ({
        ksi_id: `KSI-AC-${String(i % 100).padStart(2, '0')}`,
        status: 'PASS',
        details: `r\u00e9sultat ${i} "quoted" ]}{[`,
        n: i,
      }));
      const text = `{"schema_version": "1", "source": {"tool": "t"},\n "results": [\n${results.map((r) => JSON.stringify(r)).join(',\n')}\n]\n}\n`;
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
      expect(bytes.length).toBeGreaterThan(1 << 20);
      const path = h.put('items.json', bytes);
      const itemized = await h.reader.readItems(path);
      expect(itemized?.header).toEqual({ schema_version: '1', source: { tool: 't' }, results: [] });
      const texts: string[] = [];
      for await (const item of itemized!.items) texts.push(item);
      expect(texts.map((t) => JSON.parse(t) as unknown)).toEqual(results);
      expect(itemized!.file()).toEqual({ name: 'items.json', path, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
      const bare = await h.reader.readItems(h.put('bare.json', Buffer.from('[{"ksi_id":"KSI-AC-02","status":"PASS"}]')));
      expect(bare?.header).toEqual([]);
      for await (const item of bare!.items) expect(JSON.parse(item)).toEqual({ ksi_id: 'KSI-AC-02', status: 'PASS' });
      expect(await h.reader.readItems(h.put('bundle.json', Buffer.from('{"entries":[],"schema":"svc.evidence-bundle/v1"}')))).toBeUndefined();
    });

    it('names a missing file', async () => {
      await expect(h.reader.read(h.put('x', Buffer.from('1')).replace(/x$/, 'missing.json'))).rejects.toMatchObject({
        kind: 'not-found',
        message: expect.stringMatching(/missing\.json: no such input file; check the path$/),
      });
    });

    it('refuses a directory given as a file', async () => {
      const dir = h.dir();
      await expect(h.reader.read(dir)).rejects.toMatchObject({
        kind: 'invalid-input',
        message: `${dir}: is a directory, expected a JSON file; pass the report file itself`,
      });
      expect(await h.reader.kind(dir)).toBe('directory');
    });

    it('refuses a directory given as a text file (a statements file), saying a file was expected, not a JSON report', async () => {
      const dir = h.dir();
      await expect(h.reader.readText(dir)).rejects.toMatchObject({
        kind: 'invalid-input',
        code: 'input-is-directory',
        message: `${dir}: is a directory, expected a file; pass the file itself`,
      });
    });

    it('refuses a file that is not UTF-8, naming the byte offset, line and value, instead of reading U+FFFD; a byte-order mark is fine', async () => {
      // "café" in Latin-1 on line 3 of a statements file; then a JSON report with a lone continuation byte.
      const latin1 = h.put('statements.md', Buffer.concat([Buffer.from('# Statements\n## KSI-AC-02\nOur caf'), Buffer.from([0xe9]), Buffer.from(' policy\n')]));
      await expect(h.reader.readText(latin1)).rejects.toMatchObject({
        kind: 'invalid-input',
        code: 'invalid-utf8',
        message: `${latin1}: not UTF-8 text: byte 33 (line 3), 0xE9, is not part of a UTF-8 character; save the file as UTF-8`,
      });
      // A verifier that hashes the bytes and judges the text itself reads them anyway.
      expect((await h.reader.readText(latin1, undefined, { anyBytes: true })).text).toBe('# Statements\n## KSI-AC-02\nOur caf\ufffd policy\n');
      const json = h.put('bad.json', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0x80]), Buffer.from('"}')]));
      await expect(h.reader.read(json)).rejects.toMatchObject({
        code: 'invalid-utf8',
        message: `${json}: not UTF-8 text: byte 6 (line 1), 0x80, is not part of a UTF-8 character; save the file as UTF-8`,
      });
      // Overlong, surrogate and cut-short sequences are not UTF-8 either.
      for (const bytes of [
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xe2, 0x82],
      ]) {
        await expect(h.reader.readText(h.put('x.md', Buffer.concat([Buffer.from('ab'), Buffer.from(bytes)])))).rejects.toMatchObject({
          code: 'invalid-utf8',
          message: expect.stringContaining(': not UTF-8 text: byte 2 (line 1), '),
        });
      }
      const bom = h.put('bom.md', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('## KSI-AC-02\nZugriffsprüfung ✓ 🔐\n')]));
      expect((await h.reader.readText(bom)).text).toBe('## KSI-AC-02\nZugriffsprüfung ✓ 🔐\n');
    });

    it("lists a directory's names, sorted; refuses a file and names a missing directory", async () => {
      const path = h.put('b.json', Buffer.from('{}'));
      h.put('a.json', Buffer.from('{}'));
      const dir = path.slice(0, path.lastIndexOf('/'));
      expect((await h.reader.names(dir)).filter((n) => n.endsWith('.json'))).toEqual(['a.json', 'b.json']);
      await expect(h.reader.names(path)).rejects.toMatchObject({ kind: 'invalid-input', message: `${path}: is a file, expected a directory` });
      await expect(h.reader.names(`${dir}/nope`)).rejects.toMatchObject({ kind: 'not-found', message: `${dir}/nope: no such directory; check the path` });
    });

    it('tells files, directories and missing paths apart', async () => {
      const path = h.put('k.json', Buffer.from('{}'));
      expect(await h.reader.kind(path)).toBe('file');
      expect(await h.reader.kind(`${path}.nope`)).toBe('missing');
    });
  });
}
