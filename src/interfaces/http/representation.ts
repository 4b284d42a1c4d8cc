import type { Request, Response } from 'express';

/**
 * Sends an artifact's exact bytes with the headers an assessor checks: `Content-Digest` (RFC 9530, SHA-256 of the
 * bytes sent), a strong `ETag` (the hex SHA-256), and 304 for a matching `If-None-Match`.
 */
export function sendArtifact(req: Request, res: Response, artifact: { text: string; sha256: string; name: string; contentType: string }): void {
  const etag = `"${artifact.sha256}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Digest', `sha-256=:${Buffer.from(artifact.sha256, 'hex').toString('base64')}:`);
  res.setHeader('Content-Disposition', `inline; filename="${artifact.name}"`);
  // JSON is UTF-8 by definition (RFC 8259 §8.1): no charset parameter.
  res.setHeader('Content-Type', artifact.contentType);
  res.send(Buffer.from(artifact.text, 'utf8'));
}
