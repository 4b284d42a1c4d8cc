import type { IncomingMessage } from 'node:http';
import type { Principal } from '../auth/principal';

/** What the layers of one request share: its id, the principal once authenticated, and the route template. */
export interface RequestContext {
  id: string;
  principal?: Principal;
  route?: string;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();

export function setContext(req: IncomingMessage, context: RequestContext): RequestContext {
  contexts.set(req, context);
  return context;
}

/** The request's context; the front door creates it for every request before anything else runs. */
export function contextOf(req: IncomingMessage): RequestContext {
  let context = contexts.get(req);
  if (!context) contexts.set(req, (context = { id: 'unknown' }));
  return context;
}
