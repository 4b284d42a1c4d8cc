import type { Progress } from '../../src/ports/progress';

/** PROGRESS that remembers what it was told. */
export class RecordingProgress implements Progress {
  readonly events: string[] = [];

  start(label: string, total: number): void {
    this.events.push(`start ${label} ${total}`);
  }

  advance(done: number): void {
    this.events.push(`advance ${done}`);
  }

  stop(): void {
    this.events.push('stop');
  }
}
