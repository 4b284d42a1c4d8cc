import type { QueryResultRow } from 'pg';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import type { RunSummary, TrackedPoamItem } from '../../domain/conmon/run-record';
import { ConfigError } from '../../domain/errors';
import { chainLink, chainTampered, GENESIS } from '../../domain/conmon/run-chain';
import { canonicalText, tampered } from '../../domain/conmon/run-id';
import { stateParts } from '../../domain/conmon/stored-state';
import { NodeCryptoHashing } from '../hashing/node-crypto-hashing';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Work SQL cannot do, run after `sql` in the same transaction. */
  then?: (sql: Sql, location: string) => Promise<void>;
  /** Statements after `then`. */
  finally?: string;
}

/** Runs one statement on the migrating connection and returns its rows. */
export type Sql = <R extends QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;

/** Serializes migrations across processes; any constant works that no other application in the database locks on. */
export const MIGRATION_LOCK = '7305119270480001';

/** The SHA-256 of the store's record rules (src/domain/conmon). */
const digest = new NodeCryptoHashing();

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
  {
    // The hash chain (domain/conmon/run-chain.ts): each run's canonical link and its head; svc_run_chain holds the chain head,
    // so removing the latest runs shows. `record` becomes generated from record_text, whose hash is the id: a copy
    // that could be edited on its own would be a record nothing verifies.
    version: 2,
    name: 'run-chain',
    sql: `
      ALTER TABLE svc_runs ADD COLUMN link text, ADD COLUMN head text CHECK (head ~ '^[0-9a-f]{64}$');
      ALTER TABLE svc_runs DROP COLUMN record;
      ALTER TABLE svc_runs ADD COLUMN record jsonb GENERATED ALWAYS AS (record_text::jsonb) STORED;
      CREATE TABLE svc_run_chain (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        seq bigint NOT NULL,
        head text NOT NULL CHECK (head ~ '^[0-9a-f]{64}$')
      );`,
    then: chainExistingRuns,
    finally: 'ALTER TABLE svc_runs ALTER COLUMN link SET NOT NULL, ALTER COLUMN head SET NOT NULL;',
  },
  {
    version: 3,
    name: 'run-documents',
    // The documents stored with a run: its list (hashed into the run's link) on the run, the bytes in parts of at
    // most a mebibyte, so a reader holds one part at a time. Rows go in with the run, in its transaction.
    sql: `
      ALTER TABLE svc_runs ADD COLUMN documents jsonb;
      CREATE TABLE svc_run_documents (
        run_id text NOT NULL CHECK (run_id ~ '^[0-9a-f]{64}$'),
        name text NOT NULL,
        part int NOT NULL CHECK (part >= 0),
        bytes bytea NOT NULL,
        PRIMARY KEY (run_id, name, part)
      );`,
  },
  {
    version: 4,
    name: 'journal',
    // The journal (domain/conmon/journal.ts): decisions recorded between runs, hash-chained apart from the runs.
    // record_text keeps the record's canonical text, which the entry's hash covers (jsonb would reorder its keys, and
    // refuses \u0000); recorded_at is text, kept as the caller gave it. svc_journal_chain holds the journal head, so
    // the latest entries removed show; it starts at seq 0, an empty journal.
    sql: `
      CREATE TABLE svc_journal (
        seq bigint PRIMARY KEY CHECK (seq > 0),
        kind text NOT NULL CHECK (kind ~ '^[a-z-]+$'),
        recorded_at text NOT NULL,
        record_text text NOT NULL,
        prev text CHECK (prev ~ '^[0-9a-f]{64}$'),
        hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
      );
      CREATE TABLE svc_journal_chain (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        seq bigint NOT NULL CHECK (seq >= 0),
        hash text CHECK (hash ~ '^[0-9a-f]{64}$')
      );
      INSERT INTO svc_journal_chain (seq, hash) VALUES (0, NULL);`,
  },
  {
    version: 5,
    name: 'access log',
    // The trust center's access log (CDS-TRC-ACL, domain/trust/access-log.ts): one row per request for certification
    // data. `at` is text, kept as the API gave it. (From migration 6 on, summarized as appended, and pruned.)
    sql: `
      CREATE TABLE svc_access (
        id bigserial PRIMARY KEY,
        day date NOT NULL,
        at text NOT NULL,
        principal text NOT NULL,
        agency text,
        document text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('served', 'denied')),
        status integer NOT NULL
      );
      CREATE INDEX svc_access_day ON svc_access (day);`,
  },
  {
    version: 6,
    name: 'access summaries',
    // The access log's summaries (domain/trust/access-log.ts AccessTally), kept up to date in the transaction that
    // inserts the events (INSERT … ON CONFLICT DO UPDATE), so the report reads a day's rows, never its events, and
    // the events may be pruned while the summaries stay. `agency` is '' for none (an agency is never ''); the times
    // compare as text in "C" order, which is time order for ISO-8601 UTC. The federal flag is now kept with each event
    // (migration 5 dropped it). The rows already logged are summarized here.
    sql: `
      ALTER TABLE svc_access ADD COLUMN federal boolean NOT NULL DEFAULT false;
      CREATE TABLE svc_access_summary (
        day date NOT NULL,
        principal text NOT NULL,
        agency text NOT NULL,
        federal boolean NOT NULL,
        document text NOT NULL,
        served bigint NOT NULL CHECK (served >= 0),
        denied bigint NOT NULL CHECK (denied >= 0),
        first text COLLATE "C" NOT NULL,
        last text COLLATE "C" NOT NULL,
        denied_first text COLLATE "C",
        denied_last text COLLATE "C",
        PRIMARY KEY (day, principal, agency, document, federal)
      );
      INSERT INTO svc_access_summary (day, principal, agency, federal, document, served, denied, first, last, denied_first, denied_last)
        SELECT day, principal, coalesce(agency, ''), false, document,
               count(*) FILTER (WHERE outcome = 'served'), count(*) FILTER (WHERE outcome = 'denied'),
               min(at COLLATE "C"), max(at COLLATE "C"),
               min(at COLLATE "C") FILTER (WHERE outcome = 'denied'), max(at COLLATE "C") FILTER (WHERE outcome = 'denied')
        FROM svc_access GROUP BY day, principal, coalesce(agency, ''), document;`,
  },
  {
    version: 7,
    name: 'run state parts',
    // A run's POA&M state and events in parts of whole items (domain/conmon/stored-state.ts), not one jsonb value each:
    // a jsonb array is capped at 256 MiB, which a run of a million results with half of them failing passes (issue
    // 35). Each part is the canonical JSON of its items joined by commas; joined and bracketed, the parts hash to what
    // the run's chain link keeps. Existing runs are converted one at a time, then the columns dropped.
    sql: `
      CREATE TABLE svc_run_state (
        run_id text NOT NULL CHECK (run_id ~ '^[0-9a-f]{64}$'),
        kind text NOT NULL CHECK (kind IN ('poam', 'events')),
        part int NOT NULL CHECK (part >= 0),
        items text NOT NULL,
        PRIMARY KEY (run_id, kind, part)
      );`,
    then: splitRunStates,
    finally: 'ALTER TABLE svc_runs DROP COLUMN poam, DROP COLUMN events;',
  },
  {
    version: 8,
    name: 'kept documents',
    // The entries of a run's document list that a year of runs reads (domain/conmon/kept-documents.ts: its
    // KSI counts and manifest), hashed into its link as \`kept\`: read without the whole list, which a large run's pages
    // make long (issue 35). Runs stored before have none, and their links do not name it: they are read as before.
    sql: 'ALTER TABLE svc_runs ADD COLUMN kept jsonb;',
  },
  {
    version: 9,
    name: 'compressed document parts',
    // Each part of a document is kept Brotli-compressed (compressed-documents.ts: about 8 to 1 on a run's JSON, where
    // TOAST's own compression gave about 4), and not compressed again by TOAST. Parts stored before stay as they are,
    // `identity`, and are read as before (issue 35).
    sql: `
      ALTER TABLE svc_run_documents ADD COLUMN encoding text NOT NULL DEFAULT 'identity' CHECK (encoding IN ('identity', 'br'));
      ALTER TABLE svc_run_documents ALTER COLUMN bytes SET STORAGE EXTERNAL;`,
  },
  {
    version: 10,
    name: 'content pieces',
    // A run's documents and state as content-defined pieces shared with the source's last run (piece-packs.ts): the
    // pieces a run adds in frames (its pack: the run's seq), its documents' piece lists in one row (svc_run_pieces:
    // a daily run of hundreds of documents adds one row), a state part as its piece list (`pieces`, not `items`), and
    // the salt of the pieces' keys. Documents and states stored before stay as they are and are read as before (issue 35).
    sql: `
      CREATE TABLE svc_piece_frames (
        pack bigint NOT NULL CHECK (pack > 0),
        first int NOT NULL CHECK (first >= 0),
        lengths bytea NOT NULL,
        keys bytea NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (pack, first)
      );
      ALTER TABLE svc_piece_frames ALTER COLUMN bytes SET STORAGE EXTERNAL, ALTER COLUMN keys SET STORAGE EXTERNAL;
      CREATE TABLE svc_piece_salt (one boolean PRIMARY KEY DEFAULT true CHECK (one), salt bytea NOT NULL);
      CREATE TABLE svc_run_pieces (run_id text PRIMARY KEY CHECK (run_id ~ '^[0-9a-f]{64}$'), lists bytea NOT NULL);
      ALTER TABLE svc_run_pieces ALTER COLUMN lists SET STORAGE EXTERNAL;
      ALTER TABLE svc_run_state ALTER COLUMN items DROP NOT NULL, ADD COLUMN pieces bytea, ADD CONSTRAINT svc_run_state_items_or_pieces CHECK ((items IS NULL) <> (pieces IS NULL));`,
  },
];

