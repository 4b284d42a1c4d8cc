import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Enums, Models, Serialize, SPDX, Spec } from '@cyclonedx/cyclonedx-library';
import { InvalidInputError } from '../../domain/errors';
import type { Sbom, SbomGenerator, SbomRequest } from '../../ports/sbom-generator';
import type { Uuids } from '../../ports/uuids';
import { jsonSyntaxProblem } from '../../domain/encoding/json-syntax-problem';

/** One entry of package-lock.json's `packages` map (lockfileVersion 2 and 3). */
interface LockedPackage {
  name?: string;
  version?: string;
  integrity?: string;
  license?: unknown;
  dev?: boolean;
  optional?: boolean;
  link?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

type Packages = Record<string, LockedPackage>;

export interface CyclonedxSbomGeneratorOptions {
  /** svc's installation root: the project described when the request names none. */
  root: string;
  uuids: Uuids;
}

/** Namespace of svc's SBOM serial numbers: the v5 UUID of "urn:svc:sbom" in RFC 9562's URL namespace. */
const SERIAL_NAMESPACE = '9f38ba58-cf1a-5401-a79b-3f64aed3e8de';
/** Subresource-integrity algorithms npm records, and their CycloneDX names. */
const HASH_ALGORITHMS: Record<string, Enums.HashAlgorithm> = {
  sha512: Enums.HashAlgorithm['SHA-512'],
  sha384: Enums.HashAlgorithm['SHA-384'],
  sha256: Enums.HashAlgorithm['SHA-256'],
  sha1: Enums.HashAlgorithm['SHA-1'],
};
const NODE_MODULES = 'node_modules/';

/**
 * A CycloneDX 1.6 BOM of a Node project from package.json and package-lock.json, with @cyclonedx/cyclonedx-library:
 * one component per installed package (the same name and version installed at several paths is one component),
 * purls, the lockfile's integrity hashes, licenses, and the dependency graph as npm resolves it. Lists are sorted
 * and the serial number is derived from the lockfile, so the same lockfile and timestamp give the same text.
 */
export class CyclonedxSbomGenerator implements SbomGenerator {
  constructor(private readonly options: CyclonedxSbomGeneratorOptions) {}

