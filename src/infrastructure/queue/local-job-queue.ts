import type { JobQueue } from '../../ports/job-queue';

/** The absence of a shared queue: jobs run where they are dispatched. */
export const LOCAL_QUEUE: JobQueue = {
  shared: false,
  location: 'this process',
  enqueue: () => Promise.reject(new Error('no shared queue: jobs run where they are dispatched')),
  work: () => Promise.reject(new Error('no shared queue: jobs run where they are dispatched')),
  close: () => Promise.resolve(),
};
