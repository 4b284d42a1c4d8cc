import type { Cr26Rules } from '../../domain/fedramp/cr26-rules';
import { inject, injectable } from 'tsyringe';
import { NotFoundError, UsageError } from '../../domain/errors';
import { plural } from '../../domain/encoding/plural';
import type { WrittenFile } from '../../domain/artifacts/manifest';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { LazyArray } from '../../domain/encoding/json-chunks';
import { toBase64 } from '../../domain/encoding/base64';
import { formatDigest } from '../../domain/evidence/content-digest';
import {
  packageManifest,
  packageStatement,
  PACKAGE_ENVELOPE_FILE,
  PACKAGE_MANIFEST_FILE,
  staleForInitialPackage,
  staleVulnerabilities,
  type PackageFacts,
} from '../../domain/fedramp/certification-package';
import { CR26_DOCUMENTS, type Cr26DocumentType } from '../../domain/fedramp/cr26-documents';
import type { TwinHeader } from '../../domain/fedramp/twin';
import { currentVulnerabilityReports, resourceRedactor } from '../../domain/vulnerabilities/vulnerability-reports';
import type { Cr26Shapes } from '../../domain/fedramp/schema-shapes';
import { vulnerabilityDocumentMarkdown } from '../../domain/vulnerabilities/vulnerability-twins';
import type { VulnerabilityReportDocument } from '../../domain/vulnerabilities/vulnerability-report-documents';
import { registerOffers, type Register } from '../vulnerabilities/vulnerability-register';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import type { FedrampType } from '../../domain/fedramp/profile';
import { FRESH_PACKAGE_RULE, PROSE_FACTS, releaseFact } from '../../domain/fedramp/prose-facts';
import { sampleOcr, sampleOcrMarkdown, samplePackageRule } from '../../domain/fedramp/sample-ocr';
import { ocrMarkdown } from '../../domain/fedramp/ocr';
import { OngoingJournal } from './ongoing-journal';
import { acceptedSummary } from './write-ocr';
import { IN_TOTO_PAYLOAD_TYPE, pae, type DsseEnvelope } from '../../domain/signing/dsse';
import { ARTIFACT_WRITER, type ArtifactWriter } from '../../ports/artifact-writer';
import { HASHING, type Hashing } from '../../ports/hashing';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { SCHEMA_VALIDATOR, type FedrampSchemaSet, type SchemaValidator } from '../../ports/schema-validator';
import { SIGNER, type Signer, type SigningKey } from '../../ports/signer';
import { writeAll } from '../shared/write-all';
import { BuildCpo } from './build-cpo';
import { addTwin, judgingSchema, judgingSchemaText, locateFedrampSchemas, packageSchemas, shapesOf, validateBuiltDocument } from './fedramp-documents';
import { SdrBuilder, type BuiltSdr } from './sdr-builder';
import { sdrSummary, type WriteSdrResult } from './write-sdr';
import { Cr26Assessment } from './cr26-assessment';
import { sourceKey } from '../../domain/conmon/run-sources';

export interface WritePackageInput {
  /**
   * A normalized report, an evidence-bundle.json or an auditor bundle directory: the store's state must be that input
   * alone (recorded, the only source), or the store empty. Absent: the store's state, every source's latest run.
   */
  input?: string;
  outDir: string;
  /** `--initial`: refuse statuses older than FRC-APP-FCP allows. */
  initial?: boolean;
  class?: Cr26Class;
  type?: FedrampType;
  now?: Date;
  /** PEM key that signs the package (`--key`); else SVC_SIGNING_KEY, else the development key. */
  key?: string;
  /** A snapshot of `svc substrate walk`: information resources and flows (MAS-CSO-IIR, MAS-CSO-FLO). */
  substrate?: string;
  schemas?: string;
  catalog?: string;
  /** Resource names in the vulnerability documents as stable hashes (VER-RPT-NID). */
  redact?: boolean;
}

