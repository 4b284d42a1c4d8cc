import { inject, injectable } from 'tsyringe';
import type { AgencyProvider } from '../../domain/agency/providers';
import {
  PULLED_DOCUMENTS,
  PULLED_DOCUMENT_NAMES,
  type AgencyFinding,
  type AgencyPull,
  type Delivery,
  type PulledDocumentName,
  type SchemaVerdict,
  type StoredDocument,
} from '../../domain/agency/pulled-documents';
import { contentFindings, isContentFinding, sortFindings, timedFindings, TIMED_DOCUMENTS, VERIFICATION_RULES } from '../../domain/agency/verification';
import type { Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
import { holdsRule } from '../../domain/fedramp/relied-rules';
import type { OscalProblem } from '../../domain/oscal/oscal-problem';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { SCHEMA_VALIDATOR, type FedrampSchemaSet, type SchemaValidator } from '../../ports/schema-validator';

/** The most problems a verdict keeps (the first, under the newest generation). */
export const VERDICT_PROBLEMS = 5;

export interface VerifyPullInput {
  provider: Pick<AgencyProvider, 'name' | 'fedrampId' | 'class'>;
  /**
   * Each document's current bytes, parsed (or a function reading them, called only when a check needs them), and how
   * they are stored (their digest and delivery); a document not fetched is left out.
   */
  documents: Partial<Record<PulledDocumentName, { json: unknown; stored: Pick<StoredDocument, 'sha256' | 'delivery'> }>>;
  now: Date;
  /**
   * The provider's previous pull. A document with the same bytes keeps its verdict (the generations svc carries judge
   * the same bytes the same way), so it is not validated again; when every document and its delivery are the same and
   * so is the FedRAMP ID configured, the checks of the bytes (contentFindings) are the previous pull's, and only the
   * documents the checks of the time read (TIMED_DOCUMENTS) are read.
   */
  previous?: Pick<AgencyPull, 'schemas' | 'findings' | 'documents' | 'fedrampId'>;
}

export interface VerifyPullResult {
  /** One verdict per CR26 document given, in PULLED_DOCUMENTS order. */
  schemas: SchemaVerdict[];
  /** The schema findings and the domain checks' (verifyDocuments), sorted. */
  findings: AgencyFinding[];
}

/**
 * Verifies what a pull of one provider left (DESIGN §14, "Verification, recorded per document"). Each CR26 document
 * (PULLED_DOCUMENTS with a `schema`; a `list` one item by item) is validated against every generation of FedRAMP's
 * schemas svc carries, newest first, and its verdict records the first it is valid under: valid only under an older
 * generation is a notice, valid under none an action naming the first problem and its JSON path (FRC-CSO-JSN). Then
 * the rules' checks on the parsed documents and their delivery (verifyDocuments), for the provider's class. A
 * provider's documents are read as FedRAMP's schemas have them, never as svc writes its own.
 */
@injectable()
export class VerifyPull {
  constructor(
    @inject(SCHEMA_VALIDATOR) private readonly validator: SchemaValidator,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rulesSource: FedrampRulesSource,
  ) {}

  /** The generations svc carries, located once (their files read, hashed and parsed). */
  private generations?: Promise<FedrampSchemaSet[]>;

  /** Throws ConfigError / IntegrityError as SchemaValidator.locateFedrampGenerations does when svc's own schemas are missing or changed. */
  async verify(input: VerifyPullInput): Promise<VerifyPullResult> {
    const rules = this.rulesSource.rules();
    const generations = await (this.generations ??= this.validator.locateFedrampGenerations());
    const schemas: SchemaVerdict[] = [];
    const findings: AgencyFinding[] = [];
    const judgeSchemas = holdsRule(rules, VERIFICATION_RULES.json);
    const parsed = new Map<PulledDocumentName, Promise<unknown>>();
    const json = (name: PulledDocumentName): Promise<unknown> => {
      const doc = input.documents[name]!;
      let value = parsed.get(name);
      if (value === undefined) parsed.set(name, (value = typeof doc.json === 'function' ? (doc.json as () => Promise<unknown>)() : Promise.resolve(doc.json)));
      return value;
    };
    for (const name of PULLED_DOCUMENT_NAMES) {
      const entry = PULLED_DOCUMENTS[name] as { schema?: Cr26DocumentType; list?: true };
      const doc = input.documents[name];
      if (entry.schema === undefined || doc === undefined) continue;
      const known = input.previous?.schemas.find((v) => v.document === name && v.sha256 === doc.stored.sha256);
      const verdict = known ?? (await this.judge(name, entry.schema, entry.list === true, await json(name), doc.stored.sha256, generations));
      schemas.push(verdict);
      const finding = verdictFinding(verdict, entry.schema, newestOf(generations));
      if (judgeSchemas && finding !== undefined) findings.push(finding);
    }
    const same = sameAsBefore(input);
    const read = same ? TIMED_DOCUMENTS : PULLED_DOCUMENT_NAMES;
    const documents: Partial<Record<PulledDocumentName, unknown>> = {};
    const deliveries: Partial<Record<PulledDocumentName, Delivery>> = {};
    for (const name of PULLED_DOCUMENT_NAMES) {
      const doc = input.documents[name];
      if (doc === undefined) continue;
      if (read.includes(name)) documents[name] = await json(name);
      deliveries[name] = doc.stored.delivery;
    }
    const checked = {
      provider: input.provider,
      ...(input.provider.class === undefined ? {} : { cls: input.provider.class }),
      documents,
      deliveries,
      rules,
      now: input.now,
    };
    findings.push(...(same ? input.previous!.findings.filter(isContentFinding) : contentFindings(checked)), ...timedFindings(checked));
    return { schemas, findings: sortFindings(findings) };
  }

  private async judge(
    name: PulledDocumentName,
    type: Cr26DocumentType,
    list: boolean,
    json: unknown,
    sha256: string,
    generations: readonly FedrampSchemaSet[],
  ): Promise<SchemaVerdict> {
    const problemsUnder = async (set: FedrampSchemaSet): Promise<string[]> => {
      if (!list) return (await this.validator.validateFedramp(set, type, json)).map((p) => problemWords(p));
      if (!Array.isArray(json))
        return [`$: expected a list of ${type} documents, got ${typeof json === 'object' && json !== null ? 'an object' : typeof json}`];
      const problems: string[] = [];
      for (const [i, item] of json.entries()) {
        for (const p of await this.validator.validateFedramp(set, type, item)) problems.push(problemWords(p, `[${i}]`));
        if (problems.length >= VERDICT_PROBLEMS) break;
      }
      return problems;
    };
    const first = generations[0] === undefined ? ['$: svc carries no FedRAMP schemas'] : await problemsUnder(generations[0]);
    if (first.length === 0) return { document: name, sha256, generation: newestOf(generations), current: true, problems: [] };
    const problems = first.slice(0, VERDICT_PROBLEMS);
    for (const set of generations.slice(1))
      if ((await problemsUnder(set)).length === 0) return { document: name, sha256, generation: set.carried ?? set.dir, current: false, problems };
    return { document: name, sha256, current: false, problems };
  }
}

/** The generation svc judges by first: the newest it carries. */
function newestOf(generations: readonly FedrampSchemaSet[]): string {
  return generations[0]?.carried ?? generations[0]?.dir ?? 'none';
}

/** What a verdict tells the agency: nothing when valid under the newest generation, a notice under an older one, an action under none. */
function verdictFinding(verdict: SchemaVerdict, type: Cr26DocumentType, newest: string): AgencyFinding | undefined {
  if (verdict.current) return undefined;
  const first = verdict.problems[0] ?? '$: not valid';
  const base = { rule: VERIFICATION_RULES.json, document: verdict.document, at: pathOf(first) };
  return verdict.generation !== undefined
    ? {
        level: 'notice',
        ...base,
        code: 'schema-older-generation',
        message: `valid against FedRAMP's ${type} schema of ${verdict.generation} at newest, not of ${newest}, the newest generation svc carries: ${first}`,
      }
    : {
        level: 'action',
        ...base,
        code: 'schema-invalid',
        message: `not valid against FedRAMP's ${type} schema of any generation svc carries (newest ${newest}): ${first}`,
      };
}

/** `<path>: <message>`, the path prefixed by a list item's index (`[2].detection`). */
function problemWords(p: OscalProblem, prefix = ''): string {
  const path = prefix === '' ? p.path : p.path === '$' ? prefix : p.path.startsWith('[') ? `${prefix}${p.path}` : `${prefix}.${p.path}`;
  return `${path}: ${p.message}`;
}

/** The JSON path of a problem's words. */
function pathOf(words: string): string {
  return words.slice(0, words.indexOf(': '));
}

/** Whether every document, its delivery and the FedRAMP ID configured are as the previous pull had them. */
function sameAsBefore(input: VerifyPullInput): boolean {
  const previous = input.previous;
  if (previous === undefined || previous.fedrampId !== input.provider.fedrampId) return false;
  const before = new Map(previous.documents.flatMap((d) => (d.stored === undefined ? [] : [[d.name, d.stored] as const])));
  const now = Object.entries(input.documents) as [PulledDocumentName, { stored: Pick<StoredDocument, 'sha256' | 'delivery'> }][];
  return (
    now.length === before.size &&
    now.every(([name, d]) => {
      const b = before.get(name);
      return b !== undefined && b.sha256 === d.stored.sha256 && JSON.stringify(b.delivery) === JSON.stringify(d.stored.delivery);
    })
  );
}
