import { runStoreContract } from '../contracts/run-store.contract';
import { InMemoryRunStore } from '../fakes/in-memory-run-store';

// The double the use-case tests use must behave as the real stores do.
runStoreContract('InMemoryRunStore', async () => {
  const store = new InMemoryRunStore();
  const { shared } = store;
  return {
    store,
    twin: () => new InMemoryRunStore(shared),
    tamper: async (target, { id, seq }) => {
      const entry = shared.runs[seq - 1];
      switch (target) {
        case 'record':
          entry.text = `${entry.text} `;
          return `memory: the hash chain does not match the record of run ${seq} (${id})`;
        case 'summary':
          entry.run.summary.counts.fail = 0;
          return `memory: the hash chain does not match the summary of run ${seq} (${id})`;
        case 'poam':
          entry.run.poam[0].risk_rating = 'Low';
          return `memory: the hash chain does not match the POA&M state of run ${seq} (${id})`;
        case 'events':
          entry.run.events.pop();
          return `memory: the hash chain does not match the events of run ${seq} (${id})`;
        case 'link':
          entry.link = { ...entry.link, records: { ...entry.link.records, poam: '0'.repeat(64) } };
          return `memory: the chain link of run ${seq + 1} (${shared.runs[seq].run.summary.id}) does not follow run ${seq}`;
        case 'head':
          shared.head = 'f'.repeat(64);
          return `memory: the chain head does not match run ${seq}, the latest run`;
        case 'latest-removed':
          shared.runs.pop();
          return `memory: the chain head does not match run ${seq - 1}, the latest run`;
        case 'document': {
          const bytes = Buffer.from(entry.bytes.get('sar.json')!);
          bytes[2] ^= 1;
          entry.bytes.set('sar.json', bytes);
          return `memory: the document sar.json no longer matches the SHA-256 its run's link in the hash chain names`;
        }
        case 'document-list':
          entry.run.documents![1].sha256 = '0'.repeat(64);
          return `memory: the hash chain does not match the document list of run ${seq} (${id})`;
        case 'kept-list':
          entry.kept![0].sha256 = '0'.repeat(64);
          return `memory: the hash chain does not match the kept document list of run ${seq} (${id})`;
      }
    },
    tamperJournal: async (target, seq) => {
      const { journal } = shared;
      switch (target) {
        case 'record':
          journal[seq - 1].record.by = 'mallory@agency.example';
          return `memory: journal entry ${seq} does not match its hash`;
        case 'removed':
          journal.splice(seq - 1, 1);
          return `memory: journal entry ${seq} is missing or out of place (entry ${seq + 1} is in its place)`;
        case 'swapped':
          [journal[seq - 1], journal[seq]] = [journal[seq], journal[seq - 1]];
          return `memory: journal entry ${seq} is missing or out of place (entry ${seq + 1} is in its place)`;
        case 'inserted':
          journal.splice(seq, 0, { ...journal[seq - 1] });
          return `memory: journal entry ${seq + 1} is missing or out of place (entry ${seq} is in its place)`;
        case 'latest-removed':
          journal.pop();
          return `memory: journal entry ${seq} is missing (the journal head names entry ${seq} as the latest)`;
        case 'head':
          shared.journalHead = { ...shared.journalHead, hash: 'f'.repeat(64) };
          return `memory: journal entry ${seq} is not the latest entry the journal head names`;
      }
    },
    cleanup: async () => undefined,
  };
});