/** Inserts a run's POA&M state and events as parts (stateParts), in the caller's transaction. */
async function insertStateParts(sql: Sql, id: string, state: { poam: Iterable<TrackedPoamItem>; events: Iterable<ConmonEvent> }): Promise<void> {
  for (const kind of ['poam', 'events'] as const) {
    let part = 0;
    for (const items of stateParts(state[kind])) {
      await sql('INSERT INTO svc_run_state (run_id, kind, part, items) VALUES ($1, $2, $3, $4)', [id, kind, part, items]);
      part += 1;
    }
  }
}

/** Moves each stored run's POA&M state and events into svc_run_state, one run in memory at a time. */
async function splitRunStates(sql: Sql): Promise<void> {
  let seq = 0;
  for (;;) {
    const [row] = await sql<{ seq: string; id: string; poam: TrackedPoamItem[]; events: ConmonEvent[] }>(
      'SELECT seq, id, poam, events FROM svc_runs WHERE seq > $1 ORDER BY seq LIMIT 1',
      [seq],
    );
    if (row === undefined) return;
    await insertStateParts(sql, row.id, row);
    seq = Number(row.seq);
  }
}

/** Rows are chained this many at a time: memory stays bounded however many runs 0.5.0 stored. */
const CHAIN_BATCH = 100;

