/**
 * A hostile client's raw ends on the kit, for tests that must send what no well-behaved client
 * would: one POST with any body and headers to a kit behind a real listener (`listenKit`), and a
 * kit server child serving its own stdio (`kit-stdio-server.mjs`, needs `npm run build`) written
 * to line by line.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually, within } from './wait.js';

/** One HTTP answer: status, headers, body text and, when the body is JSON, its value. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** POSTs `body` as it is (JSON content type, both Accept types unless `headers` say otherwise). */
export function postRaw(url: string, body: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const STDIO_KIT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kit-stdio-server.mjs');

/** A kit server child on its own stdin/stdout, spoken to in raw lines. */
export interface RawStdioKit {
  /** Every message read from stdout so far, in order (a batch answer stays one array). */
  readonly messages: unknown[];
  /** Writes one line: a string as it is, anything else as its JSON text. */
  write(line: unknown): void;
  /** Resolves with the first message (not an array) whose `id` is `id`; bounded. */
  answer(id: string | number | null): Promise<Record<string, any>>;
  /** Ends stdin and resolves with the exit code once the child has exited (its output all read). */
  end(): Promise<number | null>;
}

/** Starts the child. The test must call `end()` (an `afterEach` does). */
export function spawnRawStdioKit(): RawStdioKit {
  const child = spawn(process.execPath, [STDIO_KIT], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const messages: unknown[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line.trim() !== '') messages.push(JSON.parse(line));
    }
  });
  child.stderr.resume();
  return {
    messages,
    write: (line) => void child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`),
    answer: (id) =>
      eventually(
        () =>
          messages.find(
            (m): m is Record<string, any> =>
              typeof m === 'object' && m !== null && !Array.isArray(m) && (m as { id?: unknown }).id === id,
          ),
        { what: `the answer with id ${JSON.stringify(id)}` },
      ),
    end: () => {
      if (child.exitCode === null && child.signalCode === null) child.stdin.end();
      return within(exited, { what: 'the stdio kit to exit' });
    },
  };
}
