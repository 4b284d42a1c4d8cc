/** Where an artifact's text goes, piece by piece (a file being written, or a string in tests). */
export interface TextSink {
  write(text: string): void;
}

/** A TextSink that keeps the text in memory. */
export class StringSink implements TextSink {
  private parts: string[] = [];

  write(text: string): void {
    this.parts.push(text);
  }

  text(): string {
    const joined = this.parts.join('');
    this.parts = [joined];
    return joined;
  }
}
