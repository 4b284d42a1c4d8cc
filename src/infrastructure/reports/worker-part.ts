import { Worker } from 'node:worker_threads';
import type { PartCheck, PartJob, PartRules, RenderedPart } from '../../domain/artifacts/partition';
import type { RemotePart } from '../../ports/partitioned-report';
import { translateFsError } from '../shared/fs-errors';

/** The main thread's handle on a part-worker: one request at a time, answered in order. */
export class WorkerPart implements RemotePart {
  private readonly worker: Worker;
  private pending?: { resolve: (value: unknown) => void; reject: (error: Error) => void };
  private failure?: Error;
  private markDecoded: () => void = () => undefined;
  /** Resolves once the worker has decoded its bytes into text (or died) and no longer reads the shared buffer. */
  readonly decoded = new Promise<void>((resolve) => (this.markDecoded = resolve));

  constructor(script: string, data: { shared: SharedArrayBuffer; from: number; to: number; id: string }) {
    this.worker = new Worker(script, { workerData: data });
    this.worker.on('message', (message: { decoded?: true; ok: boolean; value?: unknown; error?: { message: string; code?: string } }) => {
      if (message.decoded) return this.markDecoded();
      const pending = this.pending;
      this.pending = undefined;
      if (message.ok) pending?.resolve(message.value);
      // The worker's failures are file-system ones (it writes fragments next to the bundle): name them so.
      else
        pending?.reject(
          translateFsError(
            Object.assign(new Error(message.error?.message), { code: message.error?.code }),
            "the bundle's staging directory",
            'temporary file',
          ) as Error,
        );
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`part worker exited with code ${code}`)));
  }

  check(rules: PartRules): Promise<PartCheck> {
    return this.request({ type: 'check', rules }) as Promise<PartCheck>;
  }

  render(job: PartJob): Promise<RenderedPart> {
    return this.request({ type: 'render', job }) as Promise<RenderedPart>;
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }

  private request(message: unknown): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(message);
    });
  }

  private fail(error: Error): void {
    this.failure = error;
    this.markDecoded();
    this.pending?.reject(error);
    this.pending = undefined;
  }
}
