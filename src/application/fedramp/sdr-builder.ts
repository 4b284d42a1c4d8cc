import { inject, injectable } from 'tsyringe';
import { isoSeconds } from '../../domain/encoding/iso-time';
import type { Cr26Class } from '../../domain/fedramp/cr26-rules';
import type { FedrampType } from '../../domain/fedramp/profile';
import { judgeRules } from '../../domain/fedramp/rule-judgments';
import { buildSdr, sdrMarkdown, type SdrModel } from '../../domain/fedramp/sdr';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { VulnerabilityRegister, vulnerabilityFacts, type Register } from '../vulnerabilities/vulnerability-register';
import { OngoingJournal } from './ongoing-journal';
import { Cr26Assessment, judgmentFacts, type Cr26RunPicture, type Cr26Scope } from './cr26-assessment';

export interface SdrRequest {
  /** A normalized report, an evidence-bundle.json or an auditor bundle directory. */
  input: string;
  class?: Cr26Class;
  type?: FedrampType;
  now?: Date;
  /** A FedRAMP FRMR release whose official KSI ids the report may use (`--catalog`). */
  catalog?: string;
}

/** The profile keys the SDR uses (DESIGN §12.1). */
export const SDR_KEYS = ['package_uri', 'evidence_base_uri'] as const;

/** An SDR built for a run, with what it was built from (the package writes more documents from the same reading). */
export interface BuiltSdr {
  model: SdrModel;
  markdown: string;
  scope: Cr26Scope<(typeof SDR_KEYS)[number]>;
  run: SdrRun;
  picture: Cr26RunPicture;
  asOf: string;
  /** The vulnerability register judged at the SDR's time, for the documents written with it. */
  register: Register;
}

export interface SdrOptions {
  /** The command, for messages and the SDR's `updateSource`. */
  command: string;
  /** The JSON file's name, which the twin names. */
  jsonName: string;
  /** The schema file the SDR will be validated by (FRC-CSO-JSN), when it will be. */
  validatedBy?: string;
}

/** Builds the Security Decision Record of a run for the offering's profile (DESIGN §12.3). */
@injectable()
export class SdrBuilder {
  constructor(
    private readonly cr26: Cr26Assessment,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
    private readonly register: VulnerabilityRegister,
    private readonly journal: OngoingJournal,
  ) {}

  async build(request: SdrRequest, options: SdrOptions): Promise<BuiltSdr> {
    const scope = this.cr26.scope(request, SDR_KEYS, options.command);
    const { run, facts } = await this.cr26.load(scope, { input: request.input, catalog: request.catalog });
    const picture = await this.cr26.picture(scope, run, facts);
    return this.assemble(
      scope,
      picture,
      { asOf: run.context.generatedAt ?? isoSeconds(run.context.runAt), results: run.results, input: run.context.input },
      options,
    );
  }

  /**
   * The SDR of the run store's state, the latest run of every source (the trust center's `/fedramp/sdr`); undefined
   * when no run is recorded.
   * Stored runs never change, so the same store state gives the same SDR.
   */
  async buildLatest(request: Omit<SdrRequest, 'input' | 'catalog'>, options: SdrOptions): Promise<BuiltSdr | undefined> {
    const scope = this.cr26.scope(request, SDR_KEYS, options.command);
    const state = await this.cr26.state();
    if (state === undefined) return undefined;
    const { picture, results } = await this.cr26.storedPicture(scope, state.runs);
    return this.assemble(scope, picture, { asOf: state.newest.as_of, results, input: state.input }, options);
  }

  private async assemble(scope: Cr26Scope<(typeof SDR_KEYS)[number]>, picture: Cr26RunPicture, run: SdrRun, options: SdrOptions): Promise<BuiltSdr> {
    const { command, validatedBy } = options;
    const statements = await this.cr26.statements(scope);
    const register = await this.register.judge({ class: scope.profile.class, now: scope.now }, command);
    const vulnerabilities = vulnerabilityFacts(register);
    const { ocrs } = await this.journal.read();
    const judgments = judgeRules(
      judgmentFacts(scope, picture, { results: run.results, asOf: run.asOf }, statements, {
        ...(validatedBy === undefined ? {} : { validatedBy }),
        ...(vulnerabilities === undefined ? {} : { vulnerabilities }),
        ocrs,
      }),
    );
    const { tool } = this.settings;
    const model = buildSdr({
      profile: scope.profile,
      rules: scope.rules,
      found: scope.found,
      facts: picture.facts,
      statements,
      judgments,
      ...(picture.metrics === undefined ? {} : { metrics: picture.metrics }),
      history: picture.history,
      ...(picture.controls === undefined ? {} : { controls: picture.controls }),
      cadence: scope.cadences.machine,
      metadata: {
        version: `${isoSeconds(scope.now).slice(0, 10)}-${run.input.sha256.slice(0, 12)}`,
        lastUpdated: isoSeconds(scope.now),
        updateSource: `${command} ${run.input.name} (${tool.name} ${tool.version})`,
      },
    });
    const markdown = sdrMarkdown(
      model,
      {
        ...(scope.profile.fedramp_id === undefined ? {} : { fedrampId: scope.profile.fedramp_id }),
        packageUri: scope.profile.package_uri,
        rulesVersion: scope.rules.info.version,
        tool,
        generatedAt: isoSeconds(scope.now),
        json: options.jsonName,
      },
      run,
    );
    return { model, markdown, scope, run, picture, asOf: run.asOf, register };
  }
}

/** What the SDR says of the run it speaks for. */
export interface SdrRun {
  asOf: string;
  results: number;
  input: { name: string; sha256: string };
}
