import { inject, injectable } from 'tsyringe';
import { UsageError } from '../../domain/errors';
import { cronJobManifest } from '../../domain/orchestrator/cron-job-manifest';
import { crontabLines } from '../../domain/orchestrator/crontab';
import { findJob, type Job } from '../../domain/orchestrator/job';
import { windowsTaskXml } from '../../domain/orchestrator/windows-task';
import { ORCHESTRATOR_CONFIG_SOURCE, type OrchestratorConfigSource } from '../../ports/orchestrator-config-source';
import { YAML_ENCODER, type YamlEncoder } from '../../ports/yaml-encoder';

export const EMIT_TARGETS = ['crontab', 'k8s', 'windows-task'] as const;
export type EmitTarget = (typeof EMIT_TARGETS)[number];
export const DEFAULT_IMAGE = 'ghcr.io/agency/svc:0.5.0';

export interface EmitScheduleInput {
  target: EmitTarget;
  config?: string;
  /** Only this job (required for windows-task when the config has several). */
  job?: string;
  /** How the platform calls svc (crontab, windows-task); default ["svc"]. */
  svc?: readonly string[];
  /** Container image of the k8s CronJobs. */
  image?: string;
}

export interface EmitScheduleResult {
  target: EmitTarget;
  jobs: string[];
  text: string;
}

/**
 * `svc orchestrator schedule --emit`: the jobs handed to the platform's scheduler as crontab lines, Kubernetes CronJob
 * manifests (YAML, one document per job) or a Windows Task Scheduler task, each calling `svc orchestrator dispatch`.
 */
@injectable()
export class EmitSchedule {
  constructor(
    @inject(ORCHESTRATOR_CONFIG_SOURCE) private readonly configs: OrchestratorConfigSource,
    @inject(YAML_ENCODER) private readonly yaml: YamlEncoder,
  ) {}

  async execute({ target, config, job, svc = ['svc'], image = DEFAULT_IMAGE }: EmitScheduleInput): Promise<EmitScheduleResult> {
    const loaded = await this.configs.load(config);
    const jobs: Job[] = job === undefined ? loaded.jobs : [findJob(loaded, job)];
    const names = jobs.map((j) => j.name);
    if (target === 'crontab') return { target, jobs: names, text: crontabLines(jobs, svc, loaded.file) };
    if (target === 'k8s') {
      const configName = loaded.file.slice(loaded.dir.length).replace(/^[\\/]+/, '');
      return { target, jobs: names, text: this.yaml.documents(jobs.map((j) => cronJobManifest(j, { image, configName }))) };
    }
    if (jobs.length > 1) throw new UsageError('one-job-per-task', `a Windows task runs one job: add --job <name> (jobs: ${names.join(', ')})`);
    return { target, jobs: names, text: windowsTaskXml(jobs[0], svc, loaded.file) };
  }
}
