import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../../domain/errors';
import { JOB_STAGES, type JobResult } from '../../domain/orchestrator/job-result';
import type { JobHistory, JobWorkspace } from '../../ports/job-history';
import { translateFsError } from '../shared/fs-errors';
import { writeFileAtomically } from '../shared/atomic-file';

/** `<svc home>/orchestrator/<job>.json` (last result) and `<svc home>/orchestrator/<job>/` (report.json, command.log). */
export class FsJobHistory implements JobHistory {
  constructor(private readonly dir: string) {}

  async last(job: string): Promise<JobResult | undefined> {
    const path = join(this.dir, `${job}.json`);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw translateFsError(error, path, 'job result');
    }
    try {
      const result = JSON.parse(text) as JobResult;
      if (['ok', 'failed'].includes(result.status) && (JOB_STAGES as readonly string[]).includes(result.stage) && typeof result.finished === 'string')
        return result;
    } catch {
      // reported below
    }
    throw new InvalidInputError('job-result-corrupt', `${path}: not a job result; delete it (the next dispatch writes it again)`);
  }

  async record(job: string, result: JobResult): Promise<void> {
    await this.makeDir(this.dir);
    const path = join(this.dir, `${job}.json`);
    try {
      await writeFileAtomically(path, `${JSON.stringify(result, null, 2)}\n`);
    } catch (error) {
      throw translateFsError(error, path, 'job result');
    }
  }

  async workspace(job: string): Promise<JobWorkspace> {
    const dir = join(this.dir, job);
    await this.makeDir(dir);
    return { report: join(dir, 'report.json'), log: join(dir, 'command.log') };
  }

  private async makeDir(dir: string): Promise<void> {
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw translateFsError(error, dir, 'orchestrator directory');
    }
  }
}
