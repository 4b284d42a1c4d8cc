import { isPlainObject } from '../encoding/json-values';
import type { BaselineControls } from './baseline';
import type { OscalModel } from './oscal-model';
import { jsonPath, type OscalProblem } from './oscal-problem';

/** What the second layer checks a document against besides itself. */
export interface ReferenceCheckOptions {
  model: OscalModel;
  /** When given, every `control-id` must be a control this baseline selects. */
  baseline?: BaselineControls;
}

const UUID_FRAGMENT = /^#([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Reference keys whose targets must be defined in the same document, by the array the targets live in. */
interface Reference {
  collection: string;
  rule: string;
  what: string;
  /** OSCAL's published constraints do not enforce it (NIST's own POA&M example points a risk-uuid at a mitigating factor). */
  warning?: true;
}
const PARTY: Reference = { collection: 'parties', rule: 'party-reference-resolves', what: 'metadata.parties' };
const REFERENCES: Record<string, Reference> = {
  'party-uuid': PARTY,
  'party-uuids': PARTY,
  'member-of-organizations': PARTY,
  'location-uuids': { collection: 'locations', rule: 'location-reference-resolves', what: 'metadata.locations' },
  'observation-uuid': { collection: 'observations', rule: 'observation-reference-resolves', what: 'the observations', warning: true },
  'risk-uuid': { collection: 'risks', rule: 'risk-reference-resolves', what: 'the risks', warning: true },
};
const COMPONENT: Reference = { collection: 'components', rule: 'component-reference-resolves', what: 'system-implementation.components' };

type Segments = (string | number)[];

/**
 * The checks JSON Schema cannot make (DESIGN §7): every `uuid` is unique; every `#<uuid>` link, party, location,
 * observation and risk reference names something the document defines; in an SSP every component reference names
 * one of its components; a responsible party's role is one of metadata.roles; with a baseline, every `control-id`
 * is a control it selects. References that may point into an imported document (subjects, actors, tasks) are not
 * judged here. Never throws, whatever the document's shape.
 */
export function checkReferences(document: unknown, options: ReferenceCheckOptions): OscalProblem[] {
  const index = indexDocument(document);
  const problems: OscalProblem[] = [];
  const add = (rule: string, segments: Segments, message: string, warning?: true) =>
    problems.push({ layer: 'references', rule, path: jsonPath(segments), message, ...(warning ? { level: 'warning' as const } : {}) });

  // A warning: OSCAL asks for unique uuids, but its constraints index them per kind of object, and NIST's own
  // component-definition example gives two statements one uuid.
  for (const { value, segments, first } of index.duplicates) {
    add('uuid-unique', segments, `uuid ${value} is already the uuid of ${jsonPath(first)}; give every object its own UUID`, true);
  }
  const anyUuid = new Set(index.uuids.keys());
  for (const { key, value, segments } of index.references) {
    const fragment = key === 'href' ? UUID_FRAGMENT.exec(value) : null;
    if (fragment) {
      if (!anyUuid.has(fragment[1].toLowerCase()))
        add(
          'uuid-link-resolves',
          segments,
          `link ${value} names no object of this document; point it at the uuid of a back-matter resource or other object here`,
        );
      continue;
    }
    const reference = key === 'component-uuid' ? (options.model === 'system-security-plan' ? COMPONENT : undefined) : REFERENCES[key];
    if (reference && !index.collection(reference.collection).has(value.toLowerCase())) {
      add(reference.rule, segments, `${key} ${value} is not the uuid of any of ${reference.what}; add it there or fix the reference`, reference.warning);
    }
  }
  for (const { value, segments } of index.roleReferences) {
    if (!index.roles.has(value))
      add('role-reference-resolves', segments, `role-id "${value}" is not defined in metadata.roles; add {"id": "${value}", "title": ...} there`);
  }
  if (options.baseline) {
    const selected = new Set(options.baseline.controls);
    for (const { value, segments } of index.controlIds) {
      if (!selected.has(value.trim().toLowerCase()))
        add(
          'control-in-baseline',
          segments,
          `control ${value} is not in the ${options.baseline.title}; use a control the baseline selects or check --baseline`,
        );
    }
  }
  return problems;
}

interface Located {
  value: string;
  segments: Segments;
}

class DocumentIndex {
  readonly uuids = new Map<string, Segments>();
  readonly duplicates: (Located & { first: Segments })[] = [];
  readonly references: (Located & { key: string })[] = [];
  readonly roleReferences: Located[] = [];
  readonly controlIds: Located[] = [];
  readonly roles = new Set<string>();
  private readonly collections = new Map<string, Set<string>>();

  collection(name: string): Set<string> {
    return this.collections.get(name) ?? new Set();
  }

  define(collection: string | undefined, uuid: string, segments: Segments): void {
    const key = uuid.toLowerCase();
    const first = this.uuids.get(key);
    if (first) this.duplicates.push({ value: uuid, segments, first });
    else this.uuids.set(key, segments);
    if (collection !== undefined) {
      const members = this.collections.get(collection) ?? new Set<string>();
      members.add(key);
      this.collections.set(collection, members);
    }
  }
}

function indexDocument(document: unknown): DocumentIndex {
  const index = new DocumentIndex();
  const visit = (value: unknown, segments: Segments, collection: string | undefined): void => {
    if (Array.isArray(value)) {
      const name = segments.at(-1);
      value.forEach((item, i) => visit(item, [...segments, i], typeof name === 'string' ? name : undefined));
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [key, member] of Object.entries(value)) {
      const at = [...segments, key];
      if (key === 'uuid' && typeof member === 'string') index.define(collection, member, at);
      else if (key === 'href' || key in REFERENCES || key === 'component-uuid') {
        for (const [text, where] of strings(member, at)) index.references.push({ key, value: text, segments: where });
      } else if (key === 'control-id' && typeof member === 'string') index.controlIds.push({ value: member, segments: at });
      else if (key === 'id' && collection === 'roles' && typeof member === 'string') index.roles.add(member);
      else if (key === 'role-id' && collection === 'responsible-parties' && typeof member === 'string' && isMetadataArray(segments)) {
        index.roleReferences.push({ value: member, segments: at });
      }
      visit(member, at, undefined);
    }
  };
  visit(document, [], undefined);
  return index;
}

/** `[..., 'metadata', 'responsible-parties', i]`: responsible parties of the document itself. */
function isMetadataArray(segments: Segments): boolean {
  return segments.at(-3) === 'metadata';
}

function strings(value: unknown, segments: Segments): [string, Segments][] {
  if (typeof value === 'string') return [[value, segments]];
  if (Array.isArray(value)) return value.flatMap((v, i) => (typeof v === 'string' ? [[v, [...segments, i]] as [string, Segments]] : []));
  return [];
}
