import { TtyProgress } from '../../src/infrastructure/progress/tty-progress';

const stream = (isTTY: boolean) => {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, write: (c: string) => chunks.push(c) } as unknown as NodeJS.WriteStream };
};

describe('TtyProgress', () => {
  it('draws a counter on a terminal and clears it when done', () => {
    const { chunks, stream: s } = stream(true);
    const progress = new TtyProgress(s);
    progress.start('Writing auditor bundle', 10);
    progress.advance(5);
    progress.stop();
    expect(chunks).toEqual(['\r\x1b[2KWriting auditor bundle 0/10', '\r\x1b[2KWriting auditor bundle 5/10', '\r\x1b[2K']);
  });

  it('writes nothing when stderr is a file or a pipe', () => {
    const { chunks, stream: s } = stream(false);
    const progress = new TtyProgress(s);
    progress.start('Writing auditor bundle', 10);
    progress.advance(10);
    progress.stop();
    expect(chunks).toEqual([]);
  });
});
