import type { AssessedResult, HashedResult } from '../assessment/assessment';
import type { RunContext } from '../artifacts/run-context';
import type { KsiCatalog } from '../catalog/ksi-catalog';
import { controlsTouched } from '../artifacts/ssp-narrative';
import { formatDigest } from '../evidence/content-digest';
import { lazyArray } from '../encoding/json-chunks';
import { isoSeconds } from '../encoding/iso-time';

/** Namespace of every UUIDv5 svc writes into OSCAL (a fixed random UUID: names are svc's own keys). */
export const SVC_UUID_NAMESPACE = '8a3c5e1f-6b2d-4f0a-9c7e-4d1b2a3f5e60';
/** Namespace of svc's own OSCAL props (`ksi-id`, `content-hash`). */
export const SVC_OSCAL_NS = 'urn:compliance-evidence-service:oscal';
/** The release svc declares by default; every document it writes is valid against 1.1.3 and 1.2.1 alike. */
export const DEFAULT_OSCAL_VERSION = '1.1.3';
/** The FedRAMP profile the built-in catalog comes from (the SSP imports it). */
export const FEDRAMP_MODERATE_PROFILE =
  'https://raw.githubusercontent.com/GSA/fedramp-automation/master/dist/content/rev5/baselines/json/FedRAMP_rev5_MODERATE-baseline_profile.json';

/** A file of evidence: the input report or a file of an auditor bundle, with the SHA-256 of its bytes. */
export interface EvidenceFile {
  name: string;
  sha256: string;
  mediaType: string;
  description: string;
}

/** Everything a generated OSCAL document says, gathered by the use case; the builders only arrange it. */
export interface OscalRun {
  tool: { name: string; version: string };
  /** ISO-8601 UTC time of the run (SOURCE_DATE_EPOCH when set): last-modified, result times. */
  generatedAt: string;
  oscalVersion: string;
  /** The input and the report-level source facts, as the bundle artifacts see them. */
  context: RunContext;
  /** The run's results in ksi_id order with their evidence content hashes. */
  results: readonly HashedResult[];
  merkleRoot: string;
  catalog: KsiCatalog;
  /** Where the entries can be read (`evidence-bundle.json`, or the report for a report input). */
  entriesFile: string;
  files: readonly EvidenceFile[];
  /** UUIDv5 in SVC_UUID_NAMESPACE of a stable key. */
  uuid: (key: string) => string;
}

export type Json = Record<string, unknown>;

/** One line, as markup-line fields need (OSCAL 1.2 refuses empty titles and line breaks). */
export function line(text: string, fallback = '(untitled)'): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? fallback : flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

