/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters (lazy.ts) */
import { resolve } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { CRON_SCHEDULE } from '../../ports/cron-schedule';
import { JOB_HISTORY } from '../../ports/job-history';
import { JOB_LOCK } from '../../ports/job-lock';
import { JOB_QUEUE } from '../../ports/job-queue';
import { ORCHESTRATOR_CONFIG_SOURCE } from '../../ports/orchestrator-config-source';
import { PROCESS_RUNNER } from '../../ports/process-runner';
import { SCAN_READER } from '../../ports/scan-reader';
import { TIMER } from '../../ports/timer';
import { YAML_ENCODER } from '../../ports/yaml-encoder';
import { lazy, type RegistrationContext } from './lazy';

/** `svc orchestrator`: its state lives under the svc home; pg-boss loads only with SVC_STORE=postgres://. */
export function registerOrchestrator(container: DependencyContainer, { env, cwd, svcHome }: RegistrationContext): void {
  lazy(
    container,
    CRON_SCHEDULE,
    () => require('../orchestrator/cron-parser-schedule') as typeof import('../orchestrator/cron-parser-schedule'),
    (m) => new m.CronParserSchedule(),
  );
  lazy(
    container,
    ORCHESTRATOR_CONFIG_SOURCE,
    () => require('../orchestrator/fs-orchestrator-config-source') as typeof import('../orchestrator/fs-orchestrator-config-source'),
    (m, c) =>
      new m.FsOrchestratorConfigSource({
        cwd,
        cron: c.resolve(CRON_SCHEDULE),
        vendors: () =>
          c
            .resolve(SCAN_READER)
            .vendors()
            .map((v) => v.vendor),
      }),
  );
  lazy(
    container,
    JOB_LOCK,
    () => require('../orchestrator/file-job-lock') as typeof import('../orchestrator/file-job-lock'),
    (m) => new m.FileJobLock({ dir: resolve(svcHome, 'locks') }),
  );
  lazy(
    container,
    JOB_HISTORY,
    () => require('../orchestrator/fs-job-history') as typeof import('../orchestrator/fs-job-history'),
    (m) => new m.FsJobHistory(resolve(svcHome, 'orchestrator')),
  );
  lazy(
    container,
    PROCESS_RUNNER,
    () => require('../orchestrator/node-process-runner') as typeof import('../orchestrator/node-process-runner'),
    (m) => new m.NodeProcessRunner(),
  );
  lazy(
    container,
    TIMER,
    () => require('../orchestrator/system-timer') as typeof import('../orchestrator/system-timer'),
    (m) => new m.SystemTimer(),
  );
  lazy(
    container,
    YAML_ENCODER,
    () => require('../orchestrator/yaml-library-encoder') as typeof import('../orchestrator/yaml-library-encoder'),
    (m) => new m.YamlLibraryEncoder(),
  );
  lazy(
    container,
    JOB_QUEUE,
    () => undefined,
    () => {
      const url = env.SVC_STORE;
      if (url === undefined || !/^postgres(ql)?:\/\//i.test(url))
        return (require('../queue/local-job-queue') as typeof import('../queue/local-job-queue')).LOCAL_QUEUE;
      const { PgBossJobQueue } = require('../queue/pg-boss-job-queue') as typeof import('../queue/pg-boss-job-queue');
      const { redactUrl } = require('../shared/postgres-errors') as typeof import('../shared/postgres-errors');
      return new PgBossJobQueue({ url, location: redactUrl(url) });
    },
  );
}
