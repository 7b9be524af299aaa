/**
 * Reading a streamed HTTP body (fetch's `ReadableStream`) as text, piece by piece: wait until
 * what arrived so far meets a condition, or until the stream ends or breaks. Every wait is bounded.
 */
import { within } from './wait.js';

export interface TextStream {
  /** Everything read so far. */
  readonly text: string;
  /** Resolves with the text so far once `check(text)` holds; rejects when the stream ends first or at the bound. */
  until(check: (text: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Resolves once the stream has ended (`{ broken: false }`) or broke (`{ broken: true, error }`); bounded. */
  end(timeoutMs?: number): Promise<{ broken: boolean; error?: unknown }>;
  /** Stops reading and releases the stream. */
  cancel(): Promise<void>;
}

export function readText(body: ReadableStream<Uint8Array> | null): TextStream {
  if (!body) throw new Error('the response has no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended: { broken: boolean; error?: unknown } | undefined;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        wake();
      }
      ended = { broken: false };
    } catch (error) {
      ended = { broken: true, error };
    }
    wake();
  })();
  const waitFor = <T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> => {
    let waiter: (() => void) | undefined;
    const result = new Promise<T>((resolve, reject) => {
      waiter = () => {
        const value = probe();
        if (value !== undefined) resolve(value);
        else if (ended)
          reject(new Error(`the stream ended before ${what}; it had: ${JSON.stringify(text.slice(-500))}`));
      };
      waiters.add(waiter);
      waiter();
    });
    return within(result, { what, timeoutMs }).finally(() => waiters.delete(waiter!));
  };
  return {
    get text() {
      return text;
    },
    until: (check, what, timeoutMs = 10_000) => waitFor(() => (check(text) ? text : undefined), what, timeoutMs),
    end: (timeoutMs = 10_000) => waitFor(() => ended, 'the end of the stream', timeoutMs),
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
