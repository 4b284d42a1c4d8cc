import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CronParserSchedule } from '../../src/infrastructure/orchestrator/cron-parser-schedule';
import { FsOrchestratorConfigSource } from '../../src/infrastructure/orchestrator/fs-orchestrator-config-source';
import { FileJobLock } from '../../src/infrastructure/orchestrator/file-job-lock';
import { NodeProcessRunner } from '../../src/infrastructure/orchestrator/node-process-runner';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-orch-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('CronParserSchedule', () => {
  const cron = new CronParserSchedule();

  it('computes the next time in UTC, 5 fields or 6 with seconds', () => {
    expect(cron.next('0 6 * * *', new Date('2026-11-21T06:00:00Z')).toISOString()).toBe('2026-11-22T06:00:00.000Z');
    expect(cron.next('30 2 * * 1', new Date('2026-11-21T00:00:00Z')).toISOString()).toBe('2026-11-23T02:30:00.000Z');
    expect(cron.next('*/10 * * * * *', new Date('2026-11-21T00:00:01Z')).toISOString()).toBe('2026-11-21T00:00:10.000Z');
  });

  it('says what is wrong with an expression, and nothing for a valid one', () => {
    expect(cron.validate('0 6 * * *')).toBeUndefined();
    expect(cron.validate('0 25 * * *')).toEqual(expect.any(String));
    expect(cron.validate('every day')).toEqual(expect.any(String));
    expect(cron.validate('* * *')).toEqual(expect.any(String));
  });
});

describe('FsOrchestratorConfigSource', () => {
  // V8 quotes the text around an unexpected token, line breaks and all; the message keeps only the problem (found by
  // test/property/orchestrator-config.property.test.ts).
  it('refuses a file that is not JSON in one line, without quoting the file', async () => {
    writeFileSync(join(dir, 'svc.orchestrator.json'), 'jobs:\n  - name: m365\n');
    const source = new FsOrchestratorConfigSource({ cwd: dir, cron: new CronParserSchedule(), vendors: () => ['scubagear'] });
    await expect(source.load()).rejects.toMatchObject({
      code: 'invalid-orchestrator-config',
      message: `${join(dir, 'svc.orchestrator.json')}: not valid JSON (Unexpected token 'j'); see docs/orchestrator.md`,
    });
  });
});

describe('FileJobLock', () => {
  it('refuses a second holder, and lets the job run again once released', async () => {
    const lock = new FileJobLock({ dir, now: () => new Date('2026-11-21T06:00:00Z') });
    const release = await lock.acquire('m365');
    expect(JSON.parse(readFileSync(join(dir, 'm365.lock'), 'utf8'))).toEqual({ pid: process.pid, host: hostname(), since: '2026-11-21T06:00:00.000Z' });
    await expect(new FileJobLock({ dir }).acquire('m365')).rejects.toMatchObject({
      code: 'job-running',
      message: `job m365 is already running (pid ${process.pid} on ${hostname()} since 2026-11-21T06:00:00.000Z); wait for it to finish, or remove ${join(dir, 'm365.lock')} if that process is gone`,
    });
    await (
      await lock.acquire('other')
    )();
    await release();
    await (
      await lock.acquire('m365')
    )();
  });

  it('takes over a lock left by a process that no longer exists on this host, not one from another host', async () => {
    writeFileSync(join(dir, 'm365.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), since: '2026-01-01T00:00:00Z' }));
    await (
      await new FileJobLock({ dir }).acquire('m365')
    )();
    writeFileSync(join(dir, 'm365.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: 'elsewhere.example', since: '2026-01-01T00:00:00Z' }));
    await expect(new FileJobLock({ dir }).acquire('m365')).rejects.toMatchObject({ code: 'job-running' });
  });
});

describe('NodeProcessRunner', () => {
  const runner = new NodeProcessRunner();

  it('appends stdout and stderr to the log and reports the exit', async () => {
    const log = join(dir, 'command.log');
    expect(await runner.run([process.execPath, '-e', 'console.log("out"); console.error("err")'], { cwd: dir, log })).toEqual({ exitCode: 0 });
    const failed = await runner.run([process.execPath, '-e', 'process.exit(3)'], { cwd: dir, log });
    expect(failed).toEqual({ exitCode: 3, problem: expect.stringContaining('3') });
    expect(readFileSync(log, 'utf8')).toMatch(/out\n[\s\S]*err\n/);
  });

  it('reports a program that cannot start, without throwing', async () => {
    const outcome = await runner.run(['/nonexistent/scanner'], { cwd: dir, log: join(dir, 'l.log') });
    expect(outcome.exitCode).toBeNull();
    expect(outcome.problem).toMatch(/could not start|ENOENT/);
  });
});