  async fromProject({ dir = this.options.root, includeDev, timestamp }: SbomRequest): Promise<Sbom> {
    const project = await readJson(resolve(dir, 'package.json'), `run npm init in ${dir}, or point at the directory that holds the project's package.json`);
    const lockText = await readText(resolve(dir, 'package-lock.json'), `run npm install in ${dir} to create it`);
    const packages = lockedPackages(parseJson(lockText, resolve(dir, 'package-lock.json')), resolve(dir, 'package-lock.json'));
    const root = packages[''] ?? {};

    // The project's peer dependencies (svc's optional `api` extra) ship with it when installed: they and what they
    // pull in are components, scoped optional, even though npm records them as dev when they are also devDependencies.
    const peers = peerClosure(packages);
    const included = (path: string) => path !== '' && packages[path].link !== true && (includeDev || packages[path].dev !== true || peers.has(path));
    const components = new Map<string, Models.Component>();
    const byPath = new Map<string, Models.Component>();
    for (const path of Object.keys(packages).filter(included)) {
      const entry = packages[path];
      const name = entry.name ?? path.slice(path.lastIndexOf(NODE_MODULES) + NODE_MODULES.length);
      const purl = npmPurl(name, entry.version);
      let component = components.get(purl);
      if (component === undefined) {
        component = packageComponent(Enums.ComponentType.Library, name, entry.version, purl);
        component.scope = isOptional(entry) ? Enums.ComponentScope.Optional : Enums.ComponentScope.Required;
        addHashes(component, entry.integrity);
        addLicense(component, entry.license ?? (await installedLicense(join(dir, path, 'package.json'))));
        components.set(purl, component);
      } else if (!isOptional(entry)) component.scope = Enums.ComponentScope.Required;
      byPath.set(path, component);
    }

    const name = stringField(project.name) ?? stringField(root.name) ?? 'project';
    const version = stringField(project.version) ?? root.version;
    const subject = packageComponent(Enums.ComponentType.Application, name, version, npmPurl(name, version));
    addLicense(subject, project.license ?? root.license);
    const dependents: [string, LockedPackage, Models.Component][] = [
      ['', { ...root, devDependencies: includeDev ? root.devDependencies : undefined }, subject],
    ];
    for (const [path, component] of byPath) dependents.push([path, packages[path], component]);
    for (const [path, entry, component] of dependents) {
      const names = [entry.dependencies, entry.devDependencies, entry.optionalDependencies, entry.peerDependencies].flatMap((deps) => Object.keys(deps ?? {}));
      for (const dependency of names) {
        const target = byPath.get(resolveInstalled(packages, path, dependency) ?? '');
        if (target !== undefined && target !== component) component.dependencies.add(target.bomRef);
      }
    }

    const bom = new Models.Bom({
      serialNumber: `urn:uuid:${this.options.uuids.v5(SERIAL_NAMESPACE, `${createHash('sha256').update(lockText).digest('hex')}${includeDev ? '+dev' : ''}`)}`,
      metadata: new Models.Metadata({ timestamp, component: subject }),
    });
    for (const component of components.values()) bom.components.add(component);
    const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
    return { text: `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`, components: components.size };
  }
}

/** Not needed to run: a development dependency, or an optional one (npm leaves it out when it cannot build it). */
function isOptional(entry: LockedPackage): boolean {
  return entry.dev === true || entry.optional === true;
}

/** Installed paths of the root's peer dependencies and everything they depend on. */
function peerClosure(packages: Record<string, LockedPackage>): Set<string> {
  const seen = new Set<string>();
  const queue: [string, string][] = Object.keys(packages['']?.peerDependencies ?? {}).map((name) => ['', name]);
  while (queue.length > 0) {
    const [from, name] = queue.shift()!;
    const path = resolveInstalled(packages, from, name);
    if (path === undefined || seen.has(path)) continue;
    seen.add(path);
    const entry = packages[path];
    for (const deps of [entry.dependencies, entry.optionalDependencies, entry.peerDependencies])
      for (const dep of Object.keys(deps ?? {})) queue.push([path, dep]);
  }
  return seen;
}

function packageComponent(type: Enums.ComponentType, name: string, version: string | undefined, purl: string): Models.Component {
  const slash = name.startsWith('@') ? name.indexOf('/') : -1;
  return new Models.Component(type, slash > 0 ? name.slice(slash + 1) : name, {
    group: slash > 0 ? name.slice(0, slash) : undefined,
    version,
    purl,
    bomRef: purl,
  });
}

/** `pkg:npm/%40scope/name@version`: the purl spec's npm type, the scope's "@" percent-encoded. */
export function npmPurl(name: string, version: string | undefined): string {
  const path = name.split('/').map(encodeURIComponent).join('/');
  return `pkg:npm/${path}${version === undefined ? '' : `@${encodeURIComponent(version)}`}`;
}

/** Each subresource-integrity digest (`sha512-<base64>`) as a CycloneDX hash in hex. */
function addHashes(component: Models.Component, integrity: string | undefined): void {
  for (const sri of (integrity ?? '').split(/\s+/)) {
    const dash = sri.indexOf('-');
    const algorithm = HASH_ALGORITHMS[sri.slice(0, dash)];
    if (dash > 0 && algorithm !== undefined) component.hashes.set(algorithm, Buffer.from(sri.slice(dash + 1), 'base64').toString('hex'));
  }
}

/** An SPDX id, an SPDX expression, or else a named license; package.json's legacy `{ "type": "MIT" }` form too. */
function addLicense(component: Models.Component, license: unknown): void {
  const text = stringField(license) ?? (typeof license === 'object' && license !== null && 'type' in license ? stringField(license.type) : undefined);
  if (text === undefined || text === '') return;
  if (SPDX.isSupportedSpdxId(text)) component.licenses.add(new Models.SpdxLicense(text));
  else if (/\s(OR|AND|WITH)\s|^\(/.test(text)) component.licenses.add(new Models.LicenseExpression(text));
  else component.licenses.add(new Models.NamedLicense(text));
}

/** The license an installed package declares, when the lockfile does not record one and the package is installed. */
async function installedLicense(file: string): Promise<unknown> {
  try {
    const manifest: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof manifest === 'object' && manifest !== null && 'license' in manifest ? manifest.license : undefined;
  } catch {
    return undefined;
  }
}

/** Where npm finds `name` from the package at `path`: its own node_modules, then each enclosing one, up to the root's. */
function resolveInstalled(packages: Packages, path: string, name: string): string | undefined {
  for (let base = path; ;) {
    const candidate = `${base === '' ? '' : `${base}/`}${NODE_MODULES}${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const parent = base.lastIndexOf(`/${NODE_MODULES}`);
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

function lockedPackages(lock: Record<string, unknown>, file: string): Packages {
  const { lockfileVersion, packages } = lock;
  if ((lockfileVersion !== 2 && lockfileVersion !== 3) || typeof packages !== 'object' || packages === null) {
    throw new InvalidInputError(
      'bad-lockfile',
      `${file}: lockfileVersion ${String(lockfileVersion)} has no "packages" map; run npm install with npm 7 or later to rewrite it as version 3`,
    );
  }
  return packages as Packages;
}

async function readText(file: string, fix: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InvalidInputError('missing-project-file', `${file}: ${code === 'ENOENT' ? 'not found' : `cannot be read (${code})`}; ${fix}`, { cause: error });
  }
}

async function readJson(file: string, fix: string): Promise<Record<string, unknown>> {
  return parseJson(await readText(file, fix), file);
}

function parseJson(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError('bad-lockfile', `${file}: not valid JSON (${jsonSyntaxProblem((error as Error).message)}); run npm install to rewrite it`, {
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidInputError('bad-lockfile', `${file}: expected a JSON object; run npm install to rewrite it`);
  return value as Record<string, unknown>;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
