import { isAbsolute } from 'node:path';
import type { IncomingMessage } from 'node:http';

/**
 * Where the server keeps things (the run store, its config files, its home directory), kept out of the problem details
 * of anyone but the provider's operators: an agency's principal or an auditor reads `[run store]` and `[server]` where
 * an operator reads the path, and the log keeps the whole detail under the request id.
 */
export class ServerPaths {
  private readonly replacements: [string, string][];

  /**
   * @param store the run store's location (a directory, or a postgres:// URL without its password)
   * @param others absolute paths of the server's own files and directories (config files, the svc home, the working
   *   directory); `/` and relative paths are ignored, so nothing but a real location is ever replaced.
   */
  constructor(store: string | undefined, others: readonly (string | undefined)[]) {
    const entries: [string, string][] = [];
    if (store !== undefined && store.length > 1) entries.push([store, '[run store]']);
    for (const path of others)
      if (path !== undefined && isAbsolute(path) && path.replace(/[\\/]+$/, '').length > 1) entries.push([path.replace(/[\\/]+$/, ''), '[server]']);
    // The longest first, so the store inside the svc home reads `[run store]`, not `[server]/store`.
    this.replacements = entries.sort(([a], [b]) => b.length - a.length);
  }

  /** `text` with every known location replaced. */
  scrub(text: string): string {
    let out = text;
    for (const [path, label] of this.replacements) out = out.split(path).join(label);
    return out;
  }
}

/** Who may read server paths in problem details, and what the others read instead. */
export interface DetailPolicy {
  /** Whether the request's principal may read them (the provider's operators). */
  reveals(req: IncomingMessage): boolean;
  paths: ServerPaths;
}
