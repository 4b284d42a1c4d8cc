import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsReportReader } from '../../src/infrastructure/fs/fs-report-reader';
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
