import 'reflect-metadata';
import { container as root } from 'tsyringe';
import { SdrBuilder } from '../../src/application/fedramp/sdr-builder';
import { KSI_COUNTS_DOCUMENT } from '../../src/domain/conmon/ksi-counts';
import { KSI_HISTORY_DOCUMENT } from '../../src/domain/conmon/ksi-history';
import { registerAdapters } from '../../src/infrastructure/register-adapters';
import { RUN_STORE, type RunStore, type RunView } from '../../src/ports/run-store';

/**
 * The SDR of the latest run of the store svc finds from `env` and `cwd`, built by SdrBuilder as `fedramp sdr` builds
 * it, with the documents it opened counted by name. The documents `hide` names are not there, as for runs recorded
 * before svc stored them: HIDE_HISTORY, and each run's KSI counts are read instead; HIDE_COUNTS, and each run's
 * evidence is read, the old way. `times` SDRs are built with the one SdrBuilder, as svc-api's trust center does.
 */
export async function sdrFromStore(options: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  now: string;
  hide?: readonly string[];
  times?: number;
}): Promise<{ document: unknown; opened: Map<string, number> }> {
  const hidden = (name: string) => options.hide?.includes(name) === true;
  const container = registerAdapters(root.createChildContainer(), { env: options.env, cwd: options.cwd });
  const store = container.resolve<RunStore>(RUN_STORE);
  const opened = new Map<string, number>();
  const counting = <V extends RunView>(inner: V): V =>
    Object.assign(Object.create(inner) as V, {
      openDocument: (key: string | number, name: string) => {
        opened.set(name, (opened.get(name) ?? 0) + 1);
        return hidden(name) ? Promise.resolve(undefined) : inner.openDocument(key, name);
      },
      openDocuments: (keys: readonly (string | number)[], name: string) => {
        opened.set(name, (opened.get(name) ?? 0) + keys.length);
        return hidden(name) ? Promise.resolve(keys.map(() => undefined)) : inner.openDocuments(keys, name);
      },
    });
  const view: RunStore = Object.assign(counting(store), { reader: async () => counting(await store.reader()) });
  container.register(RUN_STORE, { useValue: view });
  const builder = container.resolve(SdrBuilder);
  let built: Awaited<ReturnType<SdrBuilder['buildLatest']>>;
  for (let n = 0; n < (options.times ?? 1); n++)
    built = await builder.buildLatest({ now: new Date(options.now) }, { command: 'fedramp sdr', jsonName: 'sdr.json' });
  await store.close();
  return { document: built?.model.document, opened };
}

/** What sdrFromStore hides to read the runs' KSI counts (a store recorded before svc kept a KSI history). */
export const HIDE_HISTORY = [KSI_HISTORY_DOCUMENT];
/** What it hides to read the runs' evidence (a store recorded before svc stored KSI counts). */
export const HIDE_COUNTS = [KSI_HISTORY_DOCUMENT, KSI_COUNTS_DOCUMENT];
