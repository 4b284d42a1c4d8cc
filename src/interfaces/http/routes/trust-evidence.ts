import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import { FindEvidence } from '../../../application/trust/find-evidence';
import type { ApiConfig } from '../config/api-config';
import { sendRepresentation } from '../responses/representation';
import type { RouteSpec } from './route';
import { EVIDENCE_ENTRY } from './schemas';
import { READERS, validatorHeaders } from './trust';
import { busyProblem } from './trust-snapshots';

/** What a 503 `busy` (more lookups waiting for the index builds of runs recorded without one than are queued) tells the client to wait. */
const BUSY_RETRY_SECONDS = 10;

/**
 * GET /fedramp/evidence/{sha256} (DESIGN §9 `trust`, §12.7): the evidence entry an SDR's evidenceLocation names, so the
 * links resolve when evidence_base_uri is the trust center's `/fedramp`. The body is the entry as stored and nothing
 * around it: the entry carries its own content_hash, which a reader recomputes to check the link. Only lower-case hex
 * is accepted, the one spelling the SDR writes, so a URL names one entry in one way (for caches as for the access log).
 * `private, no-cache`, not `immutable`: the content hash leaves out observed_at, so the same URL gives the latest run's
 * entry, whose observed_at moves with each run, and a link that no OCR froze stops resolving once a newer run is recorded.
 */
export function trustEvidenceRoutes(container: DependencyContainer, _config: ApiConfig, logger: Logger): RouteSpec[] {
  const find = container.resolve(FindEvidence);
  // A run recorded before svc stored its index has it built once: worth a line in the server log, never per request.
  find.onIndexBuilt = (run, entries) => logger.info({ run: { seq: run.seq, id: run.id }, entries }, 'evidence index built');
  return [
    {
      module: 'trust',
      method: 'get',
      path: '/fedramp/evidence/{sha256}',
      operationId: 'getFedrampEvidence',
      listed: { title: "The Security Decision Record's Evidence" },
      summary: "One evidence entry by its content hash (the SDR's evidence links)",
      description:
        "The evidence entry whose content hash is `sha256`, exactly as the run recorded it: what each `evidenceLocation` of the SDR (`<evidence_base_uri>/evidence/<content hash>`) names when evidence_base_uri is this trust center's `/fedramp`. Searched in the store's state, the latest run of every source (newest first), then in the runs frozen by recorded OCRs (`svc fedramp ocr`), newest first; the first that holds the hash answers. An entry only an older run holds is 404 `no-such-evidence`; before the first run, 404 `no-run-recorded`. The same content hash in a newer run gives that run's entry (its observed_at may differ), so revalidate with the ETag. Each run carries an index by content hash, stored when it was recorded: a lookup reads one small bucket of it per run searched and the one evidence page its entry is on, and builds nothing.",
      access: READERS,
      params: {
        type: 'object',
        required: ['sha256'],
        properties: {
          sha256: {
            type: 'string',
            pattern: '^[0-9a-f]{64}$',
            description: "The content hash: 64 lower-case hex digits, as the SDR's evidenceLocation ends (upper case is refused).",
          },
        },
      },
      responses: {
        200: {
          description: 'The evidence entry (RFC 8785 canonical JSON).',
          schema: EVIDENCE_ENTRY,
          headers: validatorHeaders('Not the content hash, which leaves out content_hash and observed_at.'),
        },
        304: { description: 'If-None-Match matched the ETag.', contentType: 'application/json' },
        503: {
          description:
            '`busy`: more lookups wait for the one-time index builds of runs recorded before svc stored indexes than are queued; retry after Retry-After seconds. (The run store unreachable is 503 too.)',
          contentType: 'application/problem+json',
          schema: { $ref: '#/components/schemas/Problem' },
          headers: { 'Retry-After': { description: 'Seconds to wait before asking again (busy).', schema: { type: 'string' } } },
        },
      },
      async handle({ params }, res) {
        const found = await find.execute({ sha256: params.sha256 }).catch((error: unknown) => {
          throw busyProblem(error, BUSY_RETRY_SECONDS);
        });
        sendRepresentation(res.req, res, { body: found.body, sha256: found.sha256, contentType: 'application/json', cacheControl: 'private, no-cache' });
      },
    },
  ];
}
