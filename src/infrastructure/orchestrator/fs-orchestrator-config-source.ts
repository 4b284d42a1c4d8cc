import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';
import { InvalidInputError, NotFoundError } from '../../domain/errors';
import { ORCHESTRATOR_CONFIG_FILE, readOrchestratorConfig, type OrchestratorConfig } from '../../domain/orchestrator/job';
import type { CronSchedule } from '../../ports/cron-schedule';
import type { OrchestratorConfigSource } from '../../ports/orchestrator-config-source';
import { translateFsError } from '../shared/fs-errors';

export interface FsOrchestratorConfigSourceOptions {
  cwd: string;
  cron: CronSchedule;
  /** The adapters a job may name (read when a config is loaded: it loads the parsers' registry). */
  vendors: () => readonly string[];
}

/** svc.orchestrator.json from disk, validated by the domain with cron-parser's verdict on each schedule. */
export class FsOrchestratorConfigSource implements OrchestratorConfigSource {
  constructor(private readonly options: FsOrchestratorConfigSourceOptions) {}

  async load(file?: string): Promise<OrchestratorConfig> {
    const path = resolve(this.options.cwd, file ?? ORCHESTRATOR_CONFIG_FILE);
    let text: string;
    try {
      text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        const how =
          file === undefined
            ? `create ${ORCHESTRATOR_CONFIG_FILE} here (see docs/orchestrator.md) or name one with --config <file>`
            : 'check the --config path';
        throw new NotFoundError('orchestrator-config-missing', `${path}: no orchestrator config; ${how}`);
      }
      throw translateFsError(error, path, 'orchestrator config');
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new InvalidInputError(
        'invalid-orchestrator-config',
        `${path}: not valid JSON (${jsonSyntaxProblem((error as Error).message)}); see docs/orchestrator.md`,
      );
    }
    const dir = dirname(path);
    return readOrchestratorConfig(document, path, dir, {
      validateCron: (expression) => this.options.cron.validate(expression),
      vendors: this.options.vendors(),
      resolvePath: (p) => resolve(dir, p),
    });
  }
}
