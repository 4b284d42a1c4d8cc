import type { InjectionToken } from 'tsyringe';
import type { WrittenFile } from '../domain/artifacts/manifest';

/** A set of files that appear in their directory together, or not at all. */
export interface ArtifactTransaction {
  /** Writes one file of the set; returns its digest and size, hashed from the bytes written. */
  write(name: string, chunks: Iterable<string>): Promise<WrittenFile>;
  /** Moves every file into place; returns the directory. */
  commit(): Promise<string>;
  /** Removes everything written so far; the directory is left as it was. */
  abort(): Promise<void>;
}

/**
 * Writes artifacts atomically (temporary file, fsync, rename). Throws InvalidInputError when the target is not
 * a usable directory or file path, PermissionError when the OS refuses.
 */
export interface ArtifactWriter {
  begin(dir: string): Promise<ArtifactTransaction>;
  writeFile(path: string, chunks: Iterable<string>): Promise<WrittenFile>;
}

export const ARTIFACT_WRITER: InjectionToken<ArtifactWriter> = Symbol('ArtifactWriter');
