import { inject, injectable } from 'tsyringe';
import { AppError, UnavailableError } from '../../domain/errors';
import { findJob, type Job, type OrchestratorConfig } from '../../domain/orchestrator/job';
import { JobFailedError, type JobResult, type JobStage } from '../../domain/orchestrator/job-result';
import { JOB_HISTORY, type JobHistory } from '../../ports/job-history';
import { JOB_LOCK, type JobLock } from '../../ports/job-lock';
import { ORCHESTRATOR_CONFIG_SOURCE, type OrchestratorConfigSource } from '../../ports/orchestrator-config-source';
import { PROCESS_RUNNER, type ProcessRunner } from '../../ports/process-runner';
import { TIMER, type Timer } from '../../ports/timer';
import { RunAdapter } from '../adapters/run-adapter';
import { ProcessRun } from '../conmon/process-run';
import { BuildAuditorBundle } from '../pipeline/build-auditor-bundle';

export interface RunJobInput {
  job: string;
  /** svc.orchestrator.json; default: the one in the working directory. Or a config already read (a worker's own). */
  config?: string | OrchestratorConfig;
}

export interface RunJobResult {
  job: string;
  bundle: string;
  /** The stored run, when outputs.store. */
  run?: { seq: number; recorded: boolean; store: string; events: number };
  result: JobResult;
}

/**
 * One run of a job, here and now, under its lock: the command (if any) produces the scanner's output, the adapter
 * normalizes it, the auditor bundle is built into outputs.bundle, and the run is recorded with conmon (if
 * outputs.store) as the job's `source` when it names one, else as the report's own. The last result is written
 * either way; a failure throws JobFailedError naming the stage, and leaves the previous bundle and stored runs as
 * they were (the bundle is replaced only once complete).
 */
@injectable()
export class RunJob {
  constructor(
    @inject(ORCHESTRATOR_CONFIG_SOURCE) private readonly configs: OrchestratorConfigSource,
    @inject(JOB_LOCK) private readonly lock: JobLock,
    @inject(JOB_HISTORY) private readonly history: JobHistory,
    @inject(PROCESS_RUNNER) private readonly processes: ProcessRunner,
    @inject(TIMER) private readonly timer: Timer,
    private readonly adapter: RunAdapter,
    private readonly bundle: BuildAuditorBundle,
    private readonly conmon: ProcessRun,
  ) {}

  async execute({ job: name, config: file }: RunJobInput): Promise<RunJobResult> {
    const config = typeof file === 'object' ? file : await this.configs.load(file);
    const job = findJob(config, name);
    const release = await this.lock.acquire(job.name);
    try {
      const started = this.stamp();
      let stage: JobStage = 'command';
      try {
        const work = await this.history.workspace(job.name);
        if (job.command) await this.runCommand(job, config.dir, work.log);
        stage = 'adapter';
        await this.adapter.execute({ vendor: job.adapter, input: job.input, out: work.report });
        stage = 'bundle';
        const built = await this.bundle.execute({ input: work.report, outDir: job.outputs.bundle });
        let run: RunJobResult['run'];
        if (job.outputs.store) {
          stage = 'conmon';
          const processed = await this.conmon.execute({
            input: built.outDir,
            sinks: job.outputs.sinks,
            ...(job.source === undefined ? {} : { source: job.source }),
          });
          const failed = processed.deliveries.find((d) => d.error !== undefined);
          if (failed)
            throw new UnavailableError(
              'sink-failed',
              `${failed.sink}: could not deliver the events of run ${processed.run.seq} (${failed.error}); the run is recorded in ${processed.store}`,
            );
          run = { seq: processed.run.seq, recorded: processed.recorded, store: processed.store, events: processed.events };
        }
        const result: JobResult = { started, finished: this.stamp(), status: 'ok', stage, ...(run ? { run_seq: run.seq } : {}) };
        await this.history.record(job.name, result);
        return { job: job.name, bundle: built.outDir, ...(run ? { run } : {}), result };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await this.history.record(job.name, { started, finished: this.stamp(), status: 'failed', stage, error: message });
        throw error instanceof AppError ? new JobFailedError(job.name, stage, error) : error;
      }
    } finally {
      await release();
    }
  }

  private async runCommand(job: Job, cwd: string, log: string): Promise<void> {
    const command = job.command ?? [];
    const outcome = await this.processes.run(command, { cwd, log });
    if (outcome.problem !== undefined) {
      throw new UnavailableError('job-command-failed', `${command.join(' ')} ${outcome.problem}; its output is in ${log}`);
    }
  }

  private stamp(): string {
    return this.timer.now().toISOString();
  }
}
