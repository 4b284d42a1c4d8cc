import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJson } from '../../src/domain/encoding/json-syntax-problem';
import { FsReportReader } from '../../src/infrastructure/reports/fs-report-reader';
import { reportReaderContract } from '../contracts/report-reader.contract';
import { InMemoryReportReader } from '../fakes/in-memory-report-reader';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

reportReaderContract('FsReportReader', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-reader-'));
  roots.push(root);
  return {
    reader: new FsReportReader(),
    put: (path, bytes) => {
      writeFileSync(join(root, path), bytes);
      return join(root, path);
    },
    dir: () => {
      mkdirSync(join(root, 'd'), { recursive: true });
      writeFileSync(join(root, 'd', 'f.json'), '{}');
      return join(root, 'd');
    },
  };
});

reportReaderContract('InMemoryReportReader (test double)', () => {
  const reader = new InMemoryReportReader();
  return {
    reader,
    put: (path, bytes) => {
      reader.put(`/mem/${path}`, bytes);
      return `/mem/${path}`;
    },
    dir: () => {
      reader.put('/mem/d/f.json', '{}');
      return '/mem/d';
    },
  };
});

describe('parseJson', () => {
  const refusal = (text: string) => {
    try {
      parseJson(text, 'r.json');
    } catch (error) {
      return (error as Error).message;
    }
    return 'parsed';
  };

  // V8 quotes the text around an unexpected token, cut with "..." when it is long: the quote, line breaks and all,
  // stays out of the one-line message (found by test/property/normalized-report.property.test.ts).
  it.each([
    ['a short text', 'x\n1', "r.json: invalid JSON at line 1, column 1: Unexpected token 'x'; fix the syntax there (a JSON validator shows the context)"],
    [
      'a long text, quoted up to "..."',
      ':\n  "schema_version": "1",\n  "results": []\n}',
      "r.json: invalid JSON at line 1, column 1: Unexpected token ':'; fix the syntax there (a JSON validator shows the context)",
    ],
    [
      'a token in the middle, quoted between "..."',
      '{"results": [\n  {"ksi_id": "KSI-AC-02", "status": PASS}\n]}',
      "r.json: invalid JSON at line 2, column 37: Unexpected token 'P'; fix the syntax there (a JSON validator shows the context)",
    ],
  ])('keeps the quoted text of %s out of the message', (_what, text, message) => {
    expect(refusal(text)).toBe(message);
  });
});

describe('FsReportReader.readItems: what it leaves to a whole read', () => {
  const reader = new FsReportReader();
  const root = mkdtempSync(join(tmpdir(), 'svc-items-'));
  roots.push(root);
  const put = (name: string, text: string) => {
    writeFileSync(join(root, name), text);
    return join(root, name);
  };
  const texts = async (path: string) => {
    const itemized = await reader.readItems(path);
    if (!itemized) return undefined;
    const out: string[] = [];
    for await (const item of itemized.items) out.push(item);
    return out;
  };

  it('gives up (undefined) when results is not the last member, or the document is no report', async () => {
    expect(await reader.readItems(put('after.json', '{"results":[{"ksi_id":"KSI-AC-02","status":"PASS"}],"schema_version":"1"}'))).toBeUndefined();
    expect(await reader.readItems(put('scalar.json', '"x"'))).toBeUndefined();
    expect(await reader.readItems(put('object.json', '{"results":{}}'))).toBeUndefined();
  });

  it('throws a JsonSplitError for an array that is not a list of objects, and a SyntaxError comes from the caller parsing an item', async () => {
    await expect(texts(put('scalars.json', '{"results":[1,2]}'))).rejects.toThrow('byte 1: expected an object or an array as the next item');
    expect(await texts(put('broken.json', '{"results":[{"ksi_id":}]}'))).toEqual(['{"ksi_id":}']);
  });

  it('knows the digest only once the items are read', async () => {
    const itemized = await reader.readItems(put('late.json', '{"results":[]}'));
    expect(() => itemized!.file()).toThrow('the digest of a report read an item at a time is known once its items are read');
  });
});
