import type { OrgPathHolder } from '../../domain/directory/org-path';
import { ConfigError } from '../../domain/errors';
import type { OrgPathDirectory } from '../../ports/org-path-directory';
import { exportOrgPathHolders, readGraphExportFile } from './graph-export-file';

/**
 * Org paths read from a Graph export file. An export is a snapshot, so writing is refused (ConfigError
 * export-read-only): a dry run works offline, applying needs the live directory.
 */
export class ExportFileOrgPathDirectory implements OrgPathDirectory {
  constructor(
    private readonly file: string,
    readonly attribute: string,
  ) {}

  async listPaths(): Promise<OrgPathHolder[]> {
    return exportOrgPathHolders(this.file, await readGraphExportFile(this.file), this.attribute);
  }

  async writePath(): Promise<void> {
    throw new ConfigError(
      'export-read-only',
      `${this.file}: the directory is a Graph export file (graph.export), which svc does not change; run without apply for a dry run, or remove graph.export to write through Microsoft Graph`,
    );
  }
}
