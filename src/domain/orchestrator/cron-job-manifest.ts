import type { Job } from './job';
import { CONFIG_PATH_FIX, checkEmittedValue, checkJobValues, platformFields } from './schedule-fields';

/** Where the manifest mounts the data volume: the config, the scanners' output, the bundles and the svc home. */
export const K8S_DATA_DIR = '/svc';
/** The PersistentVolumeClaim that holds K8S_DATA_DIR. */
export const K8S_DATA_CLAIM = 'svc-data';

export interface CronJobOptions {
  image: string;
  /** The config file's name inside K8S_DATA_DIR. */
  configName: string;
}

/**
 * A Kubernetes batch/v1 CronJob running `svc orchestrator dispatch <job>` on the job's schedule (UTC). Forbid:
 * while a run is still going, the next one is skipped, like the job lock does on one host.
 */
export function cronJobManifest(job: Job, { image, configName }: CronJobOptions): Record<string, unknown> {
  checkJobValues(job);
  checkEmittedValue(job, 'the config path', configName, CONFIG_PATH_FIX);
  checkEmittedValue(job, 'the image (--image)', image, 'give --image a reference without control characters');
  const f = platformFields(job);
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: job.name, labels: { 'app.kubernetes.io/name': 'svc', 'app.kubernetes.io/component': 'orchestrator' } },
    spec: {
      schedule: `${f.minute} ${f.hour} ${f.dayOfMonth} ${f.month} ${f.dayOfWeek}`,
      timeZone: 'Etc/UTC',
      concurrencyPolicy: 'Forbid',
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 3,
      jobTemplate: {
        spec: {
          backoffLimit: 0,
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [
                {
                  name: 'svc',
                  image,
                  command: ['svc', 'orchestrator', 'dispatch', job.name, '--config', `${K8S_DATA_DIR}/${configName}`],
                  workingDir: K8S_DATA_DIR,
                  env: [{ name: 'SVC_HOME', value: `${K8S_DATA_DIR}/.svc` }],
                  volumeMounts: [{ name: 'data', mountPath: K8S_DATA_DIR }],
                },
              ],
              volumes: [{ name: 'data', persistentVolumeClaim: { claimName: K8S_DATA_CLAIM } }],
            },
          },
        },
      },
    },
  };
}
