import type { OrgPathHolder } from '../../domain/directory/org-path';
import { IntegrityError } from '../../domain/errors';
import type { OrgPathDirectory } from '../../ports/org-path-directory';
import type { GraphClient } from './graph-client';
import { orgPathPatch, orgPathSelect, toOrgPathHolder } from './graph-mapping';

/**
 * Organizational paths in one user property through Graph: read with GET /users, written with PATCH /users/{id}
 * (User.ReadWrite.All). onPremisesExtensionAttributes are writable through Graph only for cloud-only users;
 * Graph refuses the PATCH for synchronized users (their value comes from on-premises AD).
 */
export class GraphOrgPathDirectory implements OrgPathDirectory {
  constructor(
    private readonly graph: GraphClient,
    readonly attribute: string,
  ) {}

  async listPaths(): Promise<OrgPathHolder[]> {
    const users = await this.graph.list('users', { select: orgPathSelect(this.attribute), top: 999 }, ['User.Read.All']);
    return users.map((u, i) =>
      toOrgPathHolder(u, this.attribute, `users[${i}]`, (path, problem) => {
        throw new IntegrityError('graph-unexpected-answer', `GET /users: ${path}: ${problem}; Microsoft Graph answered an object svc cannot read`);
      }),
    );
  }

  async writePath(userId: string, path: string): Promise<void> {
    await this.graph.send('PATCH', `users/${encodeURIComponent(userId)}`, ['User.ReadWrite.All'], orgPathPatch(this.attribute, path));
  }
}
