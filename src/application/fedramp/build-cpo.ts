import { inject, injectable } from 'tsyringe';
import { InvalidInputError } from '../../domain/errors';
import { buildCpo, cpoMarkdown, CPO_PROFILE_KEYS, type AssessorSummary, type CpoProfile } from '../../domain/fedramp/cpo';
import type { CpoDocument } from '../../domain/fedramp/cpo-document';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import {
  informationFlows,
  informationFlowsMarkdown,
  informationResources,
  informationResourcesMarkdown,
  INFORMATION_FLOWS_FILE,
  INFORMATION_RESOURCES_FILE,
  type InformationFlowsDocument,
  type InformationResourcesDocument,
} from '../../domain/fedramp/information-resources';
import { requireProfileKeys, type FedrampType } from '../../domain/fedramp/profile';
import { isError, type OscalProblem } from '../../domain/oscal/oscal-problem';
import { parseSnapshot } from '../../domain/substrate/snapshot';
import { CLOCK, type Clock } from '../../ports/clock';
import { FEDRAMP_PROFILE, type FedrampProfileSettings } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE, type FedrampRulesSource } from '../../ports/fedramp-rules-source';
import { HASHING, type Hashing } from '../../ports/hashing';
import { REPORT_READER, type ReportReader } from '../../ports/report-reader';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { SCHEMA_VALIDATOR, type SchemaValidator } from '../../ports/schema-validator';
import { splitPath } from '../shared/paths';
import { judgedBy, type JudgedBy, judgingSchema, locateFedrampSchemas, profileWith, shapesOf } from './fedramp-documents';
import { OngoingJournal } from './ongoing-journal';
import { isoSeconds } from '../../domain/encoding/iso-time';
import { nextReportDate } from '../../domain/fedramp/ocr';

export interface BuildCpoInput {
  /** `--class`, over the profile's class. */
  class?: Cr26Class;
  /** `--type`, over the profile's type. */
  type?: FedrampType;
  /** A snapshot file of `svc substrate walk`: the information resources and flows are built from it too. */
  substrate?: string;
  /** Directory of FedRAMP's CR26 schemas (`--schemas`); else the configured one. */
  schemas?: string;
  /** `--now`: the CPO's last update; else the clock. */
  now?: Date;
  /** The svc command as the documents name it (metadata.updateSource, the generating command): `fedramp cpo` unless told. */
  command?: string;
  /**
   * The svc command that writes the information resources and flows from the snapshot, as the user would type it
   * (their `command` field, after the walk); else `svc <command> --substrate <snapshot file name>`.
   */
  generator?: string;
  /** The CPO's file name, for the twins: `cpo.json` unless told. */
  json?: string;
  /** CCM-OCR-NRD, YYYY-MM-DD, when the caller has read the recorded OCRs already; else BuildCpo reads them. */
  nextOcrDate?: string;
}

/** A document and its Markdown twin, built from one model. */
export interface BuiltDocument<T> {
  document: T;
  markdown: string;
}

/** Whether the CPO was validated against FedRAMP's schema: by which file, or why not. */
/** Whether the CPO was validated; `notes`: what the schema in use could not carry (fedramp.advisors before CPO 0.1.6). */
export type CpoValidation = ({ validated: true; schema: string; judged_by?: JudgedBy } | { validated: false; note: string }) & { notes?: string[] };

export interface BuildCpoResult {
  profile: CpoProfile;
  cpo: BuiltDocument<CpoDocument>;
  validation: CpoValidation;
  /** With a snapshot: MAS-CSO-IIR and MAS-CSO-FLO, named to be written beside the CPO. */
  resources?: BuiltDocument<InformationResourcesDocument> & { name: string };
  flows?: BuiltDocument<InformationFlowsDocument> & { name: string };
}

/**
 * The Certification Package Overview (DESIGN §12.3) and, with a substrate snapshot, the information resources and
 * flows, built and checked but not written: `svc fedramp cpo` writes them (WriteCpo), `svc fedramp package` puts them
 * in the package. A profile key it needs and lacks is the one-line error before anything is read; a CPO that FedRAMP's
 * schema rejects is one InvalidInputError `invalid-config` naming the profile path of each problem. Without schemas
 * (none passed or configured) the result says it was not validated; schemas passed with `schemas` that cannot be
 * used are a ConfigError.
 */
@injectable()
export class BuildCpo {
  constructor(
    @inject(FEDRAMP_PROFILE) private readonly settings: FedrampProfileSettings,
    @inject(FEDRAMP_RULES_SOURCE) private readonly rulesSource: FedrampRulesSource,
    @inject(RUN_SETTINGS) private readonly run: RunSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(REPORT_READER) private readonly reader: ReportReader,
    @inject(SCHEMA_VALIDATOR) private readonly schemas: SchemaValidator,
    @inject(HASHING) private readonly hashing: Hashing,
    private readonly journal: OngoingJournal,
  ) {}