export type WritePackageResult =
  | {
      written: true;
      out_dir: string;
      /** Every file but the envelope, its SHA-256 as `sha256:<hex>`. */
      files: { name: string; sha256: string; bytes: number }[];
      aggregate_hash: string;
      envelope: string;
      algorithm: string;
      keyid: string;
      key: SigningKey['origin'];
      sample_ocr: boolean;
      /** What the package leaves out or stands in for, one line each: the CPO's (fedramp.advisors where the schema has no field), the sample OCR. */
      notes?: string[];
      /** The schemas' directory (and the generation, when svc's own), or why nothing was validated. */
      validated: { schemas?: string; carried?: string; note?: string };
      sdr: Omit<WriteSdrResult, 'input' | 'out' | 'sha256' | 'markdown'>;
      /** What the package judges: the store's state (every source's latest run), or the one input given. */
      judged: { store: string; sources: { source: string; seq: number; as_of: string }[] } | { input: string; recorded: boolean };
    }
  | { written: false; out_dir: string; initial: true; days: number; stale: string[] };

/** How many items of each list of a document are validated (the rest are written by the same code, item by item). */
export const VALIDATED_ITEMS = 1000;

/**
 * `svc fedramp package` (DESIGN §12.6): CPO, SDR (with its metrics), the OCR recorded for the current period (`ocr.json`)
 * or else a sample built from the run store (`ocr-sample.json`: FRC-CSO-PKG needs a real or example one), the VDR, AVI and historical activity from the vulnerability
 * register, information resources and flows with `--substrate`, the
 * Markdown twins, a manifest (every file's SHA-256 and their aggregate hash) and a DSSE envelope over an in-toto
 * Statement naming every file, written into a staging directory and moved into place whole. Every JSON document is
 * validated against FedRAMP's schema when the schemas are found (FRC-CSO-JSN); a document that does not validate is
 * a bug of svc's and nothing is written. `--initial` refuses, naming them, statuses older than FRC-APP-FCP's 7 days.
 */
@injectable()
export class WritePackage {
  constructor(
    private readonly sdrs: SdrBuilder,
    private readonly cr26: Cr26Assessment,
    private readonly cpos: BuildCpo,
    @inject(SIGNER) private readonly signer: Signer,
    @inject(ARTIFACT_WRITER) private readonly writer: ArtifactWriter,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
    @inject(HASHING) private readonly hashing: Hashing,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    private readonly journal: OngoingJournal,
  ) {}

