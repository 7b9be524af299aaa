// NDJSON over stdio for the scripted legacy server: reads lines from stdin, records them, answers
// (optionally batching answers), and sends server→client requests whose answers it matches by id.
import { appendFileSync } from 'node:fs';

/** How long answers wait for company when `batchResponses` is on. */
const BATCH_WINDOW_MS = 25;

/**
 * Starts reading stdin. `onMessage(message)` gets every request and notification (batch
 * elements one by one); answers to our own requests settle the promise `request()` returned.
 * Exits with code 0 on stdin EOF.
 */
export function createWire({ record, batchResponses, onMessage }) {
  const write = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
  const pending = new Map(); // our request id → resolve
  let nextId = 0; // like the official SDKs: integers from 0, a space apart from the client's ids
  /** Client request id → the open incoming batch that must answer it. */
  const batchOf = new Map();
  let outbox = [];
  let outboxTimer;

  const flushOutbox = () => {
    outboxTimer = undefined;
    const answers = outbox;
    outbox = [];
    write(answers.length === 1 ? answers[0] : answers);
  };

  /** Writes one answer: into its incoming batch, into the batching window, or straight out. */
  const answer = (message) => {
    const batch = batchOf.get(message.id);
    if (batch) {
      batchOf.delete(message.id);
      batch.answers.push(message);
      if (--batch.open === 0) write(batch.answers);
      return;
    }
    if (!batchResponses) return write(message);
    outbox.push(message);
    outboxTimer ??= setTimeout(flushOutbox, BATCH_WINDOW_MS);
  };

  const dispatch = (message) => {
    if (message === null || typeof message !== 'object')
      return answer({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    if (typeof message.method === 'string') return onMessage(message);
    // An answer to one of our requests.
    const resolve = pending.get(message.id);
    if (!resolve) return;
    pending.delete(message.id);
    resolve('error' in message ? { error: message.error } : { result: message.result });
  };

  const receive = (line) => {
    if (line.trim() === '') return;
    if (record) appendFileSync(record, `${line}\n`);
    let value;
    try {
      value = JSON.parse(line);
    } catch {
      return answer({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if (!Array.isArray(value)) return dispatch(value);
    // A JSON-RPC batch: its requests are answered together, in one array.
    const requests = value.filter((m) => m && typeof m.method === 'string' && m.id !== undefined);
    if (requests.length > 0) {
      const batch = { open: requests.length, answers: [] };
      for (const m of requests) batchOf.set(m.id, batch);
    }
    for (const element of value) dispatch(element);
  };

  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline).replace(/\r$/, '');
      buffered = buffered.slice(newline + 1);
      receive(line);
    }
  });
  process.stdin.on('end', () => process.exit(0));

  return {
    /** Sends a notification. */
    notify: (method, params) =>
      write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }),
    reply: (id, result) => answer({ jsonrpc: '2.0', id, result }),
    fail: (id, code, message, data) =>
      answer({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }),
    /** Sends a server→client request; resolves with `{ result }` or `{ error }`, never rejects. */
    request(method, params) {
      const id = nextId++;
      write(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
      return new Promise((resolve) => pending.set(id, resolve));
    },
  };
}
