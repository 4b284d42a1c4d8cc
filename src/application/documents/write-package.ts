import type { WrittenFile } from '../../domain/artifacts/manifest';
import type { PackageFile } from '../../domain/documents/documentation-package';
import type { ArtifactWriter } from '../../ports/artifact-writer';

/** Writes a package's files into `dir` in one transaction: they appear together, or none does. */
export async function writePackage(writer: ArtifactWriter, dir: string, files: readonly PackageFile[]): Promise<WrittenFile[]> {
  const transaction = await writer.begin(dir);
  try {
    const sinks = files.map((file) => {
      const sink = transaction.open(file.path);
      sink.write(file.text);
      return sink;
    });
    const written: WrittenFile[] = [];
    for (const sink of sinks) written.push(await sink.close());
    await transaction.commit();
    return written;
  } catch (error) {
    await transaction.abort();
    throw error;
  }
}
