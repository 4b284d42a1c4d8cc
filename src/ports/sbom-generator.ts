import type { InjectionToken } from 'tsyringe';

export interface SbomRequest {
  /** Directory holding the project's package.json and package-lock.json; default: svc's own installation. */
  dir?: string;
  /** Include the packages only development needs (the lockfile's `dev: true`), with scope `optional`. */
  includeDev: boolean;
  /** metadata.timestamp of the BOM. */
  timestamp: Date;
}

export interface Sbom {
  /** CycloneDX 1.6 JSON text, ending in a newline. */
  text: string;
  /** Entries of its components list. */
  components: number;
}

/**
 * Software bills of materials of Node projects. Throws InvalidInputError naming the file when package.json or
 * package-lock.json is missing, unreadable or not a lockfile of version 2 or 3.
 */
export interface SbomGenerator {
  /** The project, its installed packages with purls, hashes and licenses, and their dependency graph. */
  fromProject(request: SbomRequest): Promise<Sbom>;
}

export const SBOM_GENERATOR: InjectionToken<SbomGenerator> = Symbol('SbomGenerator');
