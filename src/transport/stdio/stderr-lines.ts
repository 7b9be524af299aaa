/**
 * Splits a server's stderr into lines, hands each to a callback, and keeps the last few in a
 * bounded ring for error messages. Nothing here is ever treated as protocol. Bounded whatever the
 * server writes: a line is cut at MAX_LINE_CHARS (marked with an ellipsis) and the rest of it,
 * up to its newline, is discarded rather than held or handed on as more lines; the ring holds at
 * most `capacity` lines.
 */
import { StringDecoder } from 'node:string_decoder';

/** Longest stderr line kept whole; longer ones are cut (a server can print anything). */
const MAX_LINE_CHARS = 4_096;

export class StderrLines {
  private readonly ring: string[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  /** The current line was cut: its rest is discarded up to the next newline. */
  private skipping = false;

  constructor(
    private readonly capacity: number,
    private readonly onLine?: (line: string) => void,
  ) {}

  /** Feeds a chunk of stderr. */
  push(chunk: Buffer | string): void {
    const text = this.partial + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) break;
      if (this.skipping) this.skipping = false;
      else this.emit(text.slice(start, newline));
      start = newline + 1;
    }
    this.partial = this.skipping ? '' : text.slice(start);
    if (this.partial.length > MAX_LINE_CHARS) {
      // Emitted now, cut, so an endless line is neither held nor split into many lines.
      this.emit(this.partial);
      this.partial = '';
      this.skipping = true;
    }
  }

  /** Emits a final unterminated line (at exit). */
  flush(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest.length > 0 && !this.skipping) this.emit(rest);
    this.skipping = false;
  }

  /** The last lines, oldest first. */
  tail(): string[] {
    return [...this.ring];
  }

  private emit(raw: string): void {
    const trimmed = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const line = trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS)}…` : trimmed;
    if (this.capacity > 0) {
      this.ring.push(line);
      if (this.ring.length > this.capacity) this.ring.shift();
    }
    if (this.onLine) {
      try {
        this.onLine(line);
      } catch {
        // A throwing log handler must not break the transport.
      }
    }
  }
}
