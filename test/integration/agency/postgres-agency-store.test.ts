import { Client, Pool } from 'pg';
import { ConfigError, IntegrityError, UnavailableError } from '../../../src/domain/errors';
import { PostgresAgencyStore } from '../../../src/infrastructure/agency/postgres-agency-store';
import { freePort, startPostgres, TEST_PASSWORD, type PostgresServer } from '../../support/postgres-server';
import { agencyStoreContract, pullOf, reviewOf } from './agency-store.contract';

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

/** A new empty database, so every case starts from nothing and migrates itself. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `agency_test_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  return { url: server.urlOf(name), drop: async () => void (await admin.query(`DROP DATABASE ${name}`)) };
}

/** One statement on its own connection, closed before it returns. */
async function sql<R extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A store on a fresh database, its twins, and their cleanup. */
async function harness(): Promise<{ url: string; store: PostgresAgencyStore; twin: () => PostgresAgencyStore; cleanup: () => Promise<void> }> {
  const { url, drop } = await freshDatabase();
  const stores = [new PostgresAgencyStore({ url })];
  return {
    url,
    store: stores[0],
    twin: () => {
      const twin = new PostgresAgencyStore({ url, poolSize: 2 });
      stores.push(twin);
      return twin;
    },
    cleanup: async () => {
      await Promise.all(stores.map((s) => s.close()));
      await drop();
    },
  };
}

agencyStoreContract('PostgresAgencyStore', async () => {
  const h = await harness();
  return {
    store: h.store,
    location: h.store.location,
    twin: h.twin,
    corrupt: async (sha256) => {
      await sql(h.url, 'UPDATE agency_documents SET bytes = convert_to(\'{"document":"to be damaged!"}\', \'UTF8\') WHERE sha256 = $1', [sha256]);
      return `${h.store.location} (agency_documents, sha256 ${sha256})`;
    },
    cleanup: h.cleanup,
  };
});

