import { STATUSES } from '../../../domain/ksi/status';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../domain/paging/page';
import type { JsonSchema } from './route';

/** Schema fragments shared by the route modules. */
export const RUN_REF: JsonSchema = {
  type: 'object',
  description: 'The recorded run the response speaks for.',
  required: ['id', 'seq', 'as_of', 'merkle_root'],
  properties: {
    id: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Hex SHA-256 of the canonical run record.' },
    seq: { type: 'integer', minimum: 1 },
    as_of: { type: 'string', format: 'date-time' },
    merkle_root: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
  },
};

export const PAGING_PARAMETERS: Record<string, JsonSchema> = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Items per page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}).`,
  },
  cursor: { type: 'string', maxLength: 64, description: 'The next_cursor of the previous page.' },
};

export function query(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', additionalProperties: false, properties };
}

/** A page of `item` with the run it belongs to. */
export function pageOf(item: JsonSchema, description: string): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['run', 'items', 'total', 'next_cursor'],
    properties: {
      run: RUN_REF,
      items: { type: 'array', items: item },
      total: { type: 'integer', minimum: 0, description: 'Items matching the filters, on every page together.' },
      next_cursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last.' },
    },
  };
}

export const KSI_ID: JsonSchema = { type: 'string', pattern: '^KSI-[A-Z]{2,4}-\\d{2}$' };
export const DIGEST: JsonSchema = { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' };

/**
 * An evidence entry exactly as a run recorded it (svc.evidence-bundle/v1, RFC 8785 canonical): the KSI result as
 * reported plus mapped, controls, policies and content_hash, the SHA-256 of the entry's canonical JSON without
 * content_hash and observed_at (GET /auditor/evidence lists them, GET /fedramp/evidence/{sha256} serves one).
 */
export const EVIDENCE_ENTRY: JsonSchema = {
  type: 'object',
  description:
    'An evidence entry exactly as the run recorded it (svc.evidence-bundle/v1): the KSI result plus mapped, controls, policies and content_hash (the SHA-256 of the canonical entry without content_hash and observed_at).',
  required: ['ksi_id', 'status', 'content_hash'],
  properties: {
    ksi_id: { type: 'string' },
    status: { enum: [...STATUSES] },
    content_hash: DIGEST,
    observed_at: { type: 'string' },
    controls: { type: 'array', items: { type: 'string' } },
    mapped: { type: 'boolean' },
  },
};

/** Lists in a query: repeat the parameter or separate values with commas. */
export function listOf(items: JsonSchema, description: string): JsonSchema {
  return { type: 'array', items, maxItems: 200, description: `${description} Repeat the parameter or separate values with commas.` };
}
