import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { Client, Pool } from 'pg';
import { ConfigError, UnavailableError } from '../../src/domain/errors';
import { MIGRATIONS } from '../../src/infrastructure/store/postgres-migrations';
import { PostgresRunStore, type PostgresRunStoreOptions } from '../../src/infrastructure/store/postgres-run-store';
import { redactUrl } from '../../src/infrastructure/shared/postgres-errors';
import { runStoreContract } from '../contracts/run-store.contract';
import { tallyAccess } from '../../src/domain/trust/access-log';
import { freePort, startPostgres, TEST_PASSWORD, type PostgresServer } from '../support/postgres-server';
import { recordFor, runIdOf, storedRunFor } from '../support/stored-runs';
import { openedText } from '../support/stored-documents';
import { stateParts } from '../../src/domain/conmon/stored-state';
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';
import { decodeNamedLists, decodeSpans, encodeNamedLists, encodeSpans } from '../../src/domain/conmon/content-pieces';

let server: PostgresServer;
let admin: Pool;
let databases = 0;

beforeAll(async () => {
  server = await startPostgres();
  admin = new Pool({ connectionString: server.adminUrl, max: 2 });
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
}, 60_000);

/**
 * A new empty database, so every case starts from nothing and migrates itself. DROP DATABASE without FORCE
 * waits a few seconds for closing connections, and fails if a store left one open.
 */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `svc_test_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  return { url: server.urlOf(name), drop: async () => void (await admin.query(`DROP DATABASE ${name}`)) };
}

/** One statement on its own connection, closed before it returns (Client.end waits for the server, Pool.end does not). */
async function sql<R extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

runStoreContract('PostgresRunStore', async () => {
  const { url, drop } = await freshDatabase();
  const store = new PostgresRunStore({ url });
  /** Part 0 of a run's POA&M state or events rewritten as a person would: as its text, with one item more. */
  const editStatePart = async (id: string, seq: number, kind: 'poam' | 'events') => {
    const run = (await store.get(seq))!;
    const [part] = stateParts(run[kind]);
    await sql(url, `UPDATE svc_run_state SET items = $2, pieces = NULL WHERE run_id = $1 AND kind = '${kind}' AND part = 0`, [id, `${part},{}`]);
  };
  return {
    store,
    twin: () => new PostgresRunStore({ url, poolSize: 2 }),
    tamper: async (target, { id, seq }) => {
      const at = `${store.location} (svc_runs, seq ${seq}`;
      const update = (set: string) => sql(url, `UPDATE svc_runs SET ${set} WHERE seq = $1`, [seq]);
      switch (target) {
        case 'record':
          await update(`record_text = replace(record_text, 'ScubaGear', 'ScubaGeaR')`);
          return `${at}, column record_text): the hash chain does not match the record of run ${seq} (${id})`;
        case 'summary':
          await update(`summary = jsonb_set(summary, '{counts,fail}', '0')`);
          return `${at}, column summary): the hash chain does not match the summary of run ${seq} (${id})`;
        case 'poam':
          await editStatePart(id, seq, 'poam');
          return `${store.location} (svc_run_state, run ${seq}, poam): the hash chain does not match the POA&M state of run ${seq} (${id})`;
        case 'events':
          await editStatePart(id, seq, 'events');
          return `${store.location} (svc_run_state, run ${seq}, events): the hash chain does not match the events of run ${seq} (${id})`;
        case 'link':
          await update(`link = regexp_replace(link, '"poam":"[0-9a-f]{64}"', '"poam":"${'0'.repeat(64)}"')`);
          return `${at}, column link): the chain link of run ${seq} (${id}) does not hash to its head`;
        case 'head':
          await sql(url, `UPDATE svc_run_chain SET head = repeat('f', 64)`);
          return `${store.location} (svc_run_chain): the chain head does not match run ${seq}, the latest run`;
        case 'latest-removed':
          await sql(url, 'DELETE FROM svc_runs WHERE seq = $1', [seq]);
          return `${store.location} (svc_run_chain): the chain head does not match run ${seq - 1}, the latest run`;
        case 'document': {
          // Its piece list changed as a person would: the document's last piece dropped, the lists compressed again.
          const [row] = await sql<{ lists: Buffer }>(url, 'SELECT lists FROM svc_run_pieces WHERE run_id = $1', [id]);
          const lists = decodeNamedLists(brotliDecompressSync(row.lists))!;
          const { spans } = decodeSpans(lists.get('sar.json')!)!;
          const last = spans.at(-1)!;
          lists.set(
            'sar.json',
            encodeSpans(
              last.count > 1 ? [...spans.slice(0, -1), { ...last, count: last.count - 1 }] : [...spans.slice(0, -1), { ...last, first: last.first + 1 }],
            ),
          );
          await sql(url, 'UPDATE svc_run_pieces SET lists = $2 WHERE run_id = $1', [id, brotliCompressSync(encodeNamedLists(lists))]);
          return `${store.location} (svc_run_pieces, run ${seq}, sar.json): the document sar.json no longer matches the SHA-256 its run's link in the hash chain names`;
        }
        case 'document-list':
          await update(`documents = jsonb_set(documents, '{1,sha256}', '"${'0'.repeat(64)}"')`);
          return `${at}, column documents): the hash chain does not match the document list of run ${seq} (${id})`;
        case 'kept-list':
          await update(`kept = jsonb_set(kept, '{0,sha256}', '"${'0'.repeat(64)}"')`);
          return `${at}, column kept): the hash chain does not match the kept document list of run ${seq} (${id})`;
      }
    },
    tamperJournal: async (target, seq) => {
      const at = `${store.location} (svc_journal, seq`;
      const head = `${store.location} (svc_journal_chain)`;
      switch (target) {
        case 'record':
          await sql(url, `UPDATE svc_journal SET record_text = replace(record_text, 'alice@', 'mallory@') WHERE seq = $1`, [seq]);
          return `${at} ${seq}): journal entry ${seq} does not match its hash`;
        case 'removed':
          await sql(url, 'DELETE FROM svc_journal WHERE seq = $1', [seq]);
          return `${at} ${seq}): journal entry ${seq} is missing or out of place (entry ${seq + 1} is in its place)`;
        case 'swapped':
          // Rows are in seq order: swapping two entries is swapping their seqs (through a free one: the key is unique).
          await sql(url, 'UPDATE svc_journal SET seq = 1000 WHERE seq = $1', [seq]);
          await sql(url, 'UPDATE svc_journal SET seq = $1 WHERE seq = $2', [seq, seq + 1]);
          await sql(url, 'UPDATE svc_journal SET seq = $1 WHERE seq = 1000', [seq + 1]);
          return `${at} ${seq}): journal entry ${seq} does not match its hash`;
        case 'inserted':
          await sql(url, 'UPDATE svc_journal SET seq = seq + 1000 WHERE seq > $1', [seq]);
          await sql(url, 'UPDATE svc_journal SET seq = seq - 999 WHERE seq > 1000');
          await sql(url, 'INSERT INTO svc_journal SELECT seq + 1, kind, recorded_at, record_text, prev, hash FROM svc_journal WHERE seq = $1', [seq]);
          return `${at} ${seq + 1}): journal entry ${seq + 1} does not match its hash`;
        case 'latest-removed':
          await sql(url, 'DELETE FROM svc_journal WHERE seq = $1', [seq]);
          return `${head}: journal entry ${seq} is missing (the journal head names entry ${seq} as the latest)`;
        case 'head':
          await sql(url, `UPDATE svc_journal_chain SET hash = repeat('f', 64)`);
          return `${head}: journal entry ${seq} is not the latest entry the journal head names`;
      }
    },
    cleanup: async () => {
      await store.close();
      await drop();
    },
  };
});

