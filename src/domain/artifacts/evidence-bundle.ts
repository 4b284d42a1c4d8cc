import type { AssessedResult } from '../assessment/assessment';
import { InvalidInputError } from '../errors';
import { formatDigest, parseDigest, type ContentDigest } from '../evidence/content-digest';
import { serializeEvidenceEntry } from '../evidence/evidence-entry';
import { DEFAULT_CHUNK_CHARS, jsonText } from '../encoding/json-chunks';
import { readNormalizedReport, reportedResult, type KsiResult, type ReportSource } from '../ksi/ksi-result';
import { isIsoTime, isPlainObject } from '../encoding/json-values';
import { readDetections, type Detection } from '../vulnerabilities/detection';
import type { InputRef } from './run-context';
import type { TextSink } from './text-sink';

export const EVIDENCE_BUNDLE_SCHEMA = 'svc.evidence-bundle/v1';

/**
 * The canonical `evidence-bundle.json` is `{"entries":[...],"input":{...},"merkle_root":...,"schema":...}` (keys in
 * RFC 8785 order): this head, the entries in ksi_id order, then evidenceBundleTail.
 */
export const EVIDENCE_BUNDLE_HEAD = '{"entries":[';

/**
 * What a bundle carries of its report besides the results (docs/artifacts.md): the report's `source` (the scanner and
 * its scope, which names the run's source when the bundle is recorded) and its `vulnerabilities[]`, so no path from a
 * scanner's report to the run store drops a detection (an empty `vulnerabilities` says the scanner found none). Both
 * are left out when the report has none (and bundles written before them keep their bytes).
 */
export interface BundleFacts {
  /** The report's generated_at: the time the run speaks for when the bundle is recorded (else when it is recorded). */
  generated_at?: string;
  schema_version?: string;
  source?: ReportSource;
  vulnerabilities?: Detection[];
}

export function evidenceBundleTail(input: InputRef, merkleRootHex: string, facts: BundleFacts = {}): string {
  const version = facts.schema_version === undefined ? '' : `,"schema_version":${JSON.stringify(facts.schema_version)}`;
  const source = facts.source === undefined ? '' : `,"source":${jsonText(facts.source, 'canonical')}`;
  const found = facts.vulnerabilities === undefined ? '' : `,"vulnerabilities":${jsonText(facts.vulnerabilities, 'canonical')}`;
  const generated = facts.generated_at === undefined ? '' : `,"generated_at":${JSON.stringify(facts.generated_at)}`;
  // RFC 8785 order: entries < generated_at < input < merkle_root < schema < schema_version < source < vulnerabilities.
  return `]${generated},"input":${inputText(input)},"merkle_root":"${formatDigest(merkleRootHex)}","schema":"${EVIDENCE_BUNDLE_SCHEMA}"${version}${source}${found}}`;
}

/**
 * The canonical evidence-bundle.json of the entries given (their canonical texts, in order), in pieces of about
 * DEFAULT_CHUNK_CHARS code units, so a run of any size is never one string.
 */
export function* evidenceBundleChunks(entries: Iterable<string>, input: InputRef, merkleRootHex: string, facts?: BundleFacts): Generator<string> {
  let text = EVIDENCE_BUNDLE_HEAD;
  let first = true;
  for (const entry of entries) {
    text += first ? entry : `,${entry}`;
    first = false;
    if (text.length >= DEFAULT_CHUNK_CHARS) {
      yield text;
      text = '';
    }
  }
  yield text + evidenceBundleTail(input, merkleRootHex, facts);
}

/** Writes entries of the bundle; `preceded` when entries written elsewhere come before these. */
export class EvidenceEntries {
  private written: boolean;

  constructor(
    private readonly sink: TextSink,
    private readonly digest: ContentDigest,
    preceded = false,
  ) {
    this.written = preceded;
  }

  /** Writes the entry of one result; returns its hex content hash (the Merkle leaf). */
  add(item: AssessedResult): string {
    const { text, hash } = serializeEvidenceEntry(item.result, item.definition, this.digest);
    this.sink.write(this.written ? `,${text}` : text);
    this.written = true;
    return hash;
  }
}

/** Canonical `{"name":...,"sha256":"sha256:..."}`: both keys are fixed and already in order. */
function inputText(input: InputRef): string {
  return JSON.stringify({ name: input.name, sha256: formatDigest(input.sha256) });
}

export interface RecordedBundle extends BundleFacts {
  input: { name: string; sha256: string };
  merkleRoot: string;
  /** The results the entries were made from, in the bundle's order. */
  results: KsiResult[];
  /** Hex content hash each entry records. */
  recordedHashes: string[];
}

/** Reads an `evidence-bundle.json` back into the results it was made from and the hashes it records. */
export function readEvidenceBundle(document: unknown, file: string): RecordedBundle {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-evidence-bundle', `${file}: ${path}: ${problem}; pass an evidence-bundle.json written by svc`);
  };
  if (!isPlainObject(document) || document.schema !== EVIDENCE_BUNDLE_SCHEMA) return fail('schema', `expected "${EVIDENCE_BUNDLE_SCHEMA}"`);
  const { entries, input, merkle_root } = document;
  if (!Array.isArray(entries)) return fail('entries', 'expected an array');
  const root = parseDigest(merkle_root) ?? fail('merkle_root', 'expected sha256:<64 hex digits>');
  if (!isPlainObject(input) || typeof input.name !== 'string') return fail('input', 'expected {"name", "sha256"}');
  const inputHash = parseDigest(input.sha256) ?? fail('input.sha256', 'expected sha256:<64 hex digits>');
  const recordedHashes: string[] = [];
  const results = entries.map((entry, i) => {
    if (!isPlainObject(entry)) return fail(`entries[${i}]`, 'expected an object');
    recordedHashes.push(parseDigest(entry.content_hash) ?? fail(`entries[${i}].content_hash`, 'expected sha256:<64 hex digits>'));
    return reportedResult(entry);
  });
  const report = readNormalizedReport(results, file, { arrayPath: 'entries' });
  const { source, vulnerabilities, generated_at, schema_version } = document;
  if (schema_version !== undefined && typeof schema_version !== 'string') fail('schema_version', 'expected a string');
  if (source !== undefined && !isPlainObject(source)) fail('source', 'expected an object');
  if (generated_at !== undefined && !(typeof generated_at === 'string' && isIsoTime(generated_at))) fail('generated_at', 'expected an ISO-8601 time');
  const detections = vulnerabilities === undefined ? undefined : readDetections(vulnerabilities, file);
  return {
    input: { name: input.name, sha256: inputHash },
    merkleRoot: root,
    results: report.results,
    recordedHashes,
    ...(generated_at === undefined ? {} : { generated_at: generated_at as string }),
    ...(schema_version === undefined ? {} : { schema_version: schema_version as string }),
    ...(source === undefined ? {} : { source: source as ReportSource }),
    ...(detections === undefined ? {} : { vulnerabilities: detections }),
  };
}
