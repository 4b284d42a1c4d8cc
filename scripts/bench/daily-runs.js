'use strict';
/**
 * Issue 35's daily series and the throwaway stores its benches record it into (scripts/bench.js: daily-bytes,
 * sdr-days, conmon-scale; docs/performance.md, "Daily runs").
 *
 * Day 1 is the bench generator's report of n results (scripts/bench/generate-report.js, variant a: the same results
 * in the same order), generated_at 2026-01-01T00:00:00Z. Day d is day d-1 with the results i where
 * (i + 37·d) % 100 === 0 changed: 1 result in 100 each day, a different hundredth every day, each result once in
 * 100 days. A change flips the status (PASS to FAIL, anything else to PASS; a second change flips it back) and with
 * it the check's status, `details`, `evidence.compliant`, `evidence.value` (i + 10^7·day) and `observed_at` (that
 * day). Results that did not change keep every byte, `observed_at` included. generated_at is day d at 00:00Z; the
 * benches record day d with `--now <day d>T06:00:00Z`.
 *   node scripts/bench/daily-runs.js <n> <day> <out.json>
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ids, result } = require('./generate-report');

const DAY_MS = 86_400_000;
const FIRST = Date.parse('2026-01-01T00:00:00Z');
const dateOf = (day) => new Date(FIRST + (day - 1) * DAY_MS).toISOString().slice(0, 10);
const generatedAt = (day) => `${dateOf(day)}T00:00:00Z`;
const recordedAt = (day) => `${dateOf(day)}T06:00:00Z`;

/** 37 · 73 = 2701 ≡ 1 (mod 100): result i changes on the days e ≡ -73·i (mod 100), e ≥ 2. */
function changes(i, day) {
  const e0 = (((-73 * i) % 100) + 100) % 100;
  const first = e0 < 2 ? e0 + 100 : e0;
  if (first > day) return { count: 0, last: 0 };
  const count = Math.floor((day - first) / 100) + 1;
  return { count, last: first + (count - 1) * 100 };
}

/** Result i of the series on `day`. */
function dailyResult(id, i, day) {
  const base = result(id, i, 'a');
  const { count, last } = changes(i, day);
  if (count === 0) return base;
  const status = count % 2 === 0 ? base.status : base.status === 'PASS' ? 'FAIL' : 'PASS';
  return {
    ...base,
    status,
    details:
      status === 'PASS'
        ? 'All settings match the secure baseline.'
        : `Setting ${(i + last) % 97} differs from the secure baseline on ${1 + ((i + last) % 13)} resources.`,
    observed_at: `${dateOf(last)}T05:00:00Z`,
    checks: [{ ...base.checks[0], status }],
    evidence: { ...base.evidence, value: i + last * 1e7, compliant: status === 'PASS' },
  };
}

/** Writes day `day` of the n-result series to `file`; returns how many results differ from the day before. */
function generateDay(n, day, file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  let changed = 0;
  let batch = `{"schema_version":"1","generated_at":"${generatedAt(day)}","source":{"tool":"benchgen","version":"1.0","tenant":"bench-tenant"},"results":[\n`;
  ids(n).forEach((id, i) => {
    if (day > 1 && changes(i, day).last === day) changed++;
    batch += (i === 0 ? '' : ',\n') + JSON.stringify(dailyResult(id, i, day));
    if (batch.length > 1 << 20) {
      fs.writeSync(fd, batch);
      batch = '';
    }
  });
  fs.writeSync(fd, `${batch}\n]}\n`);
  fs.closeSync(fd);
  return changed;
}

/** Bytes of every file under `dir`, `du --apparent-size` style (0 when it does not exist). */
function treeBytes(dir) {
  if (!fs.existsSync(dir)) return 0;
  let sum = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sum += treeBytes(file);
    else if (entry.isFile()) sum += fs.statSync(file).size;
  }
  return sum;
}

/** initdb and pg_ctl from PATH, else the newest /usr/lib/postgresql/<major>/bin (as test/support/postgres-server.ts). */
function serverBinaries() {
  const onPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && ['initdb', 'pg_ctl'].every((tool) => fs.existsSync(path.join(dir, tool))));
  if (onPath.length > 0) return onPath[0];
  const debian = '/usr/lib/postgresql';
  const majors = fs.existsSync(debian)
    ? fs.readdirSync(debian).filter((v) => ['initdb', 'pg_ctl'].every((tool) => fs.existsSync(path.join(debian, v, 'bin', tool))))
    : [];
  const newest = majors.sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))[0];
  if (newest === undefined) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or under /usr/lib/postgresql/*/bin');
  return path.join(debian, newest, 'bin');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = require('node:net').createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway PostgreSQL cluster on loopback, as test/support/postgres-server.ts starts one: initdb into a temp dir,
 * pg_ctl on a free port, fsync off (as root, run as the postgres OS user). Its databases are made with `database(name)`
 * (dropped first if there); `sizes(name)` is `pg_database_size` and the svc_ tables' `pg_total_relation_size` after
 * VACUUM and CHECKPOINT. Throws, with the reason, when it cannot start.
 */
async function startPostgres() {
  const { Client } = require('pg');
  const bin = serverBinaries();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-pg-'));
  const data = path.join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    fs.chownSync(root, id('-u'), id('-g'));
  }
  const pg = (tool, argv) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...argv], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
      : execFileSync(path.join(bin, tool), argv, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await freePort();
  try {
    const initdb = ['-D', data, '-U', 'svc', '--auth=trust', '-E', 'UTF8'];
    try {
      pg('initdb', [...initdb, '--locale=C.UTF-8']);
    } catch {
      pg('initdb', [...initdb, '--no-locale']);
    }
    pg('pg_ctl', [
      '-D',
      data,
      '-o',
      `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${root} -c fsync=off`,
      '-w',
      '-l',
      path.join(root, 'log'),
      'start',
    ]);
  } catch (error) {
    try {
      pg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      /* not started */
    }
    fs.rmSync(root, { recursive: true, force: true });
    throw new Error(
      `could not start PostgreSQL with ${bin}: ${
        String(error.stderr ?? error.message)
          .trim()
          .split('\n')[0]
      }`,
    );
  }
  const urlOf = (database) => `postgresql://svc@127.0.0.1:${port}/${database}`;
  const query = async (database, ...sql) => {
    const client = new Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      const out = [];
      for (const q of sql) out.push((await client.query(q)).rows);
      return out;
    } finally {
      await client.end();
    }
  };
  return {
    version: String(execFileSync(path.join(bin, 'pg_ctl'), ['--version'], { encoding: 'utf8' })).trim(),
    urlOf,
    /** Makes database `name` afresh, empty or as a copy of `template`; returns its URL. */
    async database(name, template) {
      await query('postgres', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      return urlOf(name);
    },
    async drop(name) {
      await query('postgres', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
    async sizes(name) {
      const [, , [db], [tables]] = await query(
        name,
        'VACUUM',
        'CHECKPOINT',
        'SELECT pg_database_size(current_database())::bigint AS bytes',
        "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND c.relname LIKE 'svc\\_%' AND n.nspname NOT IN ('pg_catalog', 'information_schema')",
      );
      return { database: Number(db.bytes), tables: Number(tables.bytes) };
    },
    stop() {
      try {
        pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

module.exports = { dateOf, generatedAt, recordedAt, changes, dailyResult, generateDay, treeBytes, startPostgres };
if (require.main === module) {
  const [n, day, file] = process.argv.slice(2);
  console.log(`${file}: day ${day} of ${n} results, ${generateDay(Number(n), Number(day), file)} changed since the day before`);
}
