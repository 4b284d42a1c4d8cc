import type { InjectionToken } from 'tsyringe';
import type { WrittenFile } from '../domain/artifacts/manifest';
import type { TextSink } from '../domain/artifacts/text-sink';
import type { Fragment } from '../domain/artifacts/partition';

/**
 * One file being written. write() buffers and writes in large pieces (it may throw the I/O errors of
 * those writes); close() flushes, fsyncs and returns the digest and size of the bytes written.
 */
export interface ArtifactSink extends TextSink {
  /** Appends bytes that are not text (an .xlsx workbook). */
  writeBytes(bytes: Uint8Array): void;
  /** Appends a fragment a worker wrote, then deletes it. */
  append(fragment: Fragment): void;
  close(): Promise<WrittenFile>;
  /** Throws the file away; safe to call after an error or after close(). */
  abort(): Promise<void>;
}

/** A set of files that appear in their directory together, or not at all. */
export interface ArtifactTransaction {
  /** A new member: a plain file name, or `dir/name` for a file in a subdirectory of the bundle. */
  open(name: string): ArtifactSink;
  /** A directory for fragments that belongs to the transaction (gone after commit or abort). */
  scratch(): Promise<string>;
  /** Moves every closed file into place; returns the directory. */
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
  /** A single file: its close() also renames it into place. */
  open(path: string): Promise<ArtifactSink>;
}

export const ARTIFACT_WRITER: InjectionToken<ArtifactWriter> = Symbol('ArtifactWriter');
