import { writeRecordedTwin } from '../../../src/application/fedramp/fedramp-documents';
import { PermissionError, UnavailableError } from '../../../src/domain/errors';
import type { ArtifactTransaction, ArtifactWriter } from '../../../src/ports/artifact-writer';
import { InMemoryArtifactWriter } from '../../fakes/in-memory-artifact-writer';

/** The in-memory writer, its commit failing with `failure` when set. */
class FailingCommitWriter implements ArtifactWriter {
  readonly inner = new InMemoryArtifactWriter();
  failure?: unknown;
  aborted = 0;
  async begin(dir: string): Promise<ArtifactTransaction> {
    const tx = await this.inner.begin(dir);
    return {
      ...tx,
      commit: async () => {
        if (this.failure !== undefined) throw this.failure;
        return tx.commit();
      },
      abort: async () => {
        this.aborted += 1;
        return tx.abort();
      },
    };
  }
  open(path: string) {
    return this.inner.open(path);
  }
}

const recording = (log: string[], fail?: Error) => ({
  record: async () => {
    if (fail) throw fail;
    log.push('recorded');
    return 7;
  },
  names: (seq: number) => `journal entry ${seq} of /store`,
  again: 'run it with --draft',
});

describe('writeRecordedTwin', () => {
  it('records between writing the temporaries and putting them in place: a failed record leaves no file', async () => {
    const writer = new FailingCommitWriter();
    const locked = new UnavailableError('run-store-locked', '/store/store.lock: the run store is locked');
    await expect(writeRecordedTwin(writer, 'out/scn.json', { a: 1 }, '# SCN\n', recording([], locked))).rejects.toBe(locked);
    expect([...writer.inner.files.keys()]).toEqual([]);
    expect(writer.aborted).toBe(1);
  });

  it('writes both files and returns the record', async () => {
    const writer = new FailingCommitWriter();
    const log: string[] = [];
    const r = await writeRecordedTwin(writer, 'out/scn.json', { a: 1 }, '# SCN\n', recording(log));
    expect([r.recorded, log, [...writer.inner.files.keys()].sort(), r.written.markdown.path]).toEqual([
      7,
      ['recorded'],
      ['out/scn.json', 'out/scn.md'],
      'out/scn.md',
    ]);
  });

  it("names the record when the files cannot follow it, keeping the cause's kind, or exit 5 for a cause svc did not expect", async () => {
    const writer = new FailingCommitWriter();
    writer.failure = new PermissionError('permission-denied', 'out: permission denied');
    const refused = writeRecordedTwin(writer, 'out/scn.json', { a: 1 }, '# SCN\n', recording([]));
    await expect(refused).rejects.toBeInstanceOf(PermissionError);
    await expect(refused).rejects.toMatchObject({
      code: 'recorded-not-written',
      message:
        'out/scn.json: recorded as journal entry 7 of /store, but its files could not be put in place (out: permission denied); neither it nor its twin was written. Fix that, then run it with --draft',
    });
    writer.failure = new Error('EIO');
    await expect(writeRecordedTwin(writer, 'out/scn.json', {}, '', recording([]))).rejects.toEqual(
      expect.objectContaining({ name: 'UnavailableError', code: 'recorded-not-written' }),
    );
    expect([...writer.inner.files.keys()]).toEqual([]);
  });

  it('without a recording (a draft) a commit failure is the failure itself', async () => {
    const writer = new FailingCommitWriter();
    writer.failure = new PermissionError('permission-denied', 'out: permission denied');
    await expect(writeRecordedTwin(writer, 'out/scn.json', {}, '')).rejects.toBe(writer.failure);
  });
});
