import { DAY_MS } from '../encoding/iso-time';
import { jsonText } from '../encoding/json-chunks';
import { isPlainObject } from '../encoding/json-values';
import { readKsiCountsRow, type KsiCounts } from './ksi-counts';

/**
 * The KSI counts of every run a year of days reads, kept with each run when it is recorded (issue 35): the newest run's
 * `ksi-history.json` says, for each run of the store up to it, what its `ksi-counts.json` says, as the rows that changed
 * since the run before it of its source. So the KSI metrics of 365 days (`fedramp sdr`, the trust center's, the OCR's)
 * read one document, not one per run; the hash chain vouches for it as for every document of the run.
 *
 * Canonical JSON: `{"from"?, "runs":[{"as_of","changed":[rows],"id","seq","source"} | {"as_of","id","seq","source",
 * "uncounted":true}, …],"schema"}`, in seq order. A run's `changed` rows are those of its counts that differ from the
 * source's previous counted run in the document (all of them for its first); a row counting nothing is an id the
 * source no longer reports. A run recorded before svc stored counts is `uncounted` (its results are read instead) and
 * changes nothing. Runs whose as_of is more than KSI_HISTORY_DAYS before the newest run's are left out, but each
 * source's last one before then (what the days after start from); `from` then says where the document is whole.
 */
export const KSI_HISTORY_DOCUMENT = 'ksi-history.json';
export const KSI_HISTORY_SCHEMA = 'svc.ksi-history/v1';

/** How many days before its newest run the history holds every run: a year of metrics, on any day of the last month. */
export const KSI_HISTORY_DAYS = 400;

/** A run as the history names it: its summary's id, seq and as_of, and its source's key (run-sources.ts). */
export interface HistoryRun {
  id: string;
  seq: number;
  as_of: string;
  source: string;
}

/** A run of the history: its counts' rows that changed, or none when it was recorded without counts. */
export interface HistoryEntry extends HistoryRun {
  changed?: readonly KsiCounts[];
}

export interface KsiHistory {
  /** Where the history holds every run (ISO time): absent when it left none out. */
  from?: string;
  runs: readonly HistoryEntry[];
}

/** One run's counts as the history's replay gives it: each row that changed, as it was and as it is. */
export interface ReplayedRun {
  entry: HistoryEntry;
  /** Undefined for a run recorded without counts. */
  changes?: readonly { before?: KsiCounts; after: KsiCounts }[];
  /** Its source's rows after it, by id (the replay's own map: the source's next run changes it). */
  rows?: ReadonlyMap<string, KsiCounts>;
}

/** The runs of a history in seq order, each with its rows as they changed against its source's previous counts. */
export function* replayKsiHistory(runs: Iterable<HistoryEntry>): Generator<ReplayedRun> {
  const sources = new Map<string, Map<string, KsiCounts>>();
  for (const entry of runs) {
    if (entry.changed === undefined) {
      yield { entry };
      continue;
    }
    const rows = sources.get(entry.source) ?? new Map<string, KsiCounts>();
    sources.set(entry.source, rows);
    const changes = entry.changed.map((after) => {
      const before = rows.get(after.ksi_id);
      if (counts(after)) rows.set(after.ksi_id, after);
      else rows.delete(after.ksi_id);
      return before === undefined ? { after } : { before, after };
    });
    yield { entry, changes, rows };
  }
}

/** A run recorded, with its counts' rows (undefined when it has none). */
export interface CountedRun {
  run: HistoryRun;
  rows: readonly KsiCounts[] | undefined;
}

/**
 * The history once `added` (in seq order, after `previous`'s runs) are recorded: `previous`'s runs and them, the runs
 * older than KSI_HISTORY_DAYS before the newest as_of left out (each source's last before then kept), each run's changes
 * written against its source's previous run in the new history.
 */
export function nextKsiHistory(previous: KsiHistory | undefined, added: readonly CountedRun[]): KsiHistory {
  const all: HistoryRun[] = [...(previous?.runs ?? []), ...added.map((a) => a.run)];
  const cutoff = all.reduce((at, e) => Math.max(at, Date.parse(e.as_of)), 0) - KSI_HISTORY_DAYS * DAY_MS;
  // Each source's last run before the cutoff, by as_of then seq (as the days read them): where its days start.
  const last = new Map<string, HistoryRun>();
  for (const run of all) {
    const seen = last.get(run.source);
    if (
      Date.parse(run.as_of) < cutoff &&
      (seen === undefined || Date.parse(run.as_of) > Date.parse(seen.as_of) || (run.as_of === seen.as_of && run.seq > seen.seq))
    )
      last.set(run.source, run);
  }
  const kept = (run: HistoryRun) => Date.parse(run.as_of) >= cutoff || last.get(run.source) === run;
  // Each run kept, its changes written against the previous run kept of its source.
  const written = new Map<string, Map<string, KsiCounts>>();
  const runs: HistoryEntry[] = [];
  const keep = (run: HistoryRun, now: ReadonlyMap<string, KsiCounts> | undefined) => {
    if (!kept(run)) return;
    const { id, seq, as_of, source } = run;
    if (now === undefined) return void runs.push({ id, seq, as_of, source });
    runs.push({ id, seq, as_of, source, changed: changes(written.get(source), now) });
    written.set(source, new Map(now));
  };
  for (const { entry, rows } of replayKsiHistory(previous?.runs ?? [])) keep(entry, rows);
  for (const { run, rows } of added) keep(run, rows && rowsById(rows));
  const from = all.some((run) => !kept(run)) ? new Date(cutoff).toISOString() : previous?.from;
  return { ...(from === undefined ? {} : { from }), runs };
}

