import type { RunView } from '../../src/ports/run-store';

/**
 * A RunView at /srv/store whose every run holds document `name` as `text` (none when undefined), given in chunks of
 * `chunk` bytes, then `failing` thrown when given (the store's own finding at the end, as verifiedChunks throws it).
 */
export function oneDocumentView(name: string, text: string | undefined, options: { chunk?: number; failing?: Error } = {}): RunView {
  const bytes = Buffer.from(text ?? '');
  const chunk = options.chunk ?? 1 << 16;
  return {
    location: '/srv/store',
    openDocument: async () =>
      text === undefined
        ? undefined
        : {
            document: { name, media_type: 'application/json', sha256: '0'.repeat(64), bytes: bytes.length },
            chunks: (async function* () {
              for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
              if (options.failing) throw options.failing;
            })(),
          },
  } as unknown as RunView;
}
