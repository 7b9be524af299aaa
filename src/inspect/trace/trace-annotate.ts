/**
 * What a reader knows of a trace that its recorder may not have written down: the request an
 * error with id `null` answers, and which frames are the era negotiation. Traces written before
 * recorders marked these (and traces of other recorders) read the same as new ones, so every
 * record-based view (`trace show` and its `--errors`, the exports) agrees with the paired calls.
 */
import type { TraceRecord } from '../../observe/trace-record.js';
import { pairCalls } from './trace-calls.js';

/**
 * Fills in, on `records` themselves (read from a file, so the reader's own): the `method` an
 * answer answers when it lacks one, `answers` on an error with id `null` that answers a request
 * ({@link pairCalls}'s rules), and
 * `negotiation` on the request and answer of a refused or ignored era probe. Never throws.
 */
export function annotateTrace(records: TraceRecord[]): void {
  const { calls } = pairCalls(records);
  for (const call of calls) {
    const answer = call.answer !== undefined && call.answerItem === undefined ? records[call.answer] : undefined;
    if (answer && answer.kind !== 'event') answer.method ??= call.method;
    if (answer && answer.kind === 'error' && answer.id === undefined) answer.answers ??= call.id;
    if (call.status !== 'negotiation') continue;
    if (call.requestItem === undefined) records[call.request]!.negotiation = true;
    if (answer) answer.negotiation = true;
  }
}
