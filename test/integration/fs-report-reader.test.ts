import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsReportReader, parseJson } from '../../src/infrastructure/fs/fs-report-reader';
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
    ['a long text, quoted up to "..."', ':\n  "schema_version": "1",\n  "results": []\n}', "r.json: invalid JSON at line 1, column 1: Unexpected token ':'; fix the syntax there (a JSON validator shows the context)"],
    ['a token in the middle, quoted between "..."', '{"results": [\n  {"ksi_id": "KSI-AC-02", "status": PASS}\n]}', "r.json: invalid JSON at line 2, column 37: Unexpected token 'P'; fix the syntax there (a JSON validator shows the context)"],
  ])('keeps the quoted text of %s out of the message', (_what, text, message) => {
    expect(refusal(text)).toBe(message);
  });
});
