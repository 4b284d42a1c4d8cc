import { inject, injectable } from 'tsyringe';
import { DEFAULT_OSCAL_VERSION, SVC_UUID_NAMESPACE, type OscalRun } from '../../domain/oscal/oscal-run';
import { RUN_SETTINGS, type RunSettings } from '../../ports/run-settings';
import { UUIDS, type Uuids } from '../../ports/uuids';
import { RunLoader, type LoadedRun, type RunRequest } from '../shared/run-loader';
import { isoSeconds } from '../../domain/encoding/iso-time';

export interface OscalRunRequest extends RunRequest {
  /** The `oscal-version` to declare (default 1.1.3). */
  oscalVersion?: string;
}

/**
 * Gathers what a generated OSCAL document says about a run, for the use cases that write OSCAL. A bundle (directory
 * or evidence-bundle.json) is verified first, and its recorded content hashes are the evidence hashes the documents cite.
 */
@injectable()
export class OscalRunLoader {
  constructor(
    private readonly runs: RunLoader,
    @inject(UUIDS) private readonly uuids: Uuids,
    @inject(RUN_SETTINGS) private readonly settings: RunSettings,
  ) {}

  async load(request: OscalRunRequest): Promise<OscalRun> {
    return this.describe(await this.runs.load(request), request.oscalVersion);
  }

  /** What the documents say about a run already loaded (a stored run, for the API). */
  describe(run: LoadedRun, oscalVersion?: string): OscalRun {
    return {
      tool: this.settings.tool,
      generatedAt: isoSeconds(run.context.runAt),
      oscalVersion: oscalVersion ?? DEFAULT_OSCAL_VERSION,
      context: run.context,
      results: run.results,
      merkleRoot: run.merkleRoot,
      catalog: run.catalog,
      entriesFile: run.entriesFile,
      files: run.files,
      uuid: (key) => this.uuids.v5(SVC_UUID_NAMESPACE, key),
    };
  }
}
