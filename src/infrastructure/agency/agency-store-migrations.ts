import { ConfigError } from '../../domain/errors';
import type { Migration, Sql } from '../store/postgres-migrations';

/** Serializes the agency store's migrations across processes; apart from the run store's (MIGRATION_LOCK), which is …0001. */
export const AGENCY_MIGRATION_LOCK = '7305119270480003';

/**
 * The agency store's schema (PostgresAgencyStore), in order, kept apart from the run store's (postgres-migrations.ts)
 * in its own version table, so the two evolve and are applied independently in one database. An applied migration is
 * never edited; a change is a new one.
 */
export const AGENCY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'agency documents, pulls and reviews',
    // Documents are bytes under their SHA-256 (TOAST compresses the large ones); a pull or review is its record as
    // jsonb, under the provider's name and its seq (1, 2, … per provider, taken under the provider's advisory lock).
    sql: `
      CREATE TABLE agency_documents (
        sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        bytes bytea NOT NULL
      );
      CREATE TABLE agency_pulls (
        provider text NOT NULL,
        seq bigint NOT NULL CHECK (seq > 0),
        record jsonb NOT NULL,
        PRIMARY KEY (provider, seq)
      );
      CREATE TABLE agency_reviews (
        provider text NOT NULL,
        seq bigint NOT NULL CHECK (seq > 0),
        record jsonb NOT NULL,
        PRIMARY KEY (provider, seq)
      );`,
  },
];

/**
 * Brings the agency store's schema up to date inside the caller's transaction. The advisory lock makes a second process
 * wait and then find everything applied, so two first uses at once are safe and a re-run does nothing.
 */
export async function migrateAgencyStore(sql: Sql, location: string): Promise<void> {
  await sql(`SELECT pg_advisory_xact_lock(${AGENCY_MIGRATION_LOCK})`);
  await sql('CREATE TABLE IF NOT EXISTS agency_schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)');
  const applied = new Set((await sql<{ version: number }>('SELECT version FROM agency_schema_migrations')).map((row) => row.version));
  const known = Math.max(...AGENCY_MIGRATIONS.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new ConfigError(
      'agency-store-schema-newer',
      `${location}: the agency store's schema is at version ${newest}, newer than this svc knows (${known}); upgrade svc`,
    );
  }
  for (const migration of AGENCY_MIGRATIONS.filter((m) => !applied.has(m.version))) {
    await sql(migration.sql);
    await migration.then?.(sql, location);
    if (migration.finally) await sql(migration.finally);
    await sql('INSERT INTO agency_schema_migrations (version, name, applied_at) VALUES ($1, $2, now())', [migration.version, migration.name]);
  }
}
