import type { DependencyContainer, InjectionToken } from 'tsyringe';
import { instanceCachingFactory, instancePerContainerCachingFactory } from 'tsyringe';
import { AppError } from '../../domain/errors';
import type { SvcConfig } from '../config';

/** What every area's registration reads: the environment, the working directory, the config file and the svc home. */
export interface RegistrationContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  config: SvcConfig;
  /** `SVC_HOME`, else `.svc`, resolved against cwd. */
  svcHome: string;
}

/**
 * Binds `token` to an adapter made on its first resolution, from a module required then (`load`: a `require` the
 * caller writes out, so TypeScript types it): a command that never asks for the port never loads the module or its
 * libraries. Made once per process (`perContainer`: once per container, for adapters a test's child container must
 * not share), and, with `refuses`, a configuration mistake is kept for the adapter's first use (orRefusal).
 */
export function lazy<M, T extends object>(
  container: DependencyContainer,
  token: InjectionToken<T>,
  load: () => M,
  make: (module: M, container: DependencyContainer) => T,
  { perContainer = false, refuses = false }: { perContainer?: boolean; refuses?: boolean } = {},
): void {
  const build = (c: DependencyContainer) => (refuses ? orRefusal(() => make(load(), c))() : make(load(), c));
  container.register(token, { useFactory: perContainer ? instancePerContainerCachingFactory(build) : instanceCachingFactory(build) });
}

/**
 * tsyringe rethrows a factory's error as a plain Error with only its message, which would turn a configuration
 * mistake (exit 5) into an internal error (exit 70). So an adapter that cannot be built from its settings is
 * replaced by one whose every use throws the original error.
 */
export function orRefusal<T extends object>(make: () => T): () => T {
  return () => {
    try {
      return make();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return new Proxy({} as T, {
        get: (_target, key) =>
          key === 'then'
            ? undefined
            : () => {
                throw error;
              },
      });
    }
  };
}