  async execute(input: BuildCpoInput): Promise<BuildCpoResult> {
    const command = input.command ?? 'fedramp cpo';
    const configured = profileWith(this.settings, input);
    const profile = requireProfileKeys(configured, CPO_PROFILE_KEYS, `svc ${command}`, { type: '--type', class: '--class' });
    const rules = this.rulesSource.rules();
    const tool = this.run.tool;
    const summary = profile.assessor_summary === undefined ? undefined : await this.summary(profile.assessor_summary);
    const snapshot =
      input.substrate === undefined ? undefined : parseSnapshot((await this.reader.read(input.substrate)).document, input.substrate, this.hashing);
    const json = input.json ?? 'cpo.json';
    const now = input.now ?? this.clock.now();
    // CCM-OCR-NRD: the last recorded OCR's next report date; before the first, 3 months after this CPO's date.
    const nextOcrDate = input.nextOcrDate ?? (await this.journal.read()).ocrs.at(-1)?.next_report_date;
    const located = await locateFedrampSchemas(this.schemas, input.schemas);
    // The advisors where the CPO schema in use declares them (CPO 0.1.6 on); else left out, and said.
    const advisors = profile.advisors ?? [];
    const declared = shapesOf(located).advisors;
    const document = buildCpo(
      {
        profile,
        file: configured.file,
        nextOcrDate,
        firstOcrDate: nextReportDate(isoSeconds(now).slice(0, 10)),
        summary,
        now,
        updateSource: `${tool.name} ${tool.version} ${command}`,
        ...(declared ? { advisors } : {}),
      },
      this.hashing,
    );
    const validation = await this.validate(document, configured.file, located);
    if (advisors.length > 0 && !declared) {
      const judged = 'note' in located ? undefined : judgingSchema(located, 'cpo');
      const schema = judged === undefined ? "FedRAMP's first CPO schema" : `${judged.file} ($schemaVersion ${judged.$schemaVersion ?? 'none'})`;
      validation.notes = [`fedramp.advisors is not written: ${schema} declares no advisors (CPO 0.1.6 does)`];
    }
    const related = snapshot === undefined ? undefined : { resources: INFORMATION_RESOURCES_FILE, flows: INFORMATION_FLOWS_FILE };
    const result: BuildCpoResult = {
      profile,
      cpo: { document, markdown: cpoMarkdown(document, { class: profile.class, summary, rules, tool, json, related }) },
      validation,
    };
    if (snapshot !== undefined && input.substrate !== undefined) {
      const snapshotFile = splitPath(input.substrate).base;
      const derivedFrom = {
        snapshot,
        snapshotFile,
        fedrampId: profile.fedramp_id,
        packageUri: profile.package_uri,
        generator: input.generator ?? `${tool.name} ${command} --substrate ${snapshotFile}`,
        rules,
      };
      const twin = (name: string) => ({
        service: serviceName(document),
        rulesVersion: rules.info.version,
        tool,
        generatedAt: document.metadata.lastUpdated,
        json: name,
      });
      const resources = informationResources(derivedFrom);
      const flows = informationFlows(derivedFrom);
      result.resources = {
        name: INFORMATION_RESOURCES_FILE,
        document: resources,
        markdown: informationResourcesMarkdown(resources, twin(INFORMATION_RESOURCES_FILE)),
      };
      result.flows = { name: INFORMATION_FLOWS_FILE, document: flows, markdown: informationFlowsMarkdown(flows, twin(INFORMATION_FLOWS_FILE)) };
    }
    return result;
  }

  /** The assessor's summary file (CPO-CSO-OSA); a missing one fails as the reader fails. */
  private async summary(path: string): Promise<AssessorSummary> {
    const file = await this.reader.readText(path);
    return { name: file.name, sha256: file.sha256, text: file.text };
  }

  /**
   * Against FedRAMP's CPO schema when the schemas can be found. Schemas not found when none were passed: not validated,
   * with the reason; anything else the validator throws (a directory passed that holds none, a set without the CPO
   * schema) is the caller's error.
   */
  private async validate(document: CpoDocument, file: string, set: Awaited<ReturnType<typeof locateFedrampSchemas>>): Promise<CpoValidation> {
    if ('note' in set) return { validated: false, note: set.note };
    const problems = (await this.schemas.validateFedramp(set, 'cpo', document)).filter(isError);
    const schema = splitPath(set.files.cpo ?? '').base;
    if (problems.length > 0) throw cpoSchemaError(problems, file, schema);
    return { validated: true, schema, ...judgedBy(set, 'cpo') };
  }
}

/** One error naming every problem by the profile key it comes from (`fedramp.cpo.serviceProperties.deploymentModel`). */
function cpoSchemaError(problems: OscalProblem[], file: string, schema: string): InvalidInputError {
  const listed = problems.map((p) => `${profilePath(p.path)}: ${p.message}`).join('; ');
  const count = problems.length === 1 ? '' : ` (${problems.length} problems)`;
  return new InvalidInputError(
    'invalid-config',
    `${file}: ${listed}${count}; fix the profile so the CPO validates against FedRAMP's ${schema}; see docs/fedramp.md`,
  );
}

/** A JSON path of the CPO as the profile key it comes from. */
export function profilePath(path: string): string {
  if (path === '$') return 'fedramp.cpo';
  if (path === 'serviceIdentification.fedRampPackageId') return 'fedramp.fedramp_id';
  if (path === 'certificationPackageOverviewUri') return 'fedramp.package_uri';
  if (path.startsWith('metadata.accountableOfficial')) return `fedramp.accountable_official${path.slice('metadata.accountableOfficial'.length)}`;
  return `fedramp.cpo${path.startsWith('[') ? '' : '.'}${path}`;
}

function serviceName(document: CpoDocument): string | undefined {
  const name = document.serviceIdentification.serviceName;
  return typeof name === 'string' ? name : undefined;
}
