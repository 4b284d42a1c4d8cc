import type { DirectoryGroup, DirectoryRole, DirectoryUser, MfaRegistration } from '../../domain/directory/directory-entities';
import type { DirectoryIdentity, DirectoryService } from '../../ports/directory-service';
import { type GraphExport, readGraphExportFile } from './graph-export-file';

/** DirectoryService over a Graph export file, for demos and air-gapped reviews: nothing leaves the machine. */
export class ExportFileDirectoryService implements DirectoryService {
  private loaded: Promise<GraphExport> | undefined;

  constructor(private readonly file: string) {}

  async identity(): Promise<DirectoryIdentity> {
    const data = await this.load();
    return { tenant_id: data.tenant_id, cloud: data.cloud, source: 'export' };
  }

  async listUsers(): Promise<DirectoryUser[]> {
    return (await this.load()).users;
  }

  async listGroups(): Promise<DirectoryGroup[]> {
    return (await this.load()).groups;
  }

  async listRoles(): Promise<DirectoryRole[]> {
    return (await this.load()).roles;
  }

  async listMfaRegistrations(): Promise<MfaRegistration[]> {
    return (await this.load()).mfa_registrations;
  }

  /** Read once per adapter; a failed read is not cached, so a fixed file is read on the next call. */
  private load(): Promise<GraphExport> {
    this.loaded ??= readGraphExportFile(this.file).catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }
}
