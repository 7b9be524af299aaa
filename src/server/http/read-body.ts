/**
 * Reading a request body under a size cap and a time limit, without buffering past the cap.
 */
import type { IncomingMessage } from 'node:http';
import type { Deadline, DeadlineSet } from '../../protocol/deadline-set.js';
import type { Refusal } from './request-guards.js';

/**
 * The body as text, or the refusal: 413 past `maxBytes`, 408 past `timeoutMs`, 400 when the client
 * broke off. The time limit rides on `deadlines` (one timer for every body being read).
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
  deadlines: DeadlineSet,
): Promise<{ text: string } | Refusal> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes)
    return Promise.resolve({ status: 413, message: `Payload Too Large: the body is over ${maxBytes} bytes` });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: { text: string } | Refusal): void => {
      if (settled) return;
      settled = true;
      deadlines.delete(deadline);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      if ('status' in outcome) req.resume(); // drain the rest so the socket can answer
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes)
        return finish({ status: 413, message: `Payload Too Large: the body is over ${maxBytes} bytes` });
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ text: Buffer.concat(chunks).toString('utf8') });
    const onError = (): void => finish({ status: 400, message: 'Bad Request: the body could not be read' });
    const deadline: Deadline = {
      due: Infinity,
      expire: () => finish({ status: 408, message: `Request Timeout: the body did not arrive within ${timeoutMs} ms` }),
    };
    deadlines.add(deadline, timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}
