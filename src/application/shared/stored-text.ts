import type { OpenedDocument, RunView } from '../../ports/run-store';

/**
 * A small document stored with a run, read whole as UTF-8 (its bytes checked against the hash chain by the store as
 * they come); undefined when the run has no such document. For documents of a few MB at most: a run's evidence bundle
 * is read a chunk at a time instead (stored-bundle.ts).
 */
export async function readStoredText(store: RunView, runId: string, name: string): Promise<string | undefined> {
  const opened = await store.openDocument(runId, name);
  return opened && storedText(opened);
}

/** The text of a small stored document opened, read whole (the store checks its bytes as they come). */
export async function storedText(opened: OpenedDocument): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of opened.chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