  async execute(input: WritePackageInput): Promise<WritePackageResult> {
    const command = 'svc fedramp package';
    const flags = { class: input.class, type: input.type, now: input.now };
    // Read once: the CPO's next OCR date (CCM-OCR-NRD) and the package's OCR both come from the recorded OCRs.
    const ongoing = await this.journal.read();
    const nextOcrDate = ongoing.ocrs.at(-1)?.next_report_date;
    const cpo = await this.cpos.execute({
      ...flags,
      substrate: input.substrate,
      schemas: input.schemas,
      command: 'fedramp package',
      json: 'cpo.json',
      ...(nextOcrDate === undefined ? {} : { nextOcrDate }),
    });
    const key = await this.signer.load(input.key);
    const located = await locateFedrampSchemas(this.schemas, input.schemas);
    const set = 'note' in located ? undefined : located;
    const sdrSchema = set === undefined ? undefined : judgingSchema(set, 'sdr');
    const sdrOptions = { command, jsonName: 'sdr.json', ...(sdrSchema === undefined ? {} : { validatedBy: judgingSchemaText(sdrSchema) }) };
    const state = await this.cr26.state();
    let built: BuiltSdr;
    if (input.input === undefined) {
      const latest = await this.sdrs.buildLatest(flags, sdrOptions);
      if (latest === undefined)
        throw new NotFoundError(
          'no-run-recorded',
          `the run store at ${this.cr26.storeLocation} holds no runs; record the scanners' reports (svc conmon process <report>...) first, or give one report to package it alone`,
        );
      built = latest;
    } else {
      built = await this.sdrs.build({ input: input.input, catalog: input.catalog, ...flags }, sdrOptions);
      // The SDR would judge the input and the vulnerability documents the store's register: only when they are one.
      const alone = state === undefined || (state.runs.length === 1 && state.runs[0].input.sha256 === built.run.input.sha256);
      if (!alone) {
        const sources = state.runs.map((r) => sourceKey(r.source));
        throw new UsageError(
          'mixed-state',
          `${input.input} is not the run store's state (${plural(sources.length, 'source')}: ${sources.join(', ')}), whose vulnerability register the package's VDR and AVI report; record it (svc conmon process ${input.input}) and run svc fedramp package without an input to package the store's state`,
        );
      }
    }
    const { scope, picture } = built;
    const { register } = built;
    if (input.initial) {
      // The release's number where it gives one as data, else the prose's 7 days (kept without the rule: FedRAMP's word).
      const days = releaseFact(scope.rules, FRESH_PACKAGE_RULE, scope.profile.class)?.value ?? PROSE_FACTS.find((f) => f.rule === FRESH_PACKAGE_RULE)!.value;
      const stale = [...staleForInitialPackage(picture.facts, built.asOf, scope.now, days), ...staleVulnerabilities(register, days)];
      if (stale.length > 0) return { written: false, out_dir: input.outDir, initial: true, days, stale };
    }
    const today = isoSeconds(scope.now).slice(0, 10);
    // The OCR recorded for the current period (its next report not yet due), else a sample (FRC-CSO-PKG).
    const recordedOcr = ongoing.ocrs.filter((o) => o.period.to <= today && o.next_report_date >= today).at(-1);
    const ocr =
      recordedOcr === undefined
        ? {
            sample: true as const,
            document: sampleOcr({
              packageUri: scope.profile.package_uri,
              to: today,
              daily: picture.daily,
              agencies: (scope.profile.agencies ?? []).map((a) => a.name),
              scns: ongoing.scns,
              incidents: ongoing.incidents,
              accepted: acceptedSummary(register, scope.profile.package_uri),
              rules: scope.rules,
            }),
          }
        : { sample: false as const, document: recordedOcr.document };
    const header = {
      ...(scope.profile.fedramp_id === undefined ? {} : { fedrampId: scope.profile.fedramp_id }),
      packageUri: scope.profile.package_uri,
      rulesVersion: scope.rules.info.version,
      tool: this.settings.tool,
      generatedAt: isoSeconds(scope.now),
    };
    const documents: { name: string; type?: Cr26DocumentType; document: unknown; markdown: string }[] = [
      { name: 'cpo.json', type: 'cpo', document: cpo.cpo.document, markdown: cpo.cpo.markdown },
      { name: 'sdr.json', type: 'sdr', document: built.model.document, markdown: built.markdown },
      ocr.sample
        ? { name: 'ocr-sample.json', type: 'ocr', document: ocr.document, markdown: sampleOcrMarkdown(ocr.document, { ...header, json: 'ocr-sample.json' }) }
        : {
            name: 'ocr.json',
            type: 'ocr',
            document: ocr.document,
            markdown: ocrMarkdown(ocr.document, { ...header, title: 'Ongoing Certification Report', json: 'ocr.json' }),
          },
      ...this.vulnerabilityDocuments(register, { ...header, packageUri: scope.profile.package_uri }, input.redact === true, shapesOf(located)),
      ...(cpo.resources === undefined ? [] : [{ name: cpo.resources.name, document: cpo.resources.document, markdown: cpo.resources.markdown }]),
      ...(cpo.flows === undefined ? [] : [{ name: cpo.flows.name, document: cpo.flows.document, markdown: cpo.flows.markdown }]),
    ];
    if (set !== undefined) for (const d of documents) if (d.type !== undefined) await this.validate(set, d.type, d.name, d.document);

    const run = built.run;
    const facts: PackageFacts = {
      ...(scope.profile.fedramp_id === undefined ? {} : { fedRampPackageId: scope.profile.fedramp_id }),
      packageUri: scope.profile.package_uri,
      rulesVersion: scope.rules.info.version,
      type: scope.profile.type,
      class: scope.profile.class,
      generatedAt: isoSeconds(scope.now),
      tool: this.settings.tool,
      input: { name: run.input.name, sha256: run.input.sha256 },
      initial: input.initial === true,
      sampleOcr: recordedOcr === undefined,
    };
    const tx = await this.writer.begin(input.outDir);
    try {
      const files: WrittenFile[] = [];
      for (const d of documents) {
        const written = await addTwin(tx, d.name, d.document, d.markdown);
        files.push(written.json, written.markdown);
      }
      const manifest = packageManifest(facts, files, this.hashing, set === undefined ? undefined : packageSchemas(set, documents));
      const manifestFile = await writeAll(tx.open(PACKAGE_MANIFEST_FILE), (sink) => sink.write(`${JSON.stringify(manifest, null, 2)}\n`));
      const statement = packageStatement(manifest, manifestFile.sha256);
      const payload = new TextEncoder().encode(this.hashing.canonicalize(statement));
      const envelope: DsseEnvelope = {
        payloadType: IN_TOTO_PAYLOAD_TYPE,
        payload: toBase64(payload),
        signatures: [{ keyid: key.keyid, sig: toBase64(key.sign(pae(IN_TOTO_PAYLOAD_TYPE, payload))), jwk: key.publicJwk }],
      };
      await writeAll(tx.open(PACKAGE_ENVELOPE_FILE), (sink) => sink.write(`${JSON.stringify(envelope, null, 2)}\n`));
      await tx.commit();
      return {
        written: true,
        out_dir: input.outDir,
        files: [...files, manifestFile].map((f) => ({ name: f.name, sha256: formatDigest(f.sha256), bytes: f.bytes })),
        aggregate_hash: manifest.aggregate_hash,
        envelope: PACKAGE_ENVELOPE_FILE,
        algorithm: key.algorithm,
        keyid: key.keyid,
        key: key.origin,
        sample_ocr: recordedOcr === undefined,
        ...packageNotes(cpo.validation.notes, recordedOcr === undefined, scope.rules),
        validated:
          'note' in located
            ? { note: `the documents were not validated: ${located.note}` }
            : { schemas: located.dir, ...(located.carried === undefined ? {} : { carried: located.carried }) },
        sdr: sdrSummary(built),
        judged:
          input.input === undefined
            ? { store: this.cr26.storeLocation, sources: (state?.runs ?? []).map((r) => ({ source: sourceKey(r.source), seq: r.seq, as_of: r.as_of })) }
            : { input: input.input, recorded: state !== undefined },
      };
    } catch (error) {
      await tx.abort();
      throw error;
    }
  }

