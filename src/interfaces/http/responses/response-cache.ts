import type { Request, Response } from 'express';
import type { Role } from '../auth/principal';

export interface Replay {
  body: Buffer;
  /** Roles that may receive it (the route's). */
  roles: readonly Role[];
  /** The route template, for the access log. */
  route: string;
}

/**
 * Serialized bodies of recent read responses, keyed by the run they speak for and the request URL (path and raw
 * query). A run is immutable, so the same URL under the same run is the same bytes: Express produces a body once,
 * later requests get the stored bytes (from Express, or from the front door before Express). Least recently used
 * bodies go first once `capacity` are kept.
 */
export class ReplayCache {
  private readonly bodies = new Map<string, Replay>();

  constructor(
    /** The id of the current run; rejects when there is none. */
    private readonly currentRunId: () => Promise<string>,
    private readonly capacity = 512,
  ) {}

  /** Sends `produce()` as JSON for a request answered from run `runId`, stored for replay to holders of `roles`. */
  sendJson(req: Request, res: Response, runId: string, route: { path: string; roles: readonly Role[] }, produce: () => unknown): void {
    const key = `${runId} ${req.originalUrl}`;
    let hit = this.bodies.get(key);
    if (hit) {
      this.bodies.delete(key);
    } else {
      hit = { body: Buffer.from(JSON.stringify(produce()), 'utf8'), roles: route.roles, route: route.path };
      if (this.bodies.size >= this.capacity) this.bodies.delete(this.bodies.keys().next().value as string);
    }
    this.bodies.set(key, hit);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.send(hit.body);
  }

  /** The stored response for `url` under the current run, if any. */
  async lookup(url: string): Promise<Replay | undefined> {
    if (this.bodies.size === 0) return undefined;
    let runId: string;
    try {
      runId = await this.currentRunId();
    } catch {
      return undefined;
    }
    return this.bodies.get(`${runId} ${url}`);
  }
}