/**
 * Chains the runs svc 0.5.0 stored, in seq order: each record is re-hashed against its id, and the other columns are
 * taken as they are now (nothing older can be verified). From then on every read verifies them.
 */
async function chainExistingRuns(sql: Sql, location: string): Promise<void> {
  let head = GENESIS;
  let seq = 0;
  for (;;) {
    const rows = await sql<{ seq: string; id: string; record_text: string; summary: RunSummary; poam: TrackedPoamItem[]; events: ConmonEvent[] }>(
      'SELECT seq, id, record_text, summary, poam, events FROM svc_runs WHERE seq > $1 ORDER BY seq LIMIT $2',
      [seq, CHAIN_BATCH],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const where = `${location} (svc_runs, seq ${row.seq})`;
      if (Number(row.seq) !== seq + 1) throw chainTampered(where, `run ${seq + 1} is missing`);
      if (digest.sha256(row.record_text) !== row.id) throw tampered(where, row.id);
      if (row.summary?.seq !== seq + 1 || row.summary.id !== row.id) throw chainTampered(where, `the summary of run ${row.seq} is not that run's`);
      const chained = chainLink(row, head, digest);
      await sql('UPDATE svc_runs SET link = $1, head = $2 WHERE seq = $3', [canonicalText(chained.link), chained.head, row.seq]);
      head = chained.head;
      seq += 1;
    }
  }
  await sql('INSERT INTO svc_run_chain (seq, head) VALUES ($1, $2)', [seq, head]);
}

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
    throw new ConfigError(
      'run-store-schema-newer',
      `${location}: the run store's schema is at version ${newest}, newer than this svc knows (${known}); upgrade svc`,
    );
  }
  for (const migration of MIGRATIONS.filter((m) => !applied.has(m.version))) {
    await sql(migration.sql);
    await migration.then?.(sql, location);
    if (migration.finally) await sql(migration.finally);
    await sql('INSERT INTO svc_schema_migrations (version, name, applied_at) VALUES ($1, $2, now())', [migration.version, migration.name]);
  }
}
