import type { Response } from 'express';

/**
 * The serialized bodies of recent JSON responses, keyed by what decides them (the run id and the normalized query).
 * A run is immutable, so a page of it serializes to the same bytes every time; serializing a 100-entry page costs more
 * than everything else a request does, so read routes keep the last `capacity` bodies (least recently used out).
 */
export class ResponseCache {
  private readonly bodies = new Map<string, Buffer>();

  constructor(private readonly capacity = 512) {}

  /** Sends the cached body for `key`, else `produce()`'s JSON, which is cached. */
  sendJson(res: Response, key: string, produce: () => unknown): void {
    let body = this.bodies.get(key);
    if (body) {
      this.bodies.delete(key);
    } else {
      body = Buffer.from(JSON.stringify(produce()), 'utf8');
      if (this.bodies.size >= this.capacity) this.bodies.delete(this.bodies.keys().next().value as string);
    }
    this.bodies.set(key, body);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.send(body);
  }
}

/** A cache key for a validated query: its entries in name order, so `?a=1&b=2` and `?b=2&a=1` share one body. */
export function queryKey(query: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(query).sort().map((k) => [k, query[k]]));
}
