/**
 * A call of a task-capable upstream tool (`execution.taskSupport` `optional` or `required`).
 *
 * The gateway's upstream clients declare the 2026 tasks extension (`io.modelcontextprotocol/tasks`),
 * so a 2026 upstream that advertises it may answer such a call with a task instead of a result;
 * a `required` tool answers nothing else. This file follows that task to its end for the
 * forwarder: it polls `tasks/get` at the interval the upstream asks for, answers the upstream
 * task's input requests through the downstream call (`context.elicit`, `sample`, `listRoots`:
 * inside a gateway task they wait for the downstream `tasks/update`), and cancels the upstream
 * task (`tasks/cancel`) when the downstream call is cancelled or given up. The downstream client
 * never sees the upstream task's id: it sees the call's own result, or the gateway's task when it
 * asked for one (the kit runs the forwarded handler as its task).
 *
 * Every other call (a legacy upstream, one that does not advertise the extension, a client that
 * does not declare it) is the client's plain `callTool`.
 */
import type { McpClient } from '../client/mcp-client.js';
import { McpError } from '../protocol/errors.js';
import { EXTENSION_IDS } from '../protocol/meta-keys.js';
import type { CallToolResult, CreateMessageParams, ElicitParams, Tool } from '../protocol/types.js';
import type { RequestContext } from '../server/server-types.js';
import { sleep } from '../transport/http/sleep.js';

const TASKS = EXTENSION_IDS.tasks;
/** Bounds on the poll interval an upstream asks for (a bad value neither spins nor stalls the call). */
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 5_000;
/** How long the cancel of an upstream task given up may take; it is not waited for longer. */
const CANCEL_TIMEOUT_MS = 5_000;
/** Rounds of input before a task exists, as the client's own default bound. */
const MAX_INPUT_ROUNDS = 10;
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** The client's extension declaration to add so that upstreams may answer with tasks. */
export const UPSTREAM_TASKS_EXTENSION: Readonly<Record<string, Record<string, never>>> = { [TASKS]: {} };

/** True when `tool` may be run as a task by its server. */
export function isTaskCapable(tool: Tool): boolean {
  const support = tool.execution?.taskSupport;
  return support === 'optional' || support === 'required';
}

/**
 * Calls `tool` on `client` as the downstream call `context` asks (its `signal`, its progress),
 * following the upstream's task when it answers with one. Resolves with the tool's result (the
 * task's, once `completed`); rejects with `SERVER_ERROR` for a `failed` task (the upstream's
 * code and message kept), `CANCELLED` for one cancelled upstream, or whatever the call rejects
 * with (the signal's reason when it aborts).
 */
export async function callUpstreamTool(
  client: McpClient,
  tool: Tool,
  args: Record<string, unknown> | undefined,
  context: RequestContext,
  signal: AbortSignal,
): Promise<CallToolResult> {
  // Progress is asked of the upstream only when the caller asked for it (a token each call costs).
  const onProgress = context.wantsProgress
    ? (p: { progress: number; total?: number; message?: string }) => context.progress(p.progress, p.total, p.message)
    : undefined;
  const tasks =
    isTaskCapable(tool) &&
    client.era === 'modern' &&
    client.serverExtensions[TASKS] !== undefined &&
    client.clientCapabilities.extensions?.[TASKS] !== undefined;
  if (!tasks)
    return client.callTool(tool.name, args, onProgress ? { signal, onProgress } : { signal, trackProgress: false });
  const params = args === undefined ? { name: tool.name } : { name: tool.name, arguments: args };
  const send = (current: Record<string, unknown>) =>
    client.request('tools/call', current as { name: string }, {
      signal,
      ...(onProgress ? { onProgress, trackProgress: true } : {}),
    }) as Promise<Record<string, unknown>>;
  let first = await send(params);
  // Input rounds before the task exists (a tool that asks first, then starts its task): answered
  // through the downstream call, each round sent again with the original params.
  for (let round = 0; first.resultType === 'input_required'; round++) {
    if (round >= MAX_INPUT_ROUNDS)
      throw new McpError('INPUT_ROUNDS_EXCEEDED', `still asked for input after ${MAX_INPUT_ROUNDS} rounds; gave up`, {
        server: client.name,
        method: 'tools/call',
      });
    const retry: Record<string, unknown> = { ...params };
    if (isRecord(first.inputRequests)) retry.inputResponses = await answer(first.inputRequests, context);
    if (first.requestState !== undefined) retry.requestState = first.requestState;
    first = await send(retry);
  }
  if (first.resultType === 'task') return followTask(client, first, context, signal);
  if (first.resultType === undefined || first.resultType === 'complete') return first as CallToolResult;
  throw new McpError('PROTOCOL', `answered a task-capable call with resultType "${String(first.resultType)}"`, {
    server: client.name,
    method: 'tools/call',
  });
}

