import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomically } from '../../src/infrastructure/shared/atomic-file';

describe('writeFileAtomically: the one temporary-file-and-rename writer of the project', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-atomic-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a string, bytes or pieces, replaces what was there, mode 0600, and leaves no temporary file', async () => {
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    await writeFileAtomically(path, '{"a":1}');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
    await writeFileAtomically(path, new TextEncoder().encode('bytes'), { durable: false });
    expect(readFileSync(path, 'utf8')).toBe('bytes');
    await writeFileAtomically(path, ['{"a":', new TextEncoder().encode('2'), '}']);
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('keeps the old file whole when writing fails midway, removes its temporary file, and passes the error on', async () => {
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    function* failing(): Generator<string> {
      yield 'half';
      throw new Error('renderer failed');
    }
    await expect(writeFileAtomically(path, failing())).rejects.toThrow('renderer failed');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
    await expect(writeFileAtomically(join(dir, 'missing', 'x.json'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
