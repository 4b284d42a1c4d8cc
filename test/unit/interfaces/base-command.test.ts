import { Errors } from '@oclif/core';
import { InvalidInputError, IntegrityError, UsageError } from '../../../src/domain/errors';
import { BaseCommand } from '../../../src/interfaces/cli/base-command';
import { exitCodeFor, httpStatusFor } from '../../../src/interfaces/shared/error-mapping';

describe('error mapping (DESIGN §8, STYLE §8)', () => {
  it.each([
    [new InvalidInputError('x', 'm'), 3, 400],
    [new IntegrityError('x', 'm'), 4, 422],
    [new UsageError('x', 'm'), 2, 400],
    [new TypeError('bug'), 70, 500],
  ])('%p → exit %i, HTTP %i', (error, exit, status) => {
    expect(exitCodeFor(error)).toBe(exit);
    expect(httpStatusFor(error)).toBe(status);
  });
});

describe('BaseCommand.catch', () => {
  const command = (argv: string[], json = false) =>
    Object.assign(Object.create(BaseCommand.prototype), { argv, jsonEnabled: () => json, logJson: (x: unknown) => logged.push(x) });
  let written: string[];
  let logged: unknown[];
  beforeEach(() => {
    written = [];
    logged = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('prints an AppError as one line and exits with its code', async () => {
    await expect(command([]).catch(new InvalidInputError('invalid-report', 'r.json: [0].status: missing; add it'))).rejects.toEqual(new Errors.ExitError(3));
    expect(written).toEqual(['Error: r.json: [0].status: missing; add it\n']);
    expect(process.exitCode).toBe(3);
  });

  it('reports a bug as an internal error, exit 70, with the stack only under --verbose', async () => {
    await expect(command([]).catch(new TypeError('x is undefined'))).rejects.toEqual(new Errors.ExitError(70));
    expect(written).toEqual(['Error: internal error: x is undefined; rerun with --verbose for the stack trace and report it\n']);
    written.length = 0;
    await expect(command(['--verbose']).catch(new TypeError('x is undefined', { cause: new Error('root') }))).rejects.toEqual(new Errors.ExitError(70));
    expect(written[1]).toMatch(/^TypeError: x is undefined\n {4}at /);
    expect(written[2]).toMatch(/^Caused by: Error: root/);
  });

  it('writes out control characters and a byte-order mark in the message, in text and under --json', async () => {
    const error = () => new InvalidInputError('invalid-report', 'r.json: [0].ksi_id: "KSI-AC-02\u001b[2J\ufeff" is not a KSI id');
    await expect(command([]).catch(error())).rejects.toEqual(new Errors.ExitError(3));
    expect(written).toEqual(['Error: r.json: [0].ksi_id: "KSI-AC-02\\u001b[2JU+FEFF" is not a KSI id\n']);
    await command(['--json'], true).catch(error());
    expect(logged).toEqual([{ error: { code: 'invalid-report', exit: 3, message: 'r.json: [0].ksi_id: "KSI-AC-02\\u001b[2JU+FEFF" is not a KSI id' } }]);
  });

  it('prints the error as JSON under --json and keeps the exit code', async () => {
    await command(['--json'], true).catch(new IntegrityError('content-hash-mismatch', 'changed'));
    expect(logged).toEqual([{ error: { code: 'content-hash-mismatch', exit: 4, message: 'changed' } }]);
    expect(written).toEqual([]);
    expect(process.exitCode).toBe(4);
  });
});

describe('BaseCommand output', () => {
  let out: string[];
  let err: string[];
  const command = (json = false) =>
    Object.assign(Object.create(BaseCommand.prototype), { argv: [], jsonEnabled: () => json, config: {} }) as BaseCommand & {
      log(m: string): void;
      logToStderr(m: string): void;
      logJson(j: unknown): void;
    };
  beforeEach(() => {
    out = [];
    err = [];
    // oclif's ux writes through console.log and console.error.
    jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(`${line}\n`));
    jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(`${line}\n`));
  });
  afterEach(() => jest.restoreAllMocks());

  it('writes out the control characters of scanner text it prints, on stdout and stderr', () => {
    command().log('| CVE-1 | \u001b]8;;http://evil\u0007click\u001b]8;;\u0007 \u009b2J |');
    command().logToStderr('title\u001b[2J\rX');
    expect(out).toEqual(['| CVE-1 | \\u001b]8;;http://evil\\u0007click\\u001b]8;;\\u0007 \\u009b2J |\n']);
    expect(err).toEqual(['title\\u001b[2J\\u000dX\n']);
  });

  it('prints --json output with the C1 controls and separators JSON.stringify leaves raw escaped: the same JSON', () => {
    command(true).logJson({ title: 'a\u009b31m\u2028b' });
    expect(out).toEqual(['{\n  "title": "a\\u009b31m\\u2028b"\n}\n']);
    expect(JSON.parse(out[0])).toEqual({ title: 'a\u009b31m\u2028b' });
  });
});
