/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters (lazy.ts) */
import { resolve } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { ConfigError } from '../../domain/errors';
import { ACCESS_STORE, type AccessStore } from '../../ports/access-store';
import { JOURNAL_STORE, type JournalStore } from '../../ports/journal-store';
import { RUN_STORE, type RunStore } from '../../ports/run-store';
import { SECURITY_EVENT_SINKS } from '../../ports/security-event-sink';
import { lazy, type RegistrationContext } from './lazy';

/** The run store (file or PostgreSQL, SVC_STORE), its journal and access log, and the SIEM sinks conmon sends events to. */
export function registerRuns(container: DependencyContainer, { env, cwd, svcHome }: RegistrationContext): void {
  // openRunStore requires the store's module (and pg) itself: SVC_STORE decides which.
  lazy(
    container,
    RUN_STORE,
    () => undefined,
    () => openRunStore(env, svcHome, cwd),
    { refuses: true },
  );
  // The journal and the access log are the run store's own (a test's RUN_STORE included), each reached apart from the
  // runs (ports/journal-store.ts, ports/access-store.ts).
  container.register(JOURNAL_STORE, { useFactory: (c) => sideOf<JournalStore>(c.resolve(RUN_STORE), ['appendJournal', 'journal'], 'journal') });
  container.register(ACCESS_STORE, {
    useFactory: (c) => sideOf<AccessStore>(c.resolve(RUN_STORE), ['appendAccess', 'accessLog', 'accessTallies', 'pruneAccess'], 'access log'),
  });
  lazy(
    container,
    SECURITY_EVENT_SINKS,
    () => require('../sinks/sink-factory') as typeof import('../sinks/sink-factory'),
    (m) => new m.SinkFactory({ token: env.SVC_SINK_TOKEN, cwd, retry: retryFromEnv(env) }),
    { refuses: true },
  );
}

/**
 * SVC_STORE picks the run store: unset, the file store under the svc home (`.svc/store`); `postgres://` or
 * `postgresql://`, the shared PostgreSQL store; anything else, a directory for the file store.
 */
function openRunStore(env: NodeJS.ProcessEnv, svcHome: string, cwd: string): RunStore {
  const spec = env.SVC_STORE;
  if (spec !== undefined && /^postgres(ql)?:\/\//i.test(spec)) {
    const { PostgresRunStore } = require('../store/postgres-run-store') as typeof import('../store/postgres-run-store');
    return new PostgresRunStore({ url: spec, lockTimeoutMs: wholeMs(env, 'SVC_STORE_LOCK_WAIT_MS'), waiting: (line) => process.stderr.write(`${line}\n`) });
  }
  if (spec !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    throw new ConfigError(
      'bad-store',
      `SVC_STORE: ${spec.replace(/\/\/[^@/]*@/, '//***@')} is not a run store; use postgres://user@host/db, or a directory for the file store`,
    );
  }
  const { FileRunStore } = require('../store/file-run-store') as typeof import('../store/file-run-store');
  return new FileRunStore({
    dir: spec ? resolve(cwd, spec) : resolve(svcHome, 'store'),
    lockTimeoutMs: wholeMs(env, 'SVC_STORE_LOCK_WAIT_MS'),
    leaseMs: wholeMs(env, 'SVC_STORE_LEASE_MS'),
    waiting: (line) => process.stderr.write(`${line}\n`),
  });
}

/**
 * The run store as the store of its journal or its access log: every store svc has is all three; a view of one may not
 * be (SnapshotStore keeps no access log), and asking it for what it does not keep is a wiring mistake.
 */
function sideOf<T>(store: RunStore, methods: readonly string[], what: string): T {
  const missing = methods.filter((m) => typeof (store as unknown as Record<string, unknown>)[m] !== 'function');
  if (missing.length > 0)
    throw new Error(`the run store at ${store.location} keeps no ${what} (${missing.join(', ')}): resolve it from the container that holds the store itself`);
  return store as unknown as T;
}

/** SVC_STORE_LOCK_WAIT_MS / SVC_STORE_LEASE_MS: how long a writer waits for the store's lock, and the file store lease's expiry. */
function wholeMs(env: NodeJS.ProcessEnv, name: 'SVC_STORE_LOCK_WAIT_MS' | 'SVC_STORE_LEASE_MS'): number | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new ConfigError('bad-store-timing', `${name}=${value}: expected a whole number of milliseconds, at least 1`);
  return Number(value);
}

/** SVC_SINK_RETRIES / SVC_SINK_BACKOFF_MS tune sink retries (tests shorten them; operators may lengthen them). */
function retryFromEnv(env: NodeJS.ProcessEnv): { attempts?: number; baseDelayMs?: number } {
  const retry: { attempts?: number; baseDelayMs?: number } = {};
  const settings = [
    ['SVC_SINK_RETRIES', 'attempts', 1],
    ['SVC_SINK_BACKOFF_MS', 'baseDelayMs', 0],
  ] as const;
  for (const [name, key, min] of settings) {
    const value = env[name];
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) < min) throw new ConfigError('bad-sink-retry', `${name}=${value}: expected a whole number of at least ${min}`);
    retry[key] = Number(value);
  }
  return retry;
}