/** Polls the upstream task of `created` until it ends; cancels it upstream when it is given up first. */
async function followTask(
  client: McpClient,
  created: Record<string, unknown>,
  context: RequestContext,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const taskId = created.taskId;
  if (typeof taskId !== 'string')
    throw new McpError('PROTOCOL', 'answered with a task without a "taskId"', {
      server: client.name,
      method: 'tools/call',
    });
  let task = created;
  let ended = false;
  try {
    for (;;) {
      const status = task.status;
      if (status === 'completed') {
        ended = true;
        return (task.result ?? { content: [] }) as CallToolResult;
      }
      if (status === 'failed' || status === 'cancelled') {
        ended = true;
        const error = (task.error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
        const message = typeof error.message === 'string' ? error.message : `the task ${String(status)}`;
        throw new McpError(status === 'failed' ? 'SERVER_ERROR' : 'CANCELLED', message, {
          server: client.name,
          method: 'tools/call',
          ...(typeof error.code === 'number' ? { rpcCode: error.code, rpcMessage: message } : {}),
          ...(error.data !== undefined ? { data: error.data } : {}),
        });
      }
      if (status === 'input_required' && isRecord(task.inputRequests)) {
        const inputResponses = await answer(task.inputRequests, context);
        await client.extensionRequest(TASKS, 'tasks/update', { taskId, inputResponses }, { signal });
      } else if (!(await sleep(pollInterval(task.pollIntervalMs ?? created.pollIntervalMs), signal))) {
        throw signal.reason;
      }
      task = await client.extensionRequest(TASKS, 'tasks/get', { taskId }, { signal });
      if (typeof task.status === 'string' && ENDED.has(task.status)) ended = true;
    }
  } finally {
    // Given up before it ended (cancelled downstream, a failed poll, an input round that must
    // end first): stop it upstream too, without waiting for the answer.
    if (!ended && !client.isClosed)
      void client
        .extensionRequest(TASKS, 'tasks/cancel', { taskId }, { timeoutMs: CANCEL_TIMEOUT_MS })
        .catch(() => undefined);
  }
}

/** Answers every input request of an upstream task through the downstream call, under the same keys. */
async function answer(
  requests: Record<string, unknown>,
  context: RequestContext,
): Promise<Record<string, Record<string, unknown>>> {
  const keys = Object.keys(requests);
  const answers = await Promise.all(
    keys.map(async (key): Promise<Record<string, unknown>> => {
      const request = requests[key] as { method?: unknown; params?: unknown } | undefined;
      const params = isRecord(request?.params) ? request.params : {};
      switch (request?.method) {
        case 'elicitation/create':
          return { ...(await context.elicit(params as unknown as ElicitParams, { key })) };
        case 'sampling/createMessage':
          return { ...(await context.sample(params as unknown as CreateMessageParams, { key })) };
        case 'roots/list':
          return { ...(await context.listRoots({ key })) };
        default:
          throw new McpError(
            'UNSUPPORTED',
            `asked for input by "${String(request?.method)}", which the gateway cannot pass on`,
          );
      }
    }),
  );
  return Object.fromEntries(keys.map((key, i) => [key, answers[i]!]));
}

function pollInterval(asked: unknown): number {
  return typeof asked === 'number' && Number.isFinite(asked)
    ? Math.min(Math.max(asked, MIN_POLL_MS), MAX_POLL_MS)
    : 500;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
