/**
 * Tool calls in the 2026-07-28 era over Streamable HTTP, where request fields are mirrored into
 * HTTP headers (`basic/transports/streamable-http.mdx`):
 * - a listed tool whose `x-mcp-header` markings break the rules is left out of the tool list,
 *   with an `invalid-tool` diagnostic ({@link withValidHeaderMarkings});
 * - a call carries the `Mcp-Param-*` headers of its tool's markings, and on -32020 (headers and
 *   body disagree: the tool's schema changed on the server) the tool list is fetched again and the
 *   call sent once more with the new markings, as the transport spec advises
 *   ({@link callWithParamHeaders}).
 * The checking of markings and the building of headers is `x-mcp-header.ts`.
 */
import type { RequestOptions } from '../protocol/connection.js';
import { McpError } from '../protocol/errors.js';
import { RpcErrorCode } from '../protocol/jsonrpc.js';
import type { ParamsOf } from '../protocol/methods.js';
import type { Tool } from '../protocol/types.js';
import { sampleValue } from '../protocol/value-sample.js';
import type { ClientSession, HeaderedOptions } from './client-session.js';
import { continueWithInput } from './input-rounds.js';
import { paramHeaders, planParamHeaders } from './x-mcp-header.js';

/** The tools a call looks its markings up in, and how to list them afresh. */
export interface ToolLookup {
  /** The tool as last listed, or undefined (not listed yet, or gone). */
  get(name: string): Tool | undefined;
  /** Lists the tools again, bypassing the cache. */
  refresh(signal: AbortSignal | undefined): Promise<unknown>;
}

/**
 * `tools` without those whose markings break the rules (the array itself when none does); `report` is told why each was
 * left out.
 */
export function withValidHeaderMarkings(tools: Tool[], report: (message: string) => void): Tool[] {
  let kept: Tool[] | undefined;
  for (let i = 0; i < tools.length; i++) {
    const plan = planParamHeaders(tools[i]!);
    if (plan.ok) {
      kept?.push(tools[i]!);
      continue;
    }
    kept ??= tools.slice(0, i);
    report(`tool ${sampleValue(tools[i]!.name)} left out: ${plan.reason}`);
  }
  return kept ?? tools;
}

/**
 * Calls tool `name` with its `Mcp-Param-*` headers, retried once on -32020 after a fresh tool
 * list, and runs its input rounds. Resolves with the complete raw result; rejects as the
 * request, the refresh or an input round does.
 */
export async function callWithParamHeaders(
  session: ClientSession,
  tools: ToolLookup,
  name: string,
  args: Record<string, unknown> | undefined,
  params: ParamsOf<'tools/call'>,
  requestOptions: RequestOptions,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const withHeaders = (): HeaderedOptions => {
    const tool = tools.get(name);
    const headers = tool ? paramHeaders(planParamHeaders(tool), args) : undefined;
    return headers ? { ...requestOptions, headers } : requestOptions;
  };
  let callOptions = withHeaders();
  let raw: Record<string, unknown>;
  try {
    raw = await session.send('tools/call', params, callOptions);
  } catch (error) {
    if (!(error instanceof McpError) || error.rpcCode !== RpcErrorCode.HeaderMismatch) throw error;
    await tools.refresh(signal);
    callOptions = withHeaders();
    raw = await session.send('tools/call', params, callOptions);
  }
  const type = raw.resultType;
  return type === undefined || type === 'complete'
    ? raw
    : continueWithInput(session, 'tools/call', params, callOptions, raw, 0);
}
