import type { WrittenFile } from '../../domain/artifacts/manifest';
import type { TrackedPoamItem } from '../../domain/conmon/run-record';
import type { ArtifactSink, ArtifactWriter } from '../../ports/artifact-writer';
import type { PoamWorkbook, PoamWorkbookInfo } from '../../ports/poam-workbook';
import { writeAll } from '../shared/write-all';

/**
 * Writes POA&M items to `out`: the FedRAMP template as .xlsx (rendered before anything is written, so a failure
 * leaves nothing behind) or as CSV (with a BOM, which makes Excel read UTF-8), else what `other` writes.
 */
export async function writePoamFile(
  ports: { writer: ArtifactWriter; workbook: PoamWorkbook },
  out: string,
  format: string,
  items: readonly TrackedPoamItem[],
  info: () => PoamWorkbookInfo,
  other: (sink: ArtifactSink) => void,
): Promise<WrittenFile> {
  const sink = await ports.writer.open(out);
  let bytes: Uint8Array | undefined;
  if (format === 'xlsx') {
    try {
      bytes = await ports.workbook.render(items, info());
    } catch (error) {
      await sink.abort();
      throw error;
    }
  }
  return writeAll(sink, (s) => {
    if (bytes !== undefined) s.writeBytes(bytes);
    else if (format === 'csv') s.write(`\uFEFF${ports.workbook.csv(items)}`);
    else other(s);
  });
}