  /**
   * The VDR and AVI of the month before the package's time and the historical activity (DESIGN §12.6), from the
   * vulnerability register of the run store; resource names hashed with `--redact` (VER-RPT-NID).
   */
  private vulnerabilityDocuments(
    register: Register,
    header: Omit<TwinHeader, 'title' | 'json'>,
    redact: boolean,
    offers: Cr26Shapes,
  ): { name: string; type: Cr26DocumentType; document: VulnerabilityReportDocument; markdown: string }[] {
    const reports = currentVulnerabilityReports({
      packageUri: header.packageUri,
      groups: register.groups,
      now: register.now,
      offers: registerOffers(register, offers),
      ...(redact ? { redact: resourceRedactor(this.hashing) } : {}),
    });
    const made = [
      { name: 'vdr.json', type: 'vdr' as const, document: reports.vdr },
      { name: 'avi.json', type: 'avi' as const, document: reports.avi },
      { name: 'vulnerability-history.json', type: 'history' as const, document: reports.history },
    ];
    return made.map((d) => ({
      ...d,
      markdown: vulnerabilityDocumentMarkdown(d.document, { ...header, title: CR26_DOCUMENTS[d.type].title, json: d.name }, register.release),
    }));
  }

  /** Each document validated on its first VALIDATED_ITEMS items per list (validateBuiltDocument). */
  private async validate(set: FedrampSchemaSet, type: Cr26DocumentType, name: string, document: unknown): Promise<void> {
    await validateBuiltDocument(this.schemas, set, type, name, sampled(document));
  }
}

/** A copy of a document with each LazyArray read up to VALIDATED_ITEMS items, for the schema validator. */
function sampled(value: unknown): unknown {
  if (value instanceof LazyArray) {
    const items: unknown[] = [];
    for (const item of value) {
      if (items.length === VALIDATED_ITEMS) break;
      items.push(sampled(item));
    }
    return items;
  }
  if (Array.isArray(value)) return value.map(sampled);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sampled(v)]));
  return value;
}

/** The package's notes: the CPO's, then that the OCR is a sample (citing FRC-CSO-PKG where the release holds it). */
function packageNotes(cpo: readonly string[] | undefined, sample: boolean, rules: Pick<Cr26Rules, 'rules'>): { notes?: string[] } {
  const asks = samplePackageRule(rules);
  const sampleNote = `ocr-sample.json is a sample built from the run store: no OCR is recorded for this period${asks === undefined ? '' : ` (${asks})`}`;
  const notes = [...(cpo ?? []), ...(sample ? [sampleNote] : [])];
  return notes.length === 0 ? {} : { notes };
}
