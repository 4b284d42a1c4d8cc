import { DEFAULT_CHUNK_CHARS, jsonText } from '../encoding/json-chunks';
import { isPlainObject } from '../encoding/json-values';

/**
 * A recorded run's results counted per `ksi_id` (issue 35): stored with the run at record time, so what reads a year
 * of days (the KSI metrics of `fedramp sdr`, the trust center's, the OCR's) reads one small document per run, never
 * the run's evidence again. Canonical JSON: `{"ksis":[{"fail","ksi_id","other","pass"}, …],"schema","unmapped"}`, in
 * the results' order (ksi_id order), consecutive results of one id counted in one row. Only results a KSI can be
 * reached from have a row: those the run's catalog maps, and those whose id is shaped as FedRAMP's ids are
 * (KSI_ID_SHAPE: `KSI-IAM-APM`, `KSI-IAM-01`, whatever release or catalog later reads them); the others (a scanner's
 * own ids, which no KSI is reached from) are only counted, in `unmapped`, so a run of a million such results keeps a
 * document of a few rows.
 */
export const KSI_COUNTS_DOCUMENT = 'ksi-counts.json';
export const KSI_COUNTS_SCHEMA = 'svc.ksi-counts/v1';
/** How the document begins (canonical JSON puts `ksis` before `schema`), and how it ends after the array. */
export const KSI_COUNTS_HEAD = '{"ksis":[';
export const KSI_COUNTS_TAIL = `,"schema":"${KSI_COUNTS_SCHEMA}","unmapped":`;

/** FedRAMP's KSI ids, of every release and catalog: a theme of 2 or 3 letters and 2 digits or 3 letters. */
export const KSI_ID_SHAPE = /^KSI-[A-Z]{2,3}-(?:\d{2}|[A-Z]{3})$/;

/** One result as the counts read it: its id and status, and whether the run's catalog maps it. */
export interface CountedResult {
  ksi_id: string;
  status: string;
  mapped: boolean;
}

/** The statuses of one ksi_id's results in a run: PASS, FAIL, and any other (WARN, …). */
export interface KsiCounts {
  ksi_id: string;
  pass: number;
  fail: number;
  other: number;
}

/** The rows of `results`, consecutive results of one id in one row; `unmapped.count` counts those left out. */
function* ksiCountRows(results: Iterable<CountedResult>, unmapped: { count: number }): Generator<KsiCounts> {
  let row: KsiCounts | undefined;
  for (const { ksi_id, status, mapped } of results) {
    if (!mapped && !KSI_ID_SHAPE.test(ksi_id)) {
      unmapped.count += 1;
      continue;
    }
    if (row === undefined || row.ksi_id !== ksi_id) {
      if (row !== undefined) yield row;
      row = { ksi_id, pass: 0, fail: 0, other: 0 };
    }
    if (status === 'PASS') row.pass += 1;
    else if (status === 'FAIL') row.fail += 1;
    else row.other += 1;
  }
  if (row !== undefined) yield row;
}

/** A run's rows (ksiCountRows) and how many results none of them counts. */
export interface KsiCounted {
  rows: KsiCounts[];
  unmapped: number;
}

/** The rows of `results` and the count of those left out: at most a row per KSI id. */
export function countKsis(results: Iterable<CountedResult>): KsiCounted {
  const unmapped = { count: 0 };
  const rows = [...ksiCountRows(results, unmapped)];
  return { rows, unmapped: unmapped.count };
}

/** The document's canonical text in pieces, from the run's rows (made when the document is first written). */
export function ksiCountsChunks(counted: () => KsiCounted): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      const { rows, unmapped } = counted();
      let piece = KSI_COUNTS_HEAD;
      let first = true;
      for (const row of rows) {
        piece += `${first ? '' : ','}${jsonText(row, 'canonical')}`;
        first = false;
        if (piece.length >= DEFAULT_CHUNK_CHARS) {
          yield piece;
          piece = '';
        }
      }
      yield `${piece}]${KSI_COUNTS_TAIL}${unmapped}}`;
    },
  };
}

/** One row as stored, or undefined when it is not one svc wrote. */
export function readKsiCountsRow(value: unknown): KsiCounts | undefined {
  if (!isPlainObject(value) || typeof value.ksi_id !== 'string' || Object.keys(value).length !== 4) return undefined;
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return count(value.pass) && count(value.fail) && count(value.other)
    ? { ksi_id: value.ksi_id, pass: value.pass, fail: value.fail, other: value.other }
    : undefined;
}
