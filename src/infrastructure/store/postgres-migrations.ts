import type { QueryResultRow } from 'pg';
import { ConfigError } from '../../domain/errors';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Runs one statement on the migrating connection and returns its rows. */
export type Sql = <R extends QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;

/** Serializes migrations across processes; any constant works that no other application in the database locks on. */
export const MIGRATION_LOCK = '7305119270480001';

/**
 * The run store's schema, in order; an applied migration is never edited, a change is a new one. record_text
 * keeps the canonical bytes a run's id is the hash of: jsonb reorders keys and would not hash back.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs',
    sql: `
      CREATE TABLE svc_runs (
        seq bigint PRIMARY KEY,
        id text UNIQUE NOT NULL CHECK (id ~ '^[0-9a-f]{64}$'),
        recorded_at timestamptz NOT NULL,
        as_of timestamptz NOT NULL,
        summary jsonb NOT NULL,
        record jsonb NOT NULL,
        record_text text NOT NULL,
        poam jsonb NOT NULL,
        events jsonb NOT NULL
      );
      CREATE INDEX svc_runs_as_of ON svc_runs (as_of);`,
  },
];

/**
 * Brings the schema up to date inside the caller's transaction. The advisory lock makes a second process wait
 * and then find everything applied, so two first uses at once are safe and a re-run does nothing.
 */
export async function migrate(sql: Sql, location: string): Promise<void> {
  await sql(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
  await sql('CREATE TABLE IF NOT EXISTS svc_schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)');
  const applied = new Set((await sql<{ version: number }>('SELECT version FROM svc_schema_migrations')).map((row) => row.version));
  const known = Math.max(...MIGRATIONS.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new ConfigError('run-store-schema-newer', `${location}: the run store's schema is at version ${newest}, newer than this svc knows (${known}); upgrade svc`);
  }
  for (const migration of MIGRATIONS.filter((m) => !applied.has(m.version))) {
    await sql(migration.sql);
    await sql('INSERT INTO svc_schema_migrations (version, name, applied_at) VALUES ($1, $2, now())', [migration.version, migration.name]);
  }
}