describe('PostgresRunStore on a PostgreSQL server', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: PostgresRunStore[] = [];
  const open = (options: PostgresRunStoreOptions) => {
    const store = new PostgresRunStore(options);
    opened.push(store);
    return store;
  };
  beforeEach(async () => {
    ({ url, drop } = await freshDatabase());
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await drop();
  });

  it('applies the migrations once, on first use, however many stores start at once', async () => {
    await Promise.all([open({ url }).list(), open({ url }).latest(), open({ url }).get(1)]);
    const applied = await sql<{ version: number; name: string; applied_at: Date }>(
      url,
      'SELECT version, name, applied_at FROM svc_schema_migrations ORDER BY version',
    );
    expect(applied.map(({ version, name }) => ({ version, name }))).toEqual([
      { version: 1, name: 'runs' },
      { version: 2, name: 'run-chain' },
      { version: 3, name: 'run-documents' },
      { version: 4, name: 'journal' },
      { version: 5, name: 'access log' },
      { version: 6, name: 'access summaries' },
      { version: 7, name: 'run state parts' },
      { version: 8, name: 'kept documents' },
      { version: 9, name: 'compressed document parts' },
      { version: 10, name: 'content pieces' },
    ]);
    await open({ url }).list();
    expect(await sql(url, 'SELECT version, name, applied_at FROM svc_schema_migrations ORDER BY version')).toEqual(applied);
    const indexes = await sql<{ indexname: string }>(url, `SELECT indexname FROM pg_indexes WHERE tablename = 'svc_runs' ORDER BY indexname`);
    expect(indexes.map((i) => i.indexname)).toEqual(['svc_runs_as_of', 'svc_runs_id_key', 'svc_runs_pkey']);
  });

  it('refuses a schema newer than it knows, saying to upgrade', async () => {
    await open({ url }).list();
    await sql(url, `INSERT INTO svc_schema_migrations (version, name, applied_at) VALUES (99, 'future', now())`);
    const refused = open({ url }).list();
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toMatchObject({
      code: 'run-store-schema-newer',
      message: expect.stringMatching(/schema is at version 99, newer than this svc knows \(10\); upgrade svc$/),
    });
  });

  it('upgrades a database at migration 5 with access rows: migration 6 summarizes them, so a report of those days is what it was', async () => {
    await sql(url, `CREATE TABLE svc_schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)`);
    for (const migration of MIGRATIONS.slice(0, 5)) {
      await sql(url, migration.sql);
      if (migration.version === 2) await sql(url, `INSERT INTO svc_run_chain (seq, head) VALUES (0, '${'0'.repeat(64)}')`);
      if (migration.finally) await sql(url, migration.finally);
      await sql(url, 'INSERT INTO svc_schema_migrations VALUES ($1, $2, now())', [migration.version, migration.name]);
    }
    // What svc 0.6 wrote: every request a row, 150 denials of one principal included, a principal of 400 characters.
    const old = `${'o'.repeat(391)}@OLD.TEST`;
    const events = [
      ...Array.from({ length: 150 }, (_, i) => ({
        at: `2026-11-20T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
        principal: 'carol@SVC.TEST',
        agency: null,
        document: 'cpo',
        outcome: 'denied',
        status: 403,
      })),
      { at: '2026-11-20T09:00:00Z', principal: 'dana@examples.gov', agency: 'Department of Examples', document: 'sdr', outcome: 'served', status: 200 },
      { at: '2026-11-20T08:00:00Z', principal: old, agency: null, document: 'cpo', outcome: 'served', status: 200 },
      { at: '2026-11-21T08:00:00Z', principal: 'zoe@treasury.gov', agency: null, document: 'cpo', outcome: 'denied', status: 403 },
    ];
    for (const e of events)
      await sql(url, 'INSERT INTO svc_access (day, at, principal, agency, document, outcome, status) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        e.at.slice(0, 10),
        e.at,
        e.principal,
        e.agency,
        e.document,
        e.outcome,
        e.status,
      ]);
    const store = open({ url });
    const expected = tallyAccess((await store.accessLog('2026-11-20', '2026-11-21')).filter((e) => e.at.startsWith('2026-11-20')));
    expect(await store.accessTallies('2026-11-20')).toEqual(expected);
    expect((await store.accessTallies('2026-11-20')).map((t) => [t.principal.length, t.served, t.denied, t.denied_first, t.denied_last])).toEqual([
      [14, 0, 150, '2026-11-20T10:00:00Z', '2026-11-20T10:02:29Z'],
      [17, 1, 0, undefined, undefined],
      [400, 1, 0, undefined, undefined],
    ]);
    expect((await store.accessTallies('2026-11-21')).map((t) => [t.principal, t.denied])).toEqual([['zoe@treasury.gov', 1]]);
    // Past the bound already: a further denial of the day is counted, not stored.
    await store.appendAccess([{ at: '2026-11-20T12:00:00Z', principal: 'carol@SVC.TEST', document: 'cpo', outcome: 'denied', status: 403 }]);
    expect((await store.accessTallies('2026-11-20'))[0]).toMatchObject({ denied: 151, denied_last: '2026-11-20T12:00:00Z' });
    expect(await store.accessLog('2026-11-20', '2026-11-20')).toHaveLength(152);
  });

  it('counts every event appended by several stores at once, their summary rows updated in one order (no deadlock)', async () => {
    const stores = Array.from({ length: 4 }, () => open({ url, poolSize: 2 }));
    const principals = ['a@x.gov', 'b@x.gov', 'c@x.gov', 'd@x.gov', 'e@x.gov'];
    await Promise.all(
      stores.map(async (store, s) => {
        for (let b = 0; b < 20; b += 1) {
          // Each store names the principals in its own order: the rows are still locked in key order.
          const order = s % 2 === 0 ? principals : [...principals].reverse();
          await store.appendAccess(
            order.flatMap((principal, i) => [
              {
                at: `2026-11-25T10:${String(b).padStart(2, '0')}:${String(s * 10 + i).padStart(2, '0')}Z`,
                principal,
                document: 'cpo',
                outcome: 'denied' as const,
                status: 403,
              },
              {
                at: `2026-11-25T11:${String(b).padStart(2, '0')}:${String(s * 10 + i).padStart(2, '0')}Z`,
                principal,
                document: 'sdr',
                outcome: 'served' as const,
                status: 200,
              },
            ]),
          );
        }
      }),
    );
    const tallies = await open({ url }).accessTallies('2026-11-25');
    expect(tallies.map((t) => [t.principal, t.document, t.served, t.denied])).toEqual(
      principals.flatMap((p) => [
        [p, 'cpo', 0, 80],
        [p, 'sdr', 80, 0],
      ]),
    );
    expect(await open({ url }).accessLog('2026-11-25', '2026-11-25')).toHaveLength(800);
  });

  it("keeps a run's kept documents in column kept, named by its link; a run stored before them is read through its list (issue 35)", async () => {
    const counts = '{"ksis":[],"schema":"svc.ksi-counts/v1","unmapped":0}';
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const produce = () => [
      { name: 'ksi-counts.json', media_type: 'application/json', chunks: [counts] },
      { name: 'sar.json', media_type: 'application/json', chunks: ['{"sar":1}'] },
    ];
    const store = open({ url });
    for (const n of [1, 2]) {
      const id = runIdOf(recordFor(n));
      await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record: recordFor(n) }), produce);
    }
    const kept = [{ name: 'ksi-counts.json', media_type: 'application/json', sha256: sha(counts), bytes: counts.length }];
    const rows = await sql<{ seq: string; kept: unknown; link: string }>(url, 'SELECT seq, kept, link FROM svc_runs ORDER BY seq');
    expect(rows.map((r) => r.kept)).toEqual([kept, kept]);
    expect(JSON.parse(rows[0].link).records.kept).toBe(sha(canonicalize(kept)!));
    // As svc stored runs before: no kept column value, links that do not name it, the chain made again.
    let head = '0'.repeat(64);
    for (const row of rows) {
      const link = JSON.parse(row.link);
      delete link.records.kept;
      link.prev = head;
      head = sha(canonicalize(link)!);
      await sql(url, 'UPDATE svc_runs SET kept = NULL, link = $1, head = $2 WHERE seq = $3', [canonicalize(link), head, row.seq]);
    }
    await sql(url, 'UPDATE svc_run_chain SET head = $1', [head]);
    const before = open({ url });
    expect(await openedText(await before.openDocument(1, 'ksi-counts.json'))).toBe(counts);
    // Read through the list: a list changed outside svc is found as it is.
    await sql(url, `UPDATE svc_runs SET documents = jsonb_set(documents, '{0,sha256}', '"${'0'.repeat(64)}"') WHERE seq = 2`);
    await expect(before.openDocument(2, 'ksi-counts.json')).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining('column documents): the hash chain does not match the document list of run 2'),
    });
  });

  it("keeps a document as its piece list (in the run's svc_run_pieces row), its pieces in the run's frames shared by the next run; parts stored before (br, identity) read as before (issue 35)", async () => {
    // Each run's document names the run, as a POA&M item's last_run does: kept as a token, it is the same pieces.
    const textOf = (id: string) =>
      JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ observation: i, description: 'The evidence entry, checked.', last_run: id })));
    const store = open({ url });
    const ids = [1, 2].map((n) => runIdOf(recordFor(n)));
    for (const [i, id] of ids.entries()) {
      await store.append(
        id,
        (_latest, seq) => storedRunFor(id, seq, { record: recordFor(i + 1) }),
        () => [{ name: 'sar.json', media_type: 'application/json', chunks: [textOf(id)] }],
      );
    }
    // No part of it: its piece list is in the run's one row of lists.
    expect(await sql(url, "SELECT run_id FROM svc_run_documents WHERE name = 'sar.json'")).toEqual([]);
    const lists = await sql<{ run_id: string; lists: Buffer }>(url, 'SELECT run_id, lists FROM svc_run_pieces');
    expect(lists.map((row) => [...decodeNamedLists(brotliDecompressSync(row.lists))!.keys()])).toEqual([['sar.json'], ['sar.json']]);
    const packs = await sql<{ pack: string; size: number }>(
      url,
      'SELECT pack, sum(octet_length(bytes) + octet_length(keys) + octet_length(lengths))::int AS size FROM svc_piece_frames GROUP BY pack ORDER BY pack',
    );
    expect(packs[0].size).toBeLessThan(textOf(ids[0]).length / 5);
    // Run 2 adds its state's few changed pieces, none of its document's.
    expect(packs[1].size).toBeLessThan(packs[0].size / 20);
    for (const [i, id] of ids.entries()) expect(await openedText(await open({ url }).openDocument(i + 1, 'sar.json'))).toBe(textOf(id));
    // As svc stored parts before: compressed (br), then the bytes themselves (identity), a MiB a part.
    const text = Buffer.from(textOf(ids[0]));
    await sql(url, 'DELETE FROM svc_run_pieces WHERE run_id = $1', [ids[0]]);
    for (const encoding of ['br', 'identity']) {
      await sql(url, `DELETE FROM svc_run_documents WHERE run_id = $1 AND name = 'sar.json'`, [ids[0]]);
      for (let part = 0; part << 20 < text.length; part++) {
        const bytes = text.subarray(part << 20, (part + 1) << 20);
        await sql(url, `INSERT INTO svc_run_documents (run_id, name, part, bytes, encoding) VALUES ($1, 'sar.json', $2, $3, $4)`, [
          ids[0],
          part,
          encoding === 'br' ? brotliCompressSync(bytes) : bytes,
          encoding,
        ]);
      }
      expect(await openedText(await open({ url }).openDocument(1, 'sar.json'))).toBe(textOf(ids[0]));
    }
  });

  it('converts the runs stored before pieces (documents and state parts whole) into pieces, a run a transaction, the next run sharing them; a part that does not decode stays as it is (issue 35)', async () => {
    const textOf = (id: string, changed = -1) =>
      JSON.stringify(
        Array.from({ length: 20_000 }, (_, i) => ({ observation: i, description: i === changed ? 'Changed.' : 'The evidence entry, checked.', last_run: id })),
      );
    const store = open({ url });
    const ids = [1, 2, 3].map((n) => runIdOf(recordFor(n)));
    for (const [i, id] of ids.entries()) {
      await store.append(
        id,
        (_latest, seq) => storedRunFor(id, seq, { record: recordFor(i + 1) }),
        () => [{ name: 'sar.json', media_type: 'application/json', chunks: [textOf(id, i === 2 ? 7_000 : -1)] }],
      );
    }
    const runs = await Promise.all([1, 2, 3].map((seq) => store.get(seq)));
    // As svc stored them before migration 10: documents as parts (br for run 1 and 3, identity for run 2), state parts as text.
    for (const [i, id] of ids.entries()) {
      const text = Buffer.from(textOf(id, i === 2 ? 7_000 : -1));
      await sql(url, 'DELETE FROM svc_run_pieces WHERE run_id = $1', [id]);
      for (let part = 0; part << 20 < text.length; part++) {
        const bytes = text.subarray(part << 20, (part + 1) << 20);
        await sql(url, `INSERT INTO svc_run_documents (run_id, name, part, bytes, encoding) VALUES ($1, 'sar.json', $2, $3, $4)`, [
          id,
          part,
          i === 1 ? bytes : brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } }),
          i === 1 ? 'identity' : 'br',
        ]);
      }
      for (const kind of ['poam', 'events'] as const) {
        await sql(url, 'DELETE FROM svc_run_state WHERE run_id = $1 AND kind = $2', [id, kind]);
        let part = 0;
        for (const items of stateParts(runs[i]![kind]))
          await sql(url, 'INSERT INTO svc_run_state (run_id, kind, part, items) VALUES ($1, $2, $3, $4)', [id, kind, part++, items]);
      }
    }
    await sql(url, 'DELETE FROM svc_piece_frames');
    // Run 3's first part no longer decodes: its document stays as it is, and reading it names it.
    await sql(url, `UPDATE svc_run_documents SET bytes = 'not brotli' WHERE run_id = $1 AND part = 0`, [ids[2]]);
    const fourth = runIdOf(recordFor(4));
    await open({ url }).append(
      fourth,
      (_latest, seq) => storedRunFor(fourth, seq, { record: recordFor(4) }),
      () => [{ name: 'sar.json', media_type: 'application/json', chunks: [textOf(fourth)] }],
    );
    expect(await sql<{ run_id: string }>(url, 'SELECT DISTINCT run_id FROM svc_run_documents')).toEqual([{ run_id: ids[2] }]);
    expect(await sql(url, 'SELECT run_id FROM svc_run_state WHERE items IS NOT NULL')).toEqual([]);
    const lists = await sql<{ run_id: string; lists: Buffer }>(url, 'SELECT run_id, lists FROM svc_run_pieces ORDER BY run_id');
    expect(Object.fromEntries(lists.map((row) => [row.run_id, [...decodeNamedLists(brotliDecompressSync(row.lists))!.keys()]]))).toEqual({
      [ids[0]]: ['sar.json'],
      [ids[1]]: ['sar.json'],
      [ids[2]]: [],
      [fourth]: ['sar.json'],
    });
    // Converted as it was recorded: run 2 (naming itself) adds its state's few changed pieces, none of its document's.
    const packs = await sql<{ pack: string; size: number }>(
      url,
      'SELECT pack, sum(octet_length(bytes) + octet_length(keys) + octet_length(lengths))::int AS size FROM svc_piece_frames GROUP BY pack ORDER BY pack',
    );
    expect(packs.map((p) => p.pack)).toEqual(['1', '2', '3', '4']);
    expect(packs[1].size).toBeLessThan(packs[0].size / 20);
    const reopened = open({ url });
    for (const seq of [1, 2]) expect(await openedText(await reopened.openDocument(seq, 'sar.json'))).toBe(textOf(ids[seq - 1]));
    await expect(openedText(await reopened.openDocument(3, 'sar.json'))).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining('(svc_run_documents, run 3, sar.json)'),
    });
    for (const seq of [1, 2, 3]) expect(await reopened.get(seq)).toStrictEqual(runs[seq - 1]);
    expect(await openedText(await reopened.openDocument(4, 'sar.json'))).toBe(textOf(fourth));
  });

  it('keeps the canonical record bytes beside the jsonb columns', async () => {
    const store = open({ url });
    const record = recordFor(1);
    const id = runIdOf(record);
    await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record, summary: { as_of: '2026-11-02T15:03:12+01:00' } }));
    const [row] = await sql<{ seq: string; record_text: string; record: unknown; as_of: Date; recorded_at: Date }>(
      url,
      'SELECT seq, record_text, record, as_of, recorded_at FROM svc_runs',
    );
    expect(row.seq).toBe('1');
    expect(row.record_text).toBe(canonicalize(record));
    expect(createHash('sha256').update(row.record_text).digest('hex')).toBe(id);
    expect(row.record).toEqual(record);
    expect(row.as_of.toISOString()).toBe('2026-11-02T14:03:12.000Z');
    expect((await store.get(id))?.summary.as_of).toBe('2026-11-02T15:03:12+01:00');
  });

  it('upgrades a database of svc 0.5.0: chains its runs on first use and verifies every row from then on', async () => {
    await sql(url, `CREATE TABLE svc_schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)`);
    await sql(url, MIGRATIONS[0].sql);
    await sql(url, `INSERT INTO svc_schema_migrations VALUES (1, 'runs', now())`);
    const runs = [1, 2].map((n) => storedRunFor(runIdOf(recordFor(n)), n));
    for (const run of runs) {
      const text = canonicalize(run.record);
      await sql(
        url,
        `INSERT INTO svc_runs (seq, id, recorded_at, as_of, summary, record, record_text, poam, events) VALUES ($1, $2, $3, $4, $5::jsonb, $6::text::jsonb, $6::text, $7::jsonb, $8::jsonb)`,
        [
          run.summary.seq,
          run.summary.id,
          run.summary.recorded_at,
          run.summary.as_of,
          JSON.stringify(run.summary),
          text,
          JSON.stringify(run.poam),
          JSON.stringify(run.events),
        ],
      );
    }
    const store = open({ url });
    expect(await store.list()).toStrictEqual(runs.map((r) => r.summary));
    expect(await store.get(1)).toStrictEqual(runs[0]);
    const [chain] = await sql<{ seq: string; head: string }>(url, 'SELECT seq, head FROM svc_run_chain');
    const [last] = await sql<{ head: string }>(url, 'SELECT head FROM svc_runs WHERE seq = 2');
    expect(chain).toEqual({ seq: '2', head: last.head });
    // Migration 7 moved each run's POA&M state and events into parts, which verify as the columns did.
    expect(
      (
        await sql<{ kind: string; parts: string }>(url, `SELECT kind, count(*) AS parts FROM svc_run_state WHERE run_id = $1 GROUP BY kind ORDER BY kind`, [
          runs[0].summary.id,
        ])
      ).map((r) => r.kind),
    ).toEqual(runs[0].events.length > 0 ? ['events', 'poam'] : ['poam']);
    await sql(url, `UPDATE svc_run_state SET items = '{}' WHERE run_id = $1 AND kind = 'poam'`, [runs[0].summary.id]);
    await expect(store.get(1)).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: expect.stringContaining(`(svc_run_state, run 1, poam): the hash chain does not match the POA&M state of run 1`),
    });
  });

  it('detects the as_of column changed (which a range reads) and keeps the record column what record_text says', async () => {
    const store = open({ url });
    for (const n of [1, 2]) {
      const id = runIdOf(recordFor(n));
      await store.append(id, (_latest, seq) => storedRunFor(id, seq, { record: recordFor(n) }));
    }
    await expect(sql(url, `UPDATE svc_runs SET record = '{}'::jsonb WHERE seq = 1`)).rejects.toThrow(/column "record" can only be updated to DEFAULT/);
    await sql(url, `UPDATE svc_runs SET as_of = as_of - interval '1 year' WHERE seq = 1`);
    await expect(store.list({ from: '2026-01-01' })).rejects.toMatchObject({
      code: 'run-store-tampered',
      message: `${store.location} (svc_runs, seq 1, column as_of, recorded_at): the times of run 1 (${runIdOf(recordFor(1))}) are not the ones in its chain link; the store was modified outside svc. Restore it from backup`,
    });
  });

  it('has an append wait for another writer, say whom it waits for once a second has passed, and give up after lockTimeoutMs naming it', async () => {
    const appendRun = (store: PostgresRunStore, n: number) => {
      const id = runIdOf(recordFor(n));
      return store.append(id, (_latest, seq) => storedRunFor(id, seq, { record: recordFor(n) }));
    };
    await open({ url }).list();
    const writer = new Client({ connectionString: url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT pg_advisory_xact_lock(7305119270480002)');
      const [{ pid }] = (await writer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      const holder = `PostgreSQL backend ${pid}( from \\S+)? since \\S+`;
      const short = open({ url, lockTimeoutMs: 300 });
      await expect(appendRun(short, 1)).rejects.toMatchObject({
        code: 'run-store-locked',
        message: expect.stringMatching(
          new RegExp(`: the run store is locked by ${holder}; wait for it to finish, or end that session if its process is gone$`),
        ),
      });
      const lines: string[] = [];
      const patient = open({ url, waiting: (line) => void lines.push(line) });
      const appended = appendRun(patient, 1);
      while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^Waiting for the run store lock held by ${holder} \\.\\.\\.$`))]);
      await writer.query('COMMIT');
      await appended;
      expect((await patient.list()).map((s) => s.seq)).toEqual([1]);
    } finally {
      await writer.end();
    }
  });

  it("keeps a journal entry with its record as canonical text and its time as given, and appends it under the runs' lock", async () => {
    const store = open({ url });
    const record = { b: 'é 🚨', a: [1, { d: null, c: true }] };
    const entry = await store.appendJournal('vulnerability-evaluation', record, '2026-11-02T15:03:12+01:00');
    expect(await sql(url, 'SELECT seq, kind, recorded_at, record_text, prev, hash FROM svc_journal')).toEqual([
      { seq: '1', kind: 'vulnerability-evaluation', recorded_at: '2026-11-02T15:03:12+01:00', record_text: canonicalize(record), prev: null, hash: entry.hash },
    ]);
    expect(await sql(url, 'SELECT seq, hash FROM svc_journal_chain')).toEqual([{ seq: '1', hash: entry.hash }]);
    const writer = new Client({ connectionString: url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT pg_advisory_xact_lock(7305119270480002)');
      let done = false;
      const appended = store.appendJournal('vulnerability-evaluation', { n: 2 }, '2026-11-03T00:00:00Z').then((e) => {
        done = true;
        return e;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(done).toBe(false);
      await writer.query('COMMIT');
      expect(await appended).toMatchObject({ seq: 2, prev: entry.hash });
    } finally {
      await writer.end();
    }
  });

  it('serializes appends from two pools, each decided from the run before', async () => {
    const stores = [open({ url, poolSize: 3 }), open({ url, poolSize: 3 })];
    const seen: Record<number, string | undefined> = {};
    const ids = Array.from({ length: 8 }, (_, i) => runIdOf(recordFor(i + 1)));
    await Promise.all(
      ids.map((id, i) =>
        stores[i % 2].append(id, (latest, seq) => {
          seen[seq] = latest?.summary.id;
          return storedRunFor(id, seq, { record: recordFor(i + 1) });
        }),
      ),
    );
    const listed = await stores[0].list();
    expect(listed.map((s) => s.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(listed.map((s) => seen[s.seq])).toEqual([undefined, ...listed.slice(0, -1).map((s) => s.id)]);
  });

  it('shows its location without the password', () => {
    const store = open({ url });
    expect(store.location).toBe(url.replace(`:${TEST_PASSWORD}@`, ':***@'));
    expect(store.location).not.toContain(TEST_PASSWORD);
  });

  it('reports a server nobody listens for as unreachable, without the password', async () => {
    const nowhere = `postgresql://svc:${TEST_PASSWORD}@127.0.0.1:${await freePort()}/svc`;
    const store = open({ url: nowhere });
    for (const attempt of [() => store.list(), () => store.append(runIdOf(recordFor(1)), () => storedRunFor(runIdOf(recordFor(1)), 1))]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error).toMatchObject({
        code: 'run-store-unreachable',
        message: `${nowhere.replace(TEST_PASSWORD, '***')}: cannot reach the PostgreSQL run store (connection refused); check SVC_STORE and that the server is running`,
      });
      expect(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack })).not.toContain(TEST_PASSWORD);
    }
  });

  it('reports a database that does not exist as unreachable, naming it', async () => {
    const store = open({ url: server.urlOf('no_such_db') });
    await expect(store.list()).rejects.toMatchObject({
      code: 'run-store-unreachable',
      message: `${store.location}: cannot reach the PostgreSQL run store (database "no_such_db" does not exist); check SVC_STORE and that the server is running`,
    });
  });
});

describe('redactUrl', () => {
  it.each([
    ['postgresql://svc:p%40ss@db.example:5432/svc', 'postgresql://svc:***@db.example:5432/svc'],
    ['postgres://svc@db.example/svc?sslmode=require&password=hunter2', 'postgres://svc@db.example/svc?sslmode=require&password=***'],
    ['postgres://db.example/svc', 'postgres://db.example/svc'],
    ["host=db.example user=svc password='a b' dbname=svc", 'host=db.example user=svc password=*** dbname=svc'],
  ])('%s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});
