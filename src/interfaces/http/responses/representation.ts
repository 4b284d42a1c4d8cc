import type { Request, Response } from 'express';

/**
 * A stored document as the body: ETag and Content-Digest from its recorded SHA-256 (304 on If-None-Match), the bytes
 * streamed as the store reads them, with backpressure. A mismatch found while streaming (run-store-tampered) cuts the
 * response off, so a client never takes a changed document for a whole one; `failed` logs it.
 */
export async function sendStoredDocument(
  req: Request,
  res: Response,
  stored: { document: { name: string; sha256: string; bytes: number }; chunks: AsyncIterable<Uint8Array> },
  contentType: string,
  failed: (error: unknown) => void,
): Promise<void> {
  const { document, chunks } = stored;
  const etag = `"${document.sha256}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
    await chunks[Symbol.asyncIterator]().return?.();
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Digest', `sha-256=:${Buffer.from(document.sha256, 'hex').toString('base64')}:`);
  res.setHeader('Content-Disposition', `inline; filename="${document.name}"`);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(document.bytes));
  if (req.method === 'HEAD') {
    await chunks[Symbol.asyncIterator]().return?.();
    res.end();
    return;
  }
  res.status(200);
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
    res.end();
  } catch (error) {
    failed(error);
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}
