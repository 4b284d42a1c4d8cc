import type { QueuedJob } from '../../src/domain/orchestrator/queued-job';
import type { JobQueue, WorkOptions } from '../../src/ports/job-queue';

/** A settled row: completed, or failed with the message the handler threw. */
export interface SettledRow {
  row: unknown;
  state: 'completed' | 'failed';
  message?: string;
}

/** The shared queue in memory: rows are taken in order; what became of each is kept in `settled`. */
export class InMemoryJobQueue implements JobQueue {
  readonly shared = true;
  readonly location = 'memory (queue svc-dispatch)';
  /** Rows waiting, as stored: tests may put any JSON here, as anyone with access to the table could. */
  readonly rows: unknown[] = [];
  readonly settled: SettledRow[] = [];
  closed = false;

  async enqueue(request: QueuedJob): Promise<boolean> {
    if (this.rows.some((row) => (row as QueuedJob).job === request.job)) return false;
    this.rows.push({ ...request });
    return true;
  }

  async work(handle: (row: unknown) => Promise<void>, { maxJobs, signal }: WorkOptions): Promise<number> {
    let handled = 0;
    while (!signal.aborted && (maxJobs === undefined || handled < maxJobs) && this.rows.length > 0) {
      const row = this.rows.shift();
      try {
        await handle(row);
        this.settled.push({ row, state: 'completed' });
      } catch (error) {
        this.settled.push({ row, state: 'failed', message: (error as Error).message });
      }
      handled += 1;
    }
    return handled;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
