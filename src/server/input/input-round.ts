/**
 * One round of 2026-07-28 multi-round-trip input on the request path (tools/call, prompts/get):
 * the answers a request carries (`inputResponses`, and those of a valid signed `requestState`),
 * the signal a handler's unanswerable input request throws, and the `input_required` result that
 * ends the round. The signing itself is `input-state.ts`.
 */
import { eraOf } from '../../protocol/revisions.js';
import type { MethodCall, MethodResult, Params } from '../router/method-table.js';
import { isObject } from '../router/method-table.js';
import { RequestFault } from '../router/request-fault.js';
import { principalOf } from '../state/principal.js';

/** One round's input: the answers so far and what the handler asked that they lack. */
export interface RoundInput {
  /** The method and name the round belongs to (`tools/call:add`): a state of another is refused. */
  readonly target: string;
  readonly responses: Record<string, unknown>;
  /** Input requests the handler made that this round cannot answer, by key. */
  readonly asked: Record<string, { method: string; params: Record<string, unknown> }>;
  /** True when the request continues an earlier round (it carried a valid `requestState`). */
  readonly resumed: boolean;
}

/**
 * Thrown through a handler by an input request the current round cannot answer (it was put in
 * {@link RoundInput.asked}); the method answers `input_required` for it. Not an `McpError`: a
 * handler that catches the kit's errors does not catch this, and it never leaves the kit.
 */
export class InputRequiredSignal extends Error {
  override readonly name = 'InputRequiredSignal';

  constructor() {
    super('input required (handled by the kit)');
  }
}

/**
 * The input round of `call` for `target`: the answers it carries plus those of a valid
 * `requestState`; undefined in the legacy era. Throws a -32602 fault for a state this server did
 * not sign for `target` and this principal (or one expired), and for malformed `inputResponses`
 * (each answer is the result of the request it answers: an object), which never reach the handler.
 */
export async function roundInput(call: MethodCall, params: Params, target: string): Promise<RoundInput | undefined> {
  if (eraOf(call.facts.revision) !== 'modern') return undefined;
  const state =
    params.requestState === undefined
      ? undefined
      : await call.core.inputState.verify(params.requestState, target, principalOf(call.link.auth), Date.now());
  if (params.requestState !== undefined && !state)
    throw RequestFault.invalidParams(
      'requestState is not one this server issued for this request (altered, forged, expired, or for another request or user)',
    );
  const given = params.inputResponses;
  if (given !== undefined && !isObject(given))
    throw RequestFault.invalidParams('inputResponses must be an object of answers by key');
  const malformed = given === undefined ? undefined : Object.keys(given).find((key) => !isObject(given[key]));
  if (malformed !== undefined)
    throw RequestFault.invalidParams(
      `inputResponses["${malformed.slice(0, 100)}"] must be an object (the result of the input request)`,
    );
  return { target, responses: { ...state?.responses, ...(given ?? {}) }, asked: {}, resumed: state !== undefined };
}

/** The 2026 `input_required` result asking for `input`'s requests, with the signed state of the rounds so far. */
export async function inputRequired(call: MethodCall, input: RoundInput): Promise<MethodResult> {
  return {
    resultType: 'input_required',
    inputRequests: input.asked,
    requestState: await call.core.inputState.sign(
      { target: input.target, responses: input.responses },
      principalOf(call.link.auth),
      Date.now(),
    ),
  };
}
