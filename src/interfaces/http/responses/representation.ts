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
  if (matchesEtag(req, etag)) {
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
      if (!res.write(chunk))
        await new Promise<void>((resolve) => {
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

/** Whether If-None-Match names `etag` (weakly, as RFC 9110 §13.1.2 compares for GET) or is `*`. */
function matchesEtag(req: Request, etag: string): boolean {
  const match = req.headers['if-none-match'];
  return match !== undefined && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');
}

/** Bytes built in memory, with their hex SHA-256, media type and headers of their own. */
export interface BuiltRepresentation {
  body: Uint8Array;
  sha256: string;
  contentType: string;
  /** `private, no-cache` for what needs a role; `no-cache` for open routes. */
  cacheControl: string;
  headers?: Record<string, string>;
}

/**
 * A representation built in memory, as sendStoredDocument sends a stored one: ETag and Content-Digest (RFC 9530) of
 * its SHA-256, 304 on If-None-Match, HEAD without the body. `Vary: Accept` because one URL has several representations.
 */
export function sendRepresentation(req: Request, res: Response, built: BuiltRepresentation): void {
  const etag = `"${built.sha256}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', built.cacheControl);
  res.setHeader('Vary', 'Accept');
  for (const [name, value] of Object.entries(built.headers ?? {})) res.setHeader(name, value);
  if (matchesEtag(req, etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Digest', `sha-256=:${Buffer.from(built.sha256, 'hex').toString('base64')}:`);
  res.setHeader('Content-Type', built.contentType);
  res.setHeader('Content-Length', String(built.body.byteLength));
  res.status(200);
  if (req.method === 'HEAD') res.end();
  else res.end(built.body);
}