describe('PostgresAgencyStore (PostgreSQL)', () => {
  let h: Awaited<ReturnType<typeof harness>>;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('names itself by its URL with the password masked', () => {
    expect(h.store.location).toBe(h.url.replace(`:${TEST_PASSWORD}@`, ':***@'));
    expect(h.store.location).not.toContain(TEST_PASSWORD);
  });

  it('creates its own tables once, beside the run store, however many stores migrate at once', async () => {
    const twins = [h.twin(), h.twin(), h.twin()];
    await Promise.all([h.store, ...twins].map((store) => store.providers()));
    const tables = await sql<{ table_name: string }>(
      h.url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(['agency_documents', 'agency_pulls', 'agency_reviews', 'agency_schema_migrations']);
    expect(await sql(h.url, 'SELECT version, name FROM agency_schema_migrations')).toEqual([{ version: 1, name: 'agency documents, pulls and reviews' }]);
    // A store opened later finds the schema up to date.
    expect(await h.twin().providers()).toEqual([]);
  });

  it('keeps a pull as jsonb under (provider, seq), and a document as its plain bytes', async () => {
    await h.store.appendPull(pullOf('acme', 1));
    const sha256 = await h.store.putDocument(Buffer.from('{"plain":true}'));
    const [pull] = await sql<{ provider: string; seq: string; outcome: string }>(
      h.url,
      "SELECT provider, seq, record->>'outcome' AS outcome FROM agency_pulls",
    );
    expect(pull).toEqual({ provider: 'acme', seq: '1', outcome: 'partial' });
    const [doc] = await sql<{ text: string }>(h.url, "SELECT convert_from(bytes, 'UTF8') AS text FROM agency_documents WHERE sha256 = $1", [sha256]);
    expect(doc.text).toBe('{"plain":true}');
  });

  it('gives 20 concurrent appends from four stores on one database seq 1 to 20, pulls and reviews apart', async () => {
    const stores = [h.store, h.twin(), h.twin(), h.twin()];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => [
        stores[i % 4].appendPull(pullOf('acme', i + 1)),
        stores[(i + 1) % 4].appendReview(reviewOf('acme', (i % 9) + 1)),
      ]).flat(),
    );
    const rows = await sql<{ seq: string }>(h.url, "SELECT seq FROM agency_pulls WHERE provider = 'acme' ORDER BY seq");
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await h.store.pulls('acme')).map((p) => p.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await h.store.reviews('acme')).toHaveLength(20);
  });

  it('refuses a pull row edited to another seq or provider', async () => {
    await h.store.appendPull(pullOf('acme', 1));
    await h.store.appendPull(pullOf('acme', 2));
    await sql(h.url, "UPDATE agency_pulls SET record = jsonb_set(record, '{seq}', '1') WHERE seq = 2");
    const where = `${h.store.location} (agency_pulls, provider acme, seq 2)`;
    const refused = h.store.pulls('acme', { last: 1 });
    await expect(refused).rejects.toThrow(IntegrityError);
    await expect(h.store.pulls('acme', { last: 1 })).rejects.toMatchObject({
      code: 'agency-pull-corrupt',
      message: `${where}: not the pull record stored there (it holds seq 1); restore it from a backup or remove it`,
    });
    await sql(h.url, `UPDATE agency_pulls SET record = jsonb_set(record, '{seq}', '2') || '{"provider":"beta"}' WHERE seq = 2`);
    await expect(h.store.pulls('acme')).rejects.toMatchObject({
      message: `${where}: not the pull record stored there (it names provider "beta"); restore it from a backup or remove it`,
    });
    await h.store.appendReview(reviewOf('acme', 1));
    await sql(h.url, `UPDATE agency_reviews SET record = '[1]'`);
    await expect(h.store.reviews('acme')).rejects.toMatchObject({
      code: 'agency-review-corrupt',
      message: `${h.store.location} (agency_reviews, provider acme, seq 1): not the review record stored there (not a JSON object); restore it from a backup or remove it`,
    });
  });

  it('refuses a schema newer than it knows', async () => {
    await h.store.providers();
    await sql(h.url, "INSERT INTO agency_schema_migrations (version, name, applied_at) VALUES (99, 'future', now())");
    const store = h.twin();
    const refused = store.providers();
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(store.providers()).rejects.toMatchObject({
      code: 'agency-store-schema-newer',
      message: `${store.location}: the agency store's schema is at version 99, newer than this svc knows (1); upgrade svc`,
    });
  });
});

describe('PostgresAgencyStore (no server)', () => {
  it('reports a server that cannot be reached as UnavailableError naming SVC_STORE, the password masked', async () => {
    const port = await freePort();
    const store = new PostgresAgencyStore({ url: `postgres://svc:${TEST_PASSWORD}@127.0.0.1:${port}/svc` });
    try {
      const message = `postgres://svc:***@127.0.0.1:${port}/svc: cannot reach the PostgreSQL agency store (connection refused); check SVC_STORE and that the server is running`;
      for (const attempt of [() => store.putDocument(Buffer.from('x')), () => store.pulls('acme'), () => store.appendPull(pullOf('acme', 1))]) {
        const refused = attempt();
        await expect(refused).rejects.toThrow(UnavailableError);
        await expect(refused).rejects.toMatchObject({ code: 'agency-store-unreachable', message });
      }
    } finally {
      await store.close();
    }
  });

  it('reports a database that is not there as UnavailableError, the password masked', async () => {
    const store = new PostgresAgencyStore({ url: server.urlOf('no_such_db') });
    try {
      const refused = store.providers();
      await expect(refused).rejects.toThrow(UnavailableError);
      await expect(refused).rejects.toMatchObject({
        code: 'agency-store-unreachable',
        message: `${server.urlOf('no_such_db').replace(`:${TEST_PASSWORD}@`, ':***@')}: cannot reach the PostgreSQL agency store (database "no_such_db" does not exist); check SVC_STORE and that the server is running`,
      });
    } finally {
      await store.close();
    }
  });
});
