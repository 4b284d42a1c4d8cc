import { ConfigError } from '../../domain/errors';
import type { DeliveryReport } from '../../ports/security-event-sink';

/** How hard a sink tries: `attempts` in all, waiting `baseDelayMs`, then twice as long each time, never over `maxDelayMs`. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** 4 attempts within about 2 s of waiting (250 + 500 + 1000 ms): a collector restart, not an outage, is what a retry can outlast. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 4000 };

export type Sleep = (ms: number) => Promise<void>;

/**
 * A failed attempt, worded for the DeliveryReport (sink name, reason, fix). `retryable: false` ends the delivery at
 * once (a rejected token does not get better by asking again); `retryAfterMs` is the destination's own wait
 * (HTTP Retry-After), used instead of the back-off delay.
 */
export class SendError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(message: string, options: { retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'SendError';
    this.retryable = options.retryable ?? true;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The defaults with the configured overrides, checked: a policy that never tries or waits a negative time is a config mistake. */
export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...overrides };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1)
    throw new ConfigError('bad-sink-retry', `sink retry attempts ${policy.attempts}: expected a whole number of at least 1`);
  for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0)
      throw new ConfigError('bad-sink-retry', `sink retry ${key} ${policy[key]}: expected milliseconds, 0 or more`);
  }
  return policy;
}

/**
 * Calls `send` until it resolves, `isRetryable` says no, or the policy's attempts are spent. Never throws: the
 * outcome is data, because recording a run must not depend on a sink (see SecurityEventSink).
 */
export async function deliverWithRetry(
  send: () => Promise<void>,
  policy: RetryPolicy,
  isRetryable: (error: unknown) => boolean = (error) => !(error instanceof SendError) || error.retryable,
  sleep: Sleep = wait,
): Promise<{ attempts: number; error?: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      await send();
      return { attempts: attempt };
    } catch (error) {
      if (attempt >= policy.attempts || !isRetryable(error)) return { attempts: attempt, error: messageOf(error) };
      const backOff = policy.baseDelayMs * 2 ** (attempt - 1);
      const asked = error instanceof SendError ? error.retryAfterMs : undefined;
      await sleep(Math.min(asked ?? backOff, policy.maxDelayMs));
    }
  }
}

/** One delivery of a sink as its report: no events is no work (attempts 0), else `send` with retries. */
export async function deliverBatch(sink: string, count: number, send: () => Promise<void>, policy: RetryPolicy): Promise<DeliveryReport> {
  if (count === 0) return { sink, delivered: 0, attempts: 0 };
  const { attempts, error } = await deliverWithRetry(send, policy);
  return error === undefined ? { sink, delivered: count, attempts } : { sink, delivered: 0, attempts, error };
}

/**
 * The message of anything thrown. Duck-typed: errors from Node's core may come from another realm (a vm context,
 * a test runner), where `instanceof Error` is false.
 */
export function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(error);
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