/** OSCAL date-time (a zone is required): times written without one are UTC, as everywhere in svc. */
export function oscalDateTime(value: string): string {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : /(?:Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const date = new Date(text.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? value : isoSeconds(date);
}

/** The system the run is about: the tenant the tool assessed, else the report it wrote. */
export function systemName(run: OscalRun): string {
  return line(run.context.source?.tenant ?? run.context.input.name);
}

/**
 * Keys of the documents themselves and of their run-level parts (the SAR and its result, the plan, the POA&M, the
 * SSP): each is a revision, so they change with the input (OSCAL: a document's uuid changes with every revision).
 */
export function runKey(run: OscalRun, what: string): string {
  return `${what}@${run.context.input.sha256}`;
}

/**
 * Keys of what the documents are about (observations, findings, risks, POA&M items, evidence resources, implemented
 * requirements): OSCAL assigns them per subject, the same in every revision, so a POA&M item or a control's
 * requirement keeps its uuid from one day's run to the next. The subject is the system's (systemName), its KSI or
 * control, and for what records evidence (an observation, an evidence entry's resource) the entry's content hash:
 * changed evidence is a new observation. Two days' documents so share every item whose evidence did not change
 * (issue 35; docs/oscal.md).
 */
export function subjectKey(run: OscalRun, what: string): string {
  return `${what}@${systemName(run)}`;
}

/**
 * What every document of a run reads of all its results (its owner teams, its scanners, the controls it touches),
 * worked out once for the run rather than once for each document: each is a pass over every result, which a run of a
 * million results reads back from its entries one at a time.
 */
const ACROSS_RESULTS = new WeakMap<OscalRun, AcrossResults>();

type TouchedControls = ReturnType<typeof controlsTouched>;

interface AcrossResults {
  owners?: string[];
  scanners?: string[];
  touched?: TouchedControls;
}

function acrossResults(run: OscalRun): AcrossResults {
  let found = ACROSS_RESULTS.get(run);
  if (found === undefined) ACROSS_RESULTS.set(run, (found = {}));
  return found;
}

/** Owners of the run's KSIs, in first-seen order: each is a party (a team mailbox). */
function owners(run: OscalRun): string[] {
  const across = acrossResults(run);
  if (across.owners === undefined) {
    const seen = new Set<string>();
    for (const { item } of run.results) seen.add(item.action.owner);
    across.owners = [...seen];
  }
  return across.owners;
}

/** The controls the run's results touch, each with the results that cover it (controlsTouched), once for the run. */
export function touchedControls(run: OscalRun): TouchedControls {
  const across = acrossResults(run);
  across.touched ??= controlsTouched(run.results, run.catalog);
  return across.touched;
}

export function ownerPartyUuid(run: OscalRun, owner: string): string {
  return run.uuid(`party:${owner}`);
}

export function thisSystemUuid(run: OscalRun): string {
  return run.uuid(`component:this-system:${systemName(run)}`);
}

function toolUuid(run: OscalRun, name: string): string {
  return run.uuid(`component:tool:${name}`);
}

/** metadata: title, times, versions, the owner teams as parties responsible for the controls. */
export function metadata(run: OscalRun, title: string): Json {
  const teams = owners(run);
  return {
    title: line(title),
    'last-modified': run.generatedAt,
    version: formatDigest(run.context.input.sha256).slice(0, 19),
    'oscal-version': run.oscalVersion,
    props: [
      { name: 'tool', ns: SVC_OSCAL_NS, value: `${run.tool.name} ${run.tool.version}` },
      { name: 'merkle-root', ns: SVC_OSCAL_NS, value: formatDigest(run.merkleRoot) },
    ],
    roles: [{ id: 'control-owner', title: 'Control owner' }],
    ...(teams.length > 0
      ? {
          parties: teams.map((owner) => ({ uuid: ownerPartyUuid(run, owner), type: 'organization', name: owner, 'email-addresses': [owner] })),
          'responsible-parties': [{ 'role-id': 'control-owner', 'party-uuids': teams.map((owner) => ownerPartyUuid(run, owner)) }],
        }
      : {}),
  };
}

/** The scanner that produced a result: its own `source`, else the report's tool. */
function scannerOf(run: OscalRun, item: AssessedResult): string | undefined {
  return item.result.source ?? run.context.source?.tool;
}

/**
 * svc and every scanner whose results the run holds, as `software` components: the tools observations
 * and risks originate from (`origins` actors).
 */
export function toolComponents(run: OscalRun): Json[] {
  const across = acrossResults(run);
  if (across.scanners === undefined) {
    const seen = new Set<string>();
    for (const { item } of run.results) {
      const scanner = scannerOf(run, item);
      if (scanner !== undefined && scanner !== run.tool.name) seen.add(scanner);
    }
    across.scanners = [...seen];
  }
  const scanners = across.scanners;
  const version = run.context.source?.version;
  return [
    {
      uuid: toolUuid(run, run.tool.name),
      type: 'software',
      title: line(`${run.tool.name} ${run.tool.version}`),
      description: 'Compliance Evidence Service: maps the KSI results to controls, hashes the evidence and writes these OSCAL documents.',
      props: [{ name: 'version', value: run.tool.version }],
      status: { state: 'operational' },
    },
    ...scanners.map((name) => ({
      uuid: toolUuid(run, name),
      type: 'software',
      title: line(name),
      description: `The assessment tool whose results ${run.context.input.name} holds.`,
      ...(version && name === run.context.source?.tool ? { props: [{ name: 'version', value: version }] } : {}),
      status: { state: 'operational' },
    })),
  ];
}

/** The scanner (when known) and svc, as the actors an observation or risk of `item` comes from. */
export function originsOf(run: OscalRun, item: AssessedResult): Json[] {
  const scanner = scannerOf(run, item);
  const names = scanner === undefined || scanner === run.tool.name ? [run.tool.name] : [scanner, run.tool.name];
  return [{ actors: names.map((name) => ({ type: 'tool', 'actor-uuid': toolUuid(run, name) })) }];
}

/** The back-matter resource of a result's evidence entry: per subject, the KSI's entry with this content hash. */
export function evidenceResourceUuid(run: OscalRun, { item, hash }: HashedResult): string {
  return run.uuid(subjectKey(run, `evidence:${item.result.ksi_id}:${hash}`));
}

/**
 * back-matter: one resource per evidence entry (its content hash: SHA-256 of the entry's RFC 8785 form without
 * content_hash and observed_at, DESIGN §5) and one per evidence file (SHA-256 of its bytes), then `extra`.
 * The resources are a LazyArray: one per result, made while the document is written.
 */
export function backMatter(run: OscalRun, extra: Json[] = []): Json {
  return {
    resources: lazyArray(function* () {
      for (const entry of run.results) yield evidenceEntryResource(run, entry, evidenceResourceUuid(run, entry));
      for (const file of run.files) {
        yield {
          uuid: run.uuid(subjectKey(run, `file:${file.name}:${file.sha256}`)),
          title: line(file.name),
          description: file.description,
          props: [{ name: 'type', value: 'evidence' }],
          rlinks: [{ href: file.name, 'media-type': file.mediaType, hashes: [{ algorithm: 'SHA-256', value: file.sha256 }] }],
        };
      }
      yield* extra;
    }),
  };
}

/**
 * The back-matter resource of one evidence entry: its content hash, where the entries can be read, and where their
 * Merkle root is: the document's `merkle-root` prop (metadata) in the documents svc writes, so the resource is the same
 * in every run holding the entry; said inline in a document svc did not write (ssp-inject).
 */
export function evidenceEntryResource(run: OscalRun, { item, hash }: HashedResult, uuid: string, root: 'metadata' | 'inline' = 'metadata'): Json {
  const where = root === 'metadata' ? "the document's `merkle-root` prop (metadata)" : formatDigest(run.merkleRoot);
  return {
    uuid,
    title: line(`Evidence entry ${item.result.ksi_id}`),
    description: `The evidence entry of ${item.result.ksi_id} (from ${run.entriesFile}). Its SHA-256 is the entry's content_hash: SHA-256 over the RFC 8785 canonical JSON of the entry without content_hash and observed_at; the entries' RFC 6962 Merkle root is ${where}.`,
    props: [
      { name: 'type', value: 'evidence' },
      { name: 'ksi-id', ns: SVC_OSCAL_NS, value: item.result.ksi_id },
    ],
    rlinks: [{ href: `${run.entriesFile}#${item.result.ksi_id}`, 'media-type': 'application/json', hashes: [{ algorithm: 'SHA-256', value: hash }] }],
  };
}

/** A back-matter resource standing for a companion document (the SSP an assessment plan imports, ...). */
export function companionResource(run: OscalRun, key: string, title: string, href: string, mediaType: string): Json {
  return { uuid: run.uuid(runKey(run, `companion:${key}`)), title, rlinks: [{ href, 'media-type': mediaType }] };
}

/** `reviewed-controls` of the controls the run touches (all of them when no result maps to one). */
export function reviewedControls(run: OscalRun): Json {
  const controls = touchedControls(run).map((c) => ({ 'control-id': c.control }));
  return {
    description: 'The NIST SP 800-53 rev5 controls the run’s Key Security Indicators stand for.',
    'control-selections': [controls.length > 0 ? { 'include-controls': controls } : { 'include-all': {} }],
  };
}
