import { isAbsolute, join } from 'node:path';

/** Where svc keeps its caches: `SVC_CACHE_DIR`, else `$XDG_CACHE_HOME/svc`, else `~/.cache/svc`. */
export function svcCacheDir(env: NodeJS.ProcessEnv, home: string): string {
  // The XDG base-directory spec says to ignore an empty or relative XDG_CACHE_HOME.
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? join(env.XDG_CACHE_HOME, 'svc') : undefined;
  return env.SVC_CACHE_DIR || xdg || join(home, '.cache', 'svc');
}
