import type { InjectionToken } from 'tsyringe';
import type { TreeWalk } from '../domain/substrate/tree-snapshot';

/**
 * Reads a configuration tree: every regular file under a directory, hashed, and parsed when it is JSON or YAML.
 * What `.gitignore` and `.svcignore` files exclude, and `.git/`, are left out; symbolic links are followed only to
 * files inside the tree. walk() throws NotFoundError for a missing directory, InvalidInputError for a path that is
 * not a directory and for a JSON or YAML file that does not parse (naming the file, line and column).
 */
export interface ConfigTreeReader {
  walk(dir: string): Promise<TreeWalk>;
}

export const CONFIG_TREE_READER: InjectionToken<ConfigTreeReader> = Symbol('ConfigTreeReader');
