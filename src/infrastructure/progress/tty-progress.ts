import type { Progress } from '../../ports/progress';

/** A one-line counter on a terminal's stderr; nothing at all when stderr is a file or a pipe. */
export class TtyProgress implements Progress {
  private label = '';
  private total = 0;
  private shown = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  start(label: string, total: number): void {
    this.label = label;
    this.total = total;
    this.draw(0);
  }

  advance(done: number): void {
    this.draw(done);
  }

  stop(): void {
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }

  private draw(done: number): void {
    if (!this.stream.isTTY) return;
    this.stream.write(`\r\x1b[2K${this.label} ${done}/${this.total}`);
    this.shown = true;
  }
}
