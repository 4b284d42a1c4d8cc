import { JsonArrayItems } from '../../domain/encoding/json-array-items';
import type { OpenedDocument } from '../../ports/run-store';

/**
 * Reads a stored document that begins with `head` (the opening of its array) a chunk at a time, giving each item's
 * text to `item`, and resolves with the text after the array. A document changed outside svc is reported as such (by
 * the store, once the bytes are through) before anything wrong inside it: the first problem `item` or the splitter
 * throws is kept while the rest of the bytes are read, then thrown.
 */
export async function readStoredItems(opened: OpenedDocument, head: string, item: (text: string) => void): Promise<string> {
  const items = new JsonArrayItems(head);
  let problem: unknown;
  for await (const chunk of opened.chunks) {
    if (problem !== undefined) continue;
    try {
      for (const text of items.push(chunk)) item(text);
    } catch (error) {
      problem = error;
    }
  }
  if (problem !== undefined) throw problem;
  return items.rest();
}