/** The rows of `now` that differ from `before` (all of them without one), and a row counting nothing for each id gone. */
function changes(before: ReadonlyMap<string, KsiCounts> | undefined, now: ReadonlyMap<string, KsiCounts>): KsiCounts[] {
  const changed: KsiCounts[] = [];
  for (const [id, row] of now) {
    const was = before?.get(id);
    if (was === undefined || was.pass !== row.pass || was.fail !== row.fail || was.other !== row.other) changed.push(row);
  }
  for (const id of before?.keys() ?? []) if (!now.has(id)) changed.push({ ksi_id: id, pass: 0, fail: 0, other: 0 });
  return changed.sort((a, b) => (a.ksi_id < b.ksi_id ? -1 : a.ksi_id > b.ksi_id ? 1 : 0));
}

/** `rows` by id, the rows of one id summed (a run's counts have a row per run of consecutive results of an id). */
function rowsById(rows: readonly KsiCounts[]): Map<string, KsiCounts> {
  const byId = new Map<string, KsiCounts>();
  for (const row of rows) {
    const seen = byId.get(row.ksi_id);
    byId.set(
      row.ksi_id,
      seen === undefined ? row : { ksi_id: row.ksi_id, pass: seen.pass + row.pass, fail: seen.fail + row.fail, other: seen.other + row.other },
    );
  }
  return byId;
}

function counts(row: KsiCounts): boolean {
  return row.pass + row.fail + row.other > 0;
}

/** The history's canonical text, a run at a time. */
export function* ksiHistoryChunks(history: KsiHistory): Generator<string> {
  yield `{${history.from === undefined ? '' : `"from":${JSON.stringify(history.from)},`}"runs":[`;
  let first = true;
  for (const run of history.runs) {
    yield `${first ? '' : ','}${jsonText(run.changed === undefined ? { ...run, uncounted: true } : run, 'canonical')}`;
    first = false;
  }
  yield `],"schema":"${KSI_HISTORY_SCHEMA}"}`;
}

const RUN_ID = /^[0-9a-f]{64}$/;

/** A parsed history document, or what is wrong with it (one svc did not write). */
export function readKsiHistory(value: unknown): KsiHistory | string {
  if (!isPlainObject(value) || value.schema !== KSI_HISTORY_SCHEMA || !Array.isArray(value.runs)) return `it is not a ${KSI_HISTORY_SCHEMA} document`;
  const { from } = value;
  if (Object.keys(value).length !== (from === undefined ? 2 : 3) || (from !== undefined && (typeof from !== 'string' || Number.isNaN(Date.parse(from)))))
    return 'its fields are not the ones svc writes';
  const runs: HistoryEntry[] = [];
  let seq = 0;
  for (const run of value.runs as unknown[]) {
    const entry = readEntry(run);
    if (entry === undefined || entry.seq <= seq) return `run ${runs.length + 1} of it is not one svc wrote: ${JSON.stringify(run).slice(0, 80)}`;
    seq = entry.seq;
    runs.push(entry);
  }
  return { ...(from === undefined ? {} : { from: from as string }), runs };
}

function readEntry(value: unknown): HistoryEntry | undefined {
  if (!isPlainObject(value)) return undefined;
  const { id, seq, as_of, source, changed, uncounted } = value;
  if (
    typeof id !== 'string' ||
    !RUN_ID.test(id) ||
    !Number.isSafeInteger(seq) ||
    (seq as number) < 1 ||
    typeof as_of !== 'string' ||
    Number.isNaN(Date.parse(as_of)) ||
    typeof source !== 'string'
  )
    return undefined;
  const run = { id, seq: seq as number, as_of, source };
  if (Object.keys(value).length !== 5) return undefined;
  if (uncounted === true) return run;
  if (!Array.isArray(changed)) return undefined;
  const rows: KsiCounts[] = [];
  for (const row of changed as unknown[]) {
    const read = readKsiCountsRow(row);
    if (read === undefined) return undefined;
    rows.push(read);
  }
  return { ...run, changed: rows };
}
