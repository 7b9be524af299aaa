/**
 * Multi-round-trip requests of the 2026-07-28 revision: a `tools/call`, `prompts/get` or
 * `resources/read` may come back with `resultType: 'input_required'`. The input requests are
 * fulfilled through the client's handlers and the request is sent again with a new id, the
 * ORIGINAL params, this round's `inputResponses` and the server's `requestState` untouched — up
 * to `ClientOptions.maxInputRounds` times (default 10).
 *
 * Rejects with `INPUT_ROUNDS_EXCEEDED` past the limit, `PROTOCOL` for an unknown `resultType`,
 * or whatever a request or a handler rejects with. A handler's signal aborts with the caller's
 * signal or when the client closes.
 */
import type { RequestOptions } from '../protocol/connection.js';
import { McpError } from '../protocol/errors.js';
import type { InputRequiredResult } from '../protocol/types.js';
import { sampleValue } from '../protocol/value-sample.js';
import type { ClientSession } from './client-session.js';
import { fulfilAll } from './server-input.js';

/** The methods whose result may ask for input. */
export type InputMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** The default of `ClientOptions.maxInputRounds`. */
const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** Sends `current` (first round: `params`) and runs input rounds until the result is complete. */
export function withInput(
  session: ClientSession,
  method: InputMethod,
  params: Record<string, unknown>,
  options: RequestOptions,
  round = 0,
  current = params,
): Promise<Record<string, unknown>> {
  return (session.send(method, current as never, options) as Promise<Record<string, unknown>>).then((result) => {
    const type = result.resultType;
    if (type === undefined || type === 'complete') return result;
    return continueWithInput(session, method, params, options, result, round);
  });
}

/** Goes on from a `result` that is not complete, received in `round` (0: the first answer). */
export async function continueWithInput(
  session: ClientSession,
  method: InputMethod,
  params: Record<string, unknown>,
  options: RequestOptions,
  result: Record<string, unknown>,
  round: number,
): Promise<Record<string, unknown>> {
  if (result.resultType !== 'input_required') {
    throw new McpError('PROTOCOL', `returned an unknown resultType ${sampleValue(result.resultType)}`, {
      server: session.name,
      method,
    });
  }
  const maxRounds = session.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  if (round >= maxRounds) {
    throw new McpError('INPUT_ROUNDS_EXCEEDED', `still asked for input after ${maxRounds} rounds; gave up`, {
      server: session.name,
      method,
    });
  }
  const { inputRequests, requestState } = result as InputRequiredResult;
  // The retry carries the ORIGINAL params plus this round's answers; nothing from earlier rounds.
  const retry: Record<string, unknown> = { ...params };
  if (inputRequests) {
    const signal = options.signal
      ? AbortSignal.any([options.signal, session.lifetime.signal])
      : session.lifetime.signal;
    retry.inputResponses = await fulfilAll(
      inputRequests,
      session.handlers,
      { server: session.name, era: 'modern', signal },
      session.options.elicitationModes,
    );
  }
  if (requestState !== undefined) retry.requestState = requestState;
  return withInput(session, method, params, options, round + 1, retry);
}
