import type { WrittenFile } from '../../domain/artifacts/manifest';
import type { ArtifactSink } from '../../ports/artifact-writer';

/** Runs `render` into a sink and closes it; throws the sink away when anything fails. */
export async function writeAll(sink: ArtifactSink, render: (sink: ArtifactSink) => void): Promise<WrittenFile> {
  try {
    render(sink);
    return await sink.close();
  } catch (error) {
    await sink.abort();
    throw error;
  }
}
