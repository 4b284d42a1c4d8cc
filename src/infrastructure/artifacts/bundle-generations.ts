import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { failpoint } from './failpoint';
import { tempTag } from '../shared/lock-owner';
import { syncDir } from '../shared/sync-dir';

/** In a bundle directory replaced at least once: the symbolic link naming the generation its members resolve to. */
export const CURRENT = '.svc-current';
/** In a bundle directory: a generation, one whole bundle; every member of the directory is a link through CURRENT. */
export const GENERATION_PREFIX = '.svc-gen-';

/**
 * Replaces the bundle in the existing directory `target` with the complete bundle in `staging` (a directory inside
 * `target`), so that a reader of `target/<member>` sees the old bundle or the new one, whole, at every instant, and a
 * process killed at any step leaves one of them:
 *
 * 1. Members that are still plain files or directories (a bundle written into a new directory is one rename of plain
 *    files) are adopted once: hard links of them become a generation, CURRENT points at it, and each plain member is
 *    replaced by the link `<member> → .svc-current/<member>`, one rename each. Before and after each rename the member
 *    has the same bytes.
 * 2. What the current generation holds and the new bundle does not (the SAR of another name in the same directory, a
 *    page of an earlier documentation package) is hard-linked into the staging directory, so a write replaces only the
 *    files it writes, as moving them in did. The staging directory becomes a generation of its own (one rename), and
 *    every member of the new bundle gets its link (new members' links dangle until step 3: no reader of the old bundle
 *    asks for them).
 * 3. CURRENT is replaced by a link to the new generation: one rename, the moment every member changes at once.
 * 4. Generations CURRENT no longer names, and member links that now dangle (members of the old bundle only), go.
 *
 * The caller holds the directory's commit lock. Leftovers of a process killed after step 2 (a generation CURRENT
 * does not name) are removed by step 4 of the next replacement.
 */
export async function replaceBundle(staging: string, target: string, names: readonly string[]): Promise<void> {
  const members = [...new Set(names.map((name) => name.split('/')[0]))];
  await adoptPlainMembers(target, members);
  const generation = newGeneration();
  const current = await readCurrent(target);
  if (current !== undefined) await overlay(join(target, current), staging);
  await syncDir(staging);
  await rename(staging, join(target, generation));
  failpoint('bundle-generation');
  for (const member of members) await linkMember(target, member);
  await syncDir(target);
  failpoint('bundle-linked');
  await pointCurrent(target, generation);
  failpoint('bundle-switched');
  await removeOldGenerations(target, generation);
}

/** Step 1: the plain members of `target` (of the bundle written before) become its first generation. */
async function adoptPlainMembers(target: string, members: readonly string[]): Promise<void> {
  const plain: string[] = [];
  for (const name of await readdir(target)) {
    if (!members.includes(name)) continue;
    if (!(await lstat(join(target, name))).isSymbolicLink()) plain.push(name);
  }
  if (plain.length === 0) return;
  let current = await readCurrent(target);
  if (current === undefined) {
    current = newGeneration();
    const building = join(target, `.adopt.${tempTag()}`);
    await mkdir(building);
    for (const name of plain) await hardLinkTree(join(target, name), join(building, name));
    await syncDir(building);
    await rename(building, join(target, current));
    await pointCurrent(target, current);
    failpoint('bundle-adopt-current');
  }
  for (const [i, name] of plain.entries()) {
    await linkMember(target, name);
    if (i === 0) failpoint('bundle-adopted-one');
  }
  await syncDir(target);
}

/** A generation's name: not a temporary name, so no sweep takes it for a dead process's leftover. */
function newGeneration(): string {
  return `${GENERATION_PREFIX}${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** `<member> → .svc-current/<member>`, put in place by one rename over whatever the member was. */
async function linkMember(target: string, member: string): Promise<void> {
  const path = join(target, member);
  const wanted = `${CURRENT}/${member}`;
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isSymbolicLink() && (await readlink(path)) === wanted) return;
  const temp = join(target, `.${member}.${tempTag()}`);
  await symlink(wanted, temp);
  if (existing?.isDirectory()) {
    // rename(2) cannot put a link over a directory: the directory steps aside first (its bytes are in CURRENT's generation).
    const aside = join(target, `.${member}.aside.${tempTag()}`);
    await rename(path, aside);
    await rename(temp, path);
    await rm(aside, { recursive: true, force: true });
  } else {
    await rename(temp, path);
  }
}

/** Points CURRENT at `generation` with one rename. */
async function pointCurrent(target: string, generation: string): Promise<void> {
  const temp = join(target, `${CURRENT}.${tempTag()}`);
  await symlink(generation, temp);
  await rename(temp, join(target, CURRENT));
  await syncDir(target);
}

async function readCurrent(target: string): Promise<string | undefined> {
  return readlink(join(target, CURRENT)).catch(() => undefined);
}

/** Step 4: every generation but `keep`, and member links that no longer resolve. */
async function removeOldGenerations(target: string, keep: string): Promise<void> {
  for (const name of await readdir(target)) {
    const path = join(target, name);
    if (name.startsWith(GENERATION_PREFIX) && name !== keep) {
      await rm(path, { recursive: true, force: true });
    } else if (!name.startsWith('.') && (await lstat(path)).isSymbolicLink() && (await readlink(path)).startsWith(`${CURRENT}/`)) {
      if (
        !(await stat(path).then(
          () => true,
          () => false,
        ))
      )
        await rm(path, { force: true });
    }
  }
  await syncDir(target);
}

/** Hard-links into `into` every file of `from` that `into` lacks, at any depth (the new bundle wins). */
async function overlay(from: string, into: string): Promise<void> {
  for (const name of await readdir(from)) {
    const there = await lstat(join(into, name)).catch(() => undefined);
    if (!there) await hardLinkTree(join(from, name), join(into, name));
    else if (there.isDirectory() && (await lstat(join(from, name))).isDirectory()) await overlay(join(from, name), join(into, name));
  }
}

/** `cp -al`: the same files under a second name, directories made anew. */
async function hardLinkTree(from: string, to: string): Promise<void> {
  const info = await lstat(from);
  if (!info.isDirectory()) {
    await link(from, to);
    return;
  }
  await mkdir(to);
  for (const name of await readdir(from)) await hardLinkTree(join(from, name), join(to, name));
}
