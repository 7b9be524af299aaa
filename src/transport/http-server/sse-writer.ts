/**
 * The one writer of Server-Sent Events frames (the WHATWG `text/event-stream` format) for the
 * server end of HTTP: every SSE frame the server kit and the replay send is made here.
 */

/** One SSE event. */
export interface SseFrame {
  /** The event id (`Last-Event-ID` resumes after it). */
  readonly id?: string | number;
  /** The event type; none for the priming event (an id and a `retry`, empty data). */
  readonly event?: string;
  /** The data: one line of JSON most often; each line of a multi-line text is a `data:` field. */
  readonly data: string;
  /** How long (ms) the client waits before it reconnects. */
  readonly retryMs?: number;
}

/** The text of one frame: `id`, `retry`, `event`, then `data` line(s), then the blank line. */
export function sseFrame(frame: SseFrame): string {
  const id = frame.id === undefined ? '' : `id: ${frame.id}\n`;
  const retry = frame.retryMs === undefined ? '' : `retry: ${frame.retryMs}\n`;
  const event = frame.event === undefined ? '' : `event: ${frame.event}\n`;
  const data = frame.data.includes('\n') ? frame.data.split(/\r?\n/).join('\ndata: ') : frame.data;
  return `${id}${retry}${event}data: ${data}\n\n`;
}

/** A `message` event carrying `json` (a JSON-RPC message's text), with an id when given. */
export function sseMessage(json: string, id?: string | number): string {
  return id === undefined ? `event: message\ndata: ${json}\n\n` : `id: ${id}\nevent: message\ndata: ${json}\n\n`;
}

/** An SSE comment with no text: SSE parsers drop it; it only keeps a quiet connection busy. */
export const SSE_KEEP_ALIVE = ': \n\n';
