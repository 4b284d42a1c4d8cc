import { runStoreContract } from '../contracts/run-store.contract';
import { InMemoryRunStore } from '../fakes/in-memory-run-store';

// The double the use-case tests use must behave as the real stores do.
runStoreContract('InMemoryRunStore', async () => {
  const store = new InMemoryRunStore();
  return {
    store,
    twin: () => new InMemoryRunStore(store.shared),
    tamper: async (id) => {
      const entry = store.shared.runs.find((r) => r.run.summary.id === id);
      if (entry) entry.text = `${entry.text} `;
    },
    cleanup: async () => undefined,
  };
});
