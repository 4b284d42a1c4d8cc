import { BaseCommand } from '../../base-command';
import { Args } from '@oclif/core';
import { DispatchJob, type DispatchJobResult } from '../../../../application/orchestrator/dispatch-job';
import { orchestratorConfigFlag } from '../../orchestrator-flags';
import { plural } from '../../../../domain/encoding/plural';

export default class OrchestratorDispatch extends BaseCommand {
  static summary = 'Run a job now: its command, the adapter, the auditor bundle, then conmon; one run per job at a time.';
  static description = `With SVC_STORE=postgres://... the job goes to the shared queue instead, and a worker (svc orchestrator schedule --worker) runs it.
A failed stage exits with the code of its error; the previous bundle and stored runs are left as they were.`;
  static examples = ['<%= config.bin %> <%= command.id %> m365-daily', '<%= config.bin %> <%= command.id %> m365-daily --config ops/svc.orchestrator.json'];
  static enableJsonFlag = true;
  static args = { job: Args.string({ required: true, description: 'Job name (svc orchestrator list)' }) };
  static flags = { config: orchestratorConfigFlag };

  async run(): Promise<DispatchJobResult> {
    const { args, flags } = await this.parse(OrchestratorDispatch);
    const result = await this.resolve(DispatchJob).execute({ job: args.job, config: flags.config });
    if (result.mode === 'queued') {
      this.log(result.queued ? `Queued job ${result.job} on ${result.queue}` : `Job ${result.job} is already waiting on ${result.queue}; not queued again`);
      return result;
    }
    const stored =
      result.run &&
      `${result.run.recorded ? 'recorded run' : 'already recorded as run'} ${result.run.seq} in ${result.run.store} (${plural(result.run.events, 'event')})`;
    this.log(`Job ${result.job}: ok; bundle ${result.bundle}${stored ? `; ${stored}` : ''}`);
    return result;
  }
}
