import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnavailableError } from '../../src/domain/errors';
import { acquireLease, acquireLock, createExclusive, isStaleTemp, tempTag } from '../../src/infrastructure/shared/lock-owner';

const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const tagOf = (pid: number, start: string, host = HOST_TAG) => `svc-tmp-${host}-${pid}-${start}-0badcafe`;
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;
/** When process `pid` started: field 22 of /proc/<pid>/stat. */
function startOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

let root: string;
let live: ChildProcess;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-lock-owner-'));
  live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
});
afterAll(() => {
  live.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe('tempTag and isStaleTemp', () => {
  it('tags a temporary name with this host, this pid, its start time and 8 random hex digits', () => {
    const tag = tempTag();
    expect(tag).toMatch(new RegExp(`^svc-tmp-${HOST_TAG}-${process.pid}-${startOf(process.pid)}-[0-9a-f]{8}$`));
    expect(tempTag()).not.toBe(tag);
  });

  it('judges stale only a tag of this host whose process is gone, or whose pid now belongs to a later process', () => {
    const pid = live.pid as number;
    expect(isStaleTemp(`.index.json.${tagOf(deadPid(), '0')}`)).toBe(true);
    expect(isStaleTemp(`.bundle.${tagOf(pid, String(Number(startOf(pid)) - 1))}`)).toBe(true);
    expect(isStaleTemp(`.bundle.${tagOf(pid, startOf(pid))}`)).toBe(false);
    expect(isStaleTemp(`.bundle.${tagOf(pid, '0')}`)).toBe(false);
    expect(isStaleTemp(`.bundle.${tempTag()}`)).toBe(false);
    expect(isStaleTemp(`.bundle.${tagOf(deadPid(), '0', 'feedf00d')}`)).toBe(false);
    for (const name of ['.index.json.0123456789ab.tmp', `.x.svc-tmp-${deadPid()}-0badcafe`, 'index.json', `${tagOf(deadPid(), '0')}.json`]) {
      expect(isStaleTemp(name)).toBe(false);
    }
  });
});

describe('createExclusive', () => {
  it('creates the file holding the text, refuses when it exists, and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(root, 'create-'));
    const path = join(dir, 'x.lock');
    expect(await createExclusive(path, '{"pid":1}', 'test lock')).toBe(true);
    expect(await createExclusive(path, '{"pid":2}', 'test lock')).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('{"pid":1}');
    expect(readdirSync(dir)).toEqual(['x.lock']);
  });

  it('names the lock file when its directory is missing', async () => {
    const path = join(root, 'missing', 'x.lock');
    await expect(createExclusive(path, '{}', 'test lock')).rejects.toMatchObject({
      code: 'file-not-found',
      message: `${path}: no such test lock; check the path`,
    });
  });
});

describe('acquireLock', () => {
  const held = (holder: { pid: number } | undefined) => new UnavailableError('test-locked', `held by ${holder?.pid}`);
  const request = (path: string, timeoutMs: number) => ({ path, what: 'test lock', timeoutMs, now: () => new Date('2026-11-01T00:00:00Z'), held });

  it('takes a free lock, writes its owner and removes it on release', async () => {
    const path = join(mkdtempSync(join(root, 'free-')), 'x.lock');
    const release = await acquireLock(request(path, 100));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      since: '2026-11-01T00:00:00.000Z',
      heartbeat: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      lease_ms: 30_000,
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    await release();
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a lock of a process that is gone, and clears a breaker its dead breaker left', async () => {
    const dir = mkdtempSync(join(root, 'stale-'));
    const path = join(dir, 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: hostname(), since: '2026-10-01T00:00:00Z' }));
    const release = await acquireLock(request(path, 100));
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    await release();
    writeFileSync(`${path}.break`, '1');
    utimesSync(`${path}.break`, new Date('2026-01-01'), new Date('2026-01-01'));
    await (
      await acquireLock(request(path, 100))
    )();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('waits for a live holder, then throws the error the caller made, naming the holder', async () => {
    const path = join(mkdtempSync(join(root, 'live-')), 'x.lock');
    writeFileSync(path, JSON.stringify({ pid: live.pid, host: hostname(), since: '2026-10-01T00:00:00Z' }));
    const started = Date.now();
    await expect(acquireLock(request(path, 150))).rejects.toMatchObject({ code: 'test-locked', message: `held by ${live.pid}` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    await expect(acquireLock(request(path, 0))).rejects.toMatchObject({ code: 'test-locked' });
  });
});

describe('acquireLease: a lock that expires unless its holder renews it', () => {
  const held = (holder: { pid: number; host: string } | undefined) => new UnavailableError('test-locked', `held by ${holder?.pid} on ${holder?.host}`);
  const request = (path: string, timeoutMs: number, leaseMs: number) => ({ path, what: 'test lock', timeoutMs, leaseMs, now: () => new Date(), held });
  const otherHost = `not-${hostname()}`;
  const leaseOf = (heartbeat: Date, leaseMs = 30_000) =>
    JSON.stringify({
      pid: 1,
      host: otherHost,
      since: '2026-11-01T00:00:00.000Z',
      heartbeat: heartbeat.toISOString(),
      lease_ms: leaseMs,
      token: 'a'.repeat(32),
    });

  it('takes over a lease of another host whose heartbeat is older than the expiry it names', async () => {
    const path = join(mkdtempSync(join(root, 'expired-')), 'x.lock');
    writeFileSync(path, leaseOf(new Date(Date.now() - 31_000)));
    const lease = await acquireLease(request(path, 100, 60_000));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await lease.release();
    expect(existsSync(path)).toBe(false);
  });

  it('respects a lease of another host whose heartbeat is fresh, and once the wait passes a second tells `waiting` who holds it, once', async () => {
    const path = join(mkdtempSync(join(root, 'fresh-')), 'x.lock');
    const fresh = leaseOf(new Date());
    writeFileSync(path, fresh);
    const told: unknown[] = [];
    await expect(acquireLease({ ...request(path, 1500, 30_000), waiting: (holder) => told.push(holder) })).rejects.toMatchObject({
      code: 'test-locked',
      message: `held by 1 on ${otherHost}`,
    });
    expect(told).toEqual([expect.objectContaining({ pid: 1, host: otherHost })]);
    expect(readFileSync(path, 'utf8')).toBe(fresh);
  });

  it('judges a lease by the expiry its holder named, and a heartbeat-less lock of a live process on this host by its pid', async () => {
    const path = join(mkdtempSync(join(root, 'expiry-')), 'x.lock');
    // This waiter's own expiry (100 ms) is shorter than the wait; the holder promised renewals within 60 s.
    writeFileSync(path, leaseOf(new Date(), 60_000));
    await expect(acquireLease(request(path, 400, 100))).rejects.toMatchObject({ code: 'test-locked', message: `held by 1 on ${otherHost}` });
    writeFileSync(path, JSON.stringify({ pid: live.pid, host: hostname(), since: '2026-11-01T00:00:00.000Z' }));
    await expect(acquireLease(request(path, 400, 100))).rejects.toMatchObject({ code: 'test-locked', message: `held by ${live.pid} on ${hostname()}` });
  });

  it('keeps its lease alive by its heartbeat for longer than the expiry, so a waiting process does not take it over', async () => {
    const path = join(mkdtempSync(join(root, 'heartbeat-')), 'x.lock');
    const holder = await acquireLease(request(path, 100, 1000));
    const first = JSON.parse(readFileSync(path, 'utf8'));
    // The waiter gives up after 3 s: three expiries, during which the holder only waits (a long write).
    await expect(acquireLease(request(path, 3000, 1000))).rejects.toMatchObject({ code: 'test-locked', message: `held by ${process.pid} on ${hostname()}` });
    const renewed = JSON.parse(readFileSync(path, 'utf8'));
    expect(renewed.token).toBe(first.token);
    expect(renewed.heartbeat > first.heartbeat).toBe(true);
    expect(await holder.isHeld()).toBe(true);
    await holder.release();
    expect(existsSync(path)).toBe(false);
  });

  it('knows when its lease was taken over after it expired, and then leaves the new holder its lock', async () => {
    const path = join(mkdtempSync(join(root, 'lost-')), 'x.lock');
    const holder = await acquireLease(request(path, 100, 30_000));
    const taker = leaseOf(new Date());
    writeFileSync(path, taker);
    expect(await holder.isHeld()).toBe(false);
    await holder.release();
    expect(readFileSync(path, 'utf8')).toBe(taker);
  });
});
