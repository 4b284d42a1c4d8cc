import 'reflect-metadata';
import { container as root, instanceCachingFactory, Lifecycle, type DependencyContainer } from 'tsyringe';
import { CurrentRun } from '../../application/auditor/current-run';
import { AccessRecorder } from '../../application/trust/access-recorder';
import { BuildTrustDocument } from '../../application/trust/build-trust-document';
import { SnapshotDocuments } from '../../application/trust/snapshot-documents';
import { SNAPSHOT_LIMITS } from './routes/trust-snapshots';
import { SnapshotStore, type SnapshotBounds } from '../../application/trust/snapshot-store';
import { FrozenStoreState, StoreState } from '../../application/trust/store-state';
import { registerAdapters } from '../../infrastructure/register-adapters';
import { JOURNAL_STORE } from '../../ports/journal-store';
import { RUN_STORE } from '../../ports/run-store';
import { GRAPH_SETTINGS } from '../../ports/graph-settings';
import type { ApiConfig } from './config/api-config';

export type ContainerOverrides = (container: DependencyContainer) => void;

/**
 * The API's composition root: the CLI's production adapters (the store from the config's `store`, else SVC_STORE),
 * one CurrentRun, one AccessRecorder and the snapshots' documents for the process, then any test overrides.
 */
export function buildApiContainer(
  config: ApiConfig,
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
  overrides?: ContainerOverrides,
): DependencyContainer {
  const env = { ...(options.env ?? process.env), ...(config.store !== undefined ? { SVC_STORE: config.store } : {}) };
  const container = registerAdapters(root.createChildContainer(), { env, cwd: options.cwd });
  container.register(CurrentRun, { useClass: CurrentRun }, { lifecycle: Lifecycle.ContainerScoped });
  // One access log for the process: the routes that record and the route that reads it (/fedramp/access) share its batch.
  container.register(AccessRecorder, { useClass: AccessRecorder }, { lifecycle: Lifecycle.ContainerScoped });
  if (config.graph) container.register(GRAPH_SETTINGS, { useValue: config.graph });
  // The `?snapshot=` documents: built once per representation, bounded (SNAPSHOT_LIMITS: a test's overrides may set it),
  // each snapshot's by a BuildTrustDocument of its own container, over the store as it stood then.
  container.register(SnapshotDocuments, {
    useFactory: instanceCachingFactory(
      (c) =>
        new SnapshotDocuments(
          (bounds) => snapshotContainer(c, bounds).resolve(BuildTrustDocument),
          c.isRegistered(SNAPSHOT_LIMITS, true) ? c.resolve(SNAPSHOT_LIMITS) : {},
        ),
    ),
  });
  overrides?.(container);
  return container;
}

/**
 * A child of the API's container whose run store is the store as it stood at an OCR snapshot (SnapshotStore): what the
 * trust center builds `?snapshot=` documents with, by the same use cases as the current ones.
 */
export function snapshotContainer(container: DependencyContainer, bounds: SnapshotBounds): DependencyContainer {
  const child = container.createChildContainer();
  const snapshot = new SnapshotStore(container.resolve(RUN_STORE), bounds, container.resolve(JOURNAL_STORE));
  child.register(RUN_STORE, { useValue: snapshot });
  child.register(JOURNAL_STORE, { useValue: snapshot });
  child.register(StoreState, { useClass: FrozenStoreState });
  return child;
}
