import type { Response } from 'express';
import type { Principal, Role } from '../auth/principal';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

export interface ResponseSpec {
  description: string;
  /** Body schema; absent for a body the route streams as-is (then `contentType` says what it is). */
  schema?: JsonSchema;
  contentType?: string;
  /** Several representations of one response (JSON and its HTML page): media type → schema, instead of schema and contentType. */
  content?: Record<string, JsonSchema>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

/** What a handler gets: the request's parts after validation against the route's schemas. */
export interface RouteInput<Q = Record<string, unknown>, P = Record<string, string>, B = unknown> {
  query: Q;
  params: P;
  body: B;
  principal: Principal | undefined;
  requestId: string;
}

/**
 * One route handler of DESIGN §9, declared once: its schemas validate requests and generate the OpenAPI document,
 * its roles decide access, and its handler calls one use case and renders the result.
 */
export interface RouteSpec {
  module: 'auditor' | 'boundary' | 'health' | 'orgpath' | 'survey' | 'trust';
  method: 'get' | 'post';
  /** OpenAPI form: `/auditor/graph/{control_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** 'open' needs no authentication; else the principal must hold one of these roles. */
  access: 'open' | readonly Role[];
  /**
   * An open route that still reads credentials a request brings (a bad one is a 401 as elsewhere), so the handler
   * can answer an authenticated principal more; a request without any is answered as anyone.
   */
  identifies?: boolean;
  /**
   * Public JSON a web application on another origin may read (FRC-CSO-JSN): the answers carry
   * `Access-Control-Allow-Origin: *` and never allow credentials, and `OPTIONS` answers the preflight with 204. Only an
   * open route may be; a protected route sends no permissive CORS header.
   */
  crossOrigin?: boolean;
  /** A trust-center route /fedramp/public lists (trustCenterListing): its title there and the rules the title cites. */
  listed?: { title: string; rules?: readonly string[] };
  /** Object schemas of the path parameters and the query (query values are coerced from strings). */
  params?: JsonSchema;
  query?: JsonSchema;
  /** Schema of the JSON request body (POST routes). */
  body?: JsonSchema;
  /** Success responses; the problem responses (400, 401, 403, 404, 413, 415, 429, 500, 503) are added for every route. */
  responses: Record<number, ResponseSpec>;
  // Each route's handle types its own input (its schemas decide it); the list of routes holds them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handle(input: RouteInput<any, any, any>, res: Response): Promise<void> | void;
}
