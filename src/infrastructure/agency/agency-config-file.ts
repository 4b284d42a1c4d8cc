import { readFile, realpath, stat } from 'node:fs/promises';
import { ConflictError, InvalidInputError } from '../../domain/errors';
import { isPlainObject } from '../../domain/encoding/json-values';
import { parseJson } from '../../domain/encoding/json-syntax-problem';
import { DEFAULT_PULL_SETTINGS, providerConfigEntry, type AgencyProvider, type AgencySettings } from '../../domain/agency/providers';
import type { AgencyConfig } from '../../ports/agency-config';
import { readConfig } from '../config';
import { writeFileAtomically } from '../shared/atomic-file';
import { translateFsError } from '../shared/fs-errors';

/**
 * `agency` of svc.config.json: read with the rest of the configuration, and providers written into the file itself
 * (SVC_CONFIG, else svc.config.json in the working directory; created when there is none), every other key kept as
 * it was, the whole file checked as svc reads it before it replaces the old one atomically.
 */
export class AgencyConfigFile implements AgencyConfig {
  constructor(
    readonly file: string,
    private readonly read: AgencySettings | undefined,
  ) {}

  settings(): AgencySettings {
    return this.read ?? { providers: [], pull: DEFAULT_PULL_SETTINGS };
  }

  async addProviders(providers: readonly AgencyProvider[], { replace }: { replace: boolean }): Promise<void> {
    const found = await stat(this.file).catch(() => undefined);
    const exists = found !== undefined;
    // A symlinked svc.config.json is written where it points, and keeps its mode.
    const target = exists ? await realpath(this.file) : this.file;
    const mode = exists ? found.mode & 0o777 : 0o644;
    let document: Record<string, unknown> = {};
    if (exists) {
      const text = await readFile(this.file, 'utf8').catch((error: unknown) => {
        throw translateFsError(error, this.file, 'configuration file');
      });
      const parsed = parseJson(text.replace(/^\uFEFF/, ''), this.file);
      if (!isPlainObject(parsed)) throw new InvalidInputError('invalid-config', `${this.file}: $: expected an object; see docs/configuration.md`);
      document = parsed;
    }
    for (const provider of providers) await checkFiles(provider);
    const agency = isPlainObject(document.agency) ? { ...document.agency } : {};
    const list: unknown[] = Array.isArray(agency.providers) ? [...agency.providers] : [];
    for (const provider of providers) {
      const at = list.findIndex((p) => isPlainObject(p) && p.name === provider.name);
      if (at >= 0 && !replace)
        throw new ConflictError(
          'agency-provider-exists',
          `${this.file}: agency.providers already names "${provider.name}"; pass --replace to replace it, or choose another name`,
        );
      if (at >= 0) list[at] = providerConfigEntry(provider);
      else list.push(providerConfigEntry(provider));
    }
    const next = { ...document, agency: { ...agency, providers: list } };
    // The file as svc will read it: a mistake here is reported now, not at the next command.
    readConfig(next, this.file);
    await writeFileAtomically(target, `${JSON.stringify(next, null, 2)}\n`, { mode }).catch((error: unknown) => {
      throw translateFsError(error, this.file, 'configuration file');
    });
  }
}

/** The files a provider's entry names (the CA, the client certificate and key, the token file) must be readable files. */
async function checkFiles(provider: AgencyProvider): Promise<void> {
  const files: [string, string | undefined][] = [
    ['--ca', provider.ca],
    ['--cert', provider.auth.kind === 'cert' ? provider.auth.cert : undefined],
    ['--key', provider.auth.kind === 'cert' ? provider.auth.key : undefined],
    ['--token-file', provider.auth.kind === 'token' ? provider.auth.tokenFile : undefined],
  ];
  for (const [flag, path] of files) {
    if (path === undefined) continue;
    const found = await stat(path).catch(() => undefined);
    if (found === undefined || !found.isFile())
      throw new InvalidInputError('agency-file-missing', `${path}: no such file (${flag} of provider "${provider.name}"); give the path of an existing file`);
  }
}
