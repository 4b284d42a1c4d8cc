import type { OrgPathHolder } from '../../src/domain/directory/org-path';
import type { AppError } from '../../src/domain/errors';
import { NotFoundError } from '../../src/domain/errors';
import type { OrgPathDirectory } from '../../src/ports/org-path-directory';

/** Users and their paths in memory. `refuse` makes writes for a user fail with the given error; `writes` records each write. */
export class InMemoryOrgPathDirectory implements OrgPathDirectory {
  readonly writes: { user_id: string; path: string }[] = [];
  readonly refuse = new Map<string, AppError>();

  constructor(
    public holders: OrgPathHolder[] = [],
    readonly attribute = 'onPremisesExtensionAttributes.extensionAttribute1',
  ) {}

  async listPaths(): Promise<OrgPathHolder[]> {
    return this.holders.map((h) => ({ ...h }));
  }

  async writePath(userId: string, path: string): Promise<void> {
    const refusal = this.refuse.get(userId);
    if (refusal) throw refusal;
    const holder = this.holders.find((h) => h.user_id === userId);
    if (!holder) throw new NotFoundError('graph-not-found', `users/${userId}: no such user`);
    this.writes.push({ user_id: userId, path });
    holder.path = path;
  }
}
