/**
 * A run store's `append` and `appendAll` (ports/run-store.ts) over its one loop, `appendEach`, which records requests
 * in one transaction and tells `each` of every request's outcome as it is decided: one request and its outcome, or
 * every request and what became of each (the decided runs not kept).
 */
export type AppendEach<Request, Outcome> = (requests: AsyncIterable<Request> | Iterable<Request>, each: (outcome: Outcome) => void) => Promise<void>;

export async function appendOne<Request, Outcome>(appendEach: AppendEach<Request, Outcome>, request: Request): Promise<Outcome> {
  const outcomes: Outcome[] = [];
  await appendEach([request], (outcome) => outcomes.push(outcome));
  return outcomes[0];
}

export async function appendEvery<Request, Summary>(
  appendEach: AppendEach<Request, { recorded: boolean; run: { summary: Summary } }>,
  requests: AsyncIterable<Request> | Iterable<Request>,
): Promise<{ recorded: boolean; summary: Summary }[]> {
  const appended: { recorded: boolean; summary: Summary }[] = [];
  await appendEach(requests, ({ recorded, run }) => appended.push({ recorded, summary: run.summary }));
  return appended;
}
