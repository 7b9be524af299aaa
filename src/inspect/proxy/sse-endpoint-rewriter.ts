/**
 * The one change the HTTP proxy makes to a body: in an SSE stream, the data of an `endpoint`
 * event (the 2024-11-05 HTTP+SSE transport's "POST your messages here") may be replaced, so that
 * the client's POSTs come back through the proxy. Every other byte passes unchanged, in order.
 *
 * Works on bytes, not text, so nothing is re-encoded. Lines end in CRLF, LF or CR (a CR at the
 * end of a chunk may be the first half of a CRLF), as the SSE rules say. An event is held from
 * its first field line until the blank line that ends it — a client cannot dispatch an event
 * before that line anyway, so holding costs no latency — and then passed on, rewritten when it
 * is an `endpoint` event. Comment lines (keep-alives) between events pass at once. An event that
 * grows past the hold cap is passed on as it is and streamed from then on (endpoint events are
 * tiny; large ones are messages).
 */

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;

/** Default largest event held back: 1 MiB. */
export const DEFAULT_MAX_HELD_BYTES = 1024 * 1024;

interface Line {
  content: Buffer;
  terminator: Buffer;
}

/**
 * Rewrites `endpoint` events of one SSE stream. `rewrite` gets the event's data (its data lines
 * joined with `\n`) and returns the replacement, or `undefined` to leave the event as it is.
 * One instance per stream; `push` and `end` return the bytes to send on (possibly empty).
 */
export class SseEndpointRewriter {
  private readonly rewrite: (data: string) => string | undefined;
  private readonly maxHeld: number;
  private mode: 'idle' | 'holding' | 'passing' = 'idle';
  /** Complete lines of the held event. */
  private held: Line[] = [];
  private heldBytes = 0;
  /** Content seen of the current, unterminated line: kept while holding, counted always. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** What the current line is, once its first byte was seen. */
  private lineKind: 'none' | 'comment' | 'field' = 'none';
  /** The previous chunk ended in CR: a leading LF of the next one is part of that line end. */
  private afterCr = false;

  constructor(rewrite: (data: string) => string | undefined, maxHeldBytes = DEFAULT_MAX_HELD_BYTES) {
    this.rewrite = rewrite;
    this.maxHeld = maxHeldBytes;
  }

  /** Takes one chunk of the upstream body; returns what can be sent on now. */
  push(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let at = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk[0] === LF) {
        this.lineEndTail(out, chunk.subarray(0, 1));
        at = 1;
      }
    }
    while (at < chunk.length) {
      const end = nextLineEnd(chunk, at);
      if (end === -1) {
        this.more(out, chunk.subarray(at));
        break;
      }
      let next = end + 1;
      if (chunk[end] === CR) {
        if (next === chunk.length) this.afterCr = true;
        else if (chunk[next] === LF) next++;
      }
      this.complete(out, chunk.subarray(at, end), chunk.subarray(end, next));
      at = next;
    }
    return join(out);
  }

  /** The upstream body ended: whatever is held is sent on unchanged. Idempotent. */
  end(): Buffer {
    const out: Buffer[] = [];
    for (const line of this.held) out.push(line.content, line.terminator);
    out.push(...this.partial);
    this.held = [];
    this.heldBytes = 0;
    this.partial = [];
    this.partialBytes = 0;
    this.lineKind = 'none';
    this.mode = 'idle';
    return join(out);
  }

  /** Bytes of a line that has not ended yet. */
  private more(out: Buffer[], bytes: Buffer): void {
    if (this.lineKind === 'none') this.startLine(bytes[0]!);
    if (this.mode === 'holding') {
      this.partial.push(bytes);
      this.partialBytes += bytes.length;
      if (this.heldBytes + this.partialBytes > this.maxHeld) this.giveUp(out);
      return;
    }
    this.partialBytes += bytes.length;
    out.push(bytes);
  }

  /** A line ended: `content` is its last piece (the rest came through {@link more}). */
  private complete(out: Buffer[], content: Buffer, terminator: Buffer): void {
    const blank = this.partialBytes === 0 && content.length === 0;
    if (!blank && this.lineKind === 'none') this.startLine(content[0]!);
    if (this.mode === 'holding') {
      const whole = this.partial.length === 0 ? content : Buffer.concat([...this.partial, content]);
      this.held.push({ content: whole, terminator });
      this.heldBytes += whole.length + terminator.length;
      this.resetLine();
      if (blank) this.release(out);
      else if (this.heldBytes > this.maxHeld) this.giveUp(out);
      return;
    }
    out.push(content, terminator);
    this.resetLine();
    if (blank && this.mode === 'passing') this.mode = 'idle';
  }

  /** The LF of a CRLF split across chunks goes where its CR went. */
  private lineEndTail(out: Buffer[], lf: Buffer): void {
    const last = this.held[this.held.length - 1];
    if (this.mode === 'holding' && last) {
      last.terminator = Buffer.concat([last.terminator, lf]);
      this.heldBytes += 1;
    } else out.push(lf);
  }

  /** The first byte of a line decides its kind; a field line between events starts holding. */
  private startLine(first: number): void {
    this.lineKind = first === COLON ? 'comment' : 'field';
    if (this.lineKind === 'field' && this.mode === 'idle') this.mode = 'holding';
  }

  private resetLine(): void {
    this.partial = [];
    this.partialBytes = 0;
    this.lineKind = 'none';
  }

  /** The held event is complete: send it on, rewritten if it is an endpoint event. */
  private release(out: Buffer[]): void {
    const lines = this.held;
    this.held = [];
    this.heldBytes = 0;
    this.mode = 'idle';
    let type = '';
    const data: string[] = [];
    for (const { content } of lines) {
      const field = parseField(content);
      if (field?.name === 'event') type = field.value;
      else if (field?.name === 'data') data.push(field.value);
    }
    const replacement = type === 'endpoint' && data.length > 0 ? this.rewrite(data.join('\n')) : undefined;
    let replaced = false;
    for (const line of lines) {
      if (replacement !== undefined && parseField(line.content)?.name === 'data') {
        // The first data line carries the new value; further data lines belonged to the old one.
        if (!replaced) out.push(Buffer.from(`data: ${replacement}`, 'utf8'), line.terminator);
        replaced = true;
        continue;
      }
      out.push(line.content, line.terminator);
    }
  }

  /** Past the hold cap: send on what is held and stream the rest of this event. */
  private giveUp(out: Buffer[]): void {
    for (const line of this.held) out.push(line.content, line.terminator);
    out.push(...this.partial);
    this.held = [];
    this.heldBytes = 0;
    this.partial = [];
    this.mode = 'passing';
  }
}

function nextLineEnd(chunk: Buffer, from: number): number {
  const lf = chunk.indexOf(LF, from);
  const cr = chunk.indexOf(CR, from);
  if (cr === -1) return lf;
  if (lf === -1) return cr;
  return Math.min(cr, lf);
}

function parseField(content: Buffer): { name: string; value: string } | undefined {
  if (content.length === 0 || content[0] === COLON) return undefined;
  let text = content.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM opening the stream
  const colon = text.indexOf(':');
  if (colon === -1) return { name: text, value: '' };
  const value = text.slice(colon + 1);
  return { name: text.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value };
}

function join(parts: Buffer[]): Buffer {
  if (parts.length === 1) return parts[0]!;
  return Buffer.concat(parts);
}
