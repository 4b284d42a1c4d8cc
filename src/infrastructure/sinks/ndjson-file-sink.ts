import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ConmonEvent } from '../../domain/conmon/conmon-event';
import { AppError } from '../../domain/errors';
import type { DeliveryReport, SecurityEventSink } from '../../ports/security-event-sink';
import { translateFsError } from '../shared/fs-errors';
import { deliverBatch, messageOf, type RetryPolicy, SendError } from './retry';

/** Errors a moment later may not repeat; a missing permission or a directory in the way will. */
const TRANSIENT = new Set(['EAGAIN', 'EBUSY', 'EMFILE', 'ENFILE']);

/**
 * Appends one JSON line per event to a file a log shipper (Filebeat, Fluent Bit, the Splunk forwarder) tails.
 * A delivery is one append of all its lines, fsynced before it counts as delivered: O_APPEND puts them after
 * whatever another writer added meanwhile, and a crash right after a run does not lose events reported delivered.
 */
export class NdjsonFileSink implements SecurityEventSink {
  readonly name: string;

  constructor(
    private readonly path: string,
    private readonly retry: RetryPolicy,
  ) {
    this.name = `ndjson:${path}`;
  }

  deliver(events: readonly ConmonEvent[]): Promise<DeliveryReport> {
    const text = events.map((event) => `${JSON.stringify(event)}\n`).join('');
    return deliverBatch(this.name, events.length, () => this.append(text), this.retry);
  }

  private async append(text: string): Promise<void> {
    try {
      await mkdir(dirname(this.path), { recursive: true });
      const handle = await open(this.path, 'a');
      try {
        await handle.appendFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      const translated = translateFsError(error, this.name, 'event file');
      const message = translated instanceof AppError ? translated.message : `${this.name}: ${messageOf(error)}`;
      const code = typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
      throw new SendError(message, { retryable: typeof code === 'string' && TRANSIENT.has(code), cause: error });
    }
  }
}
