/**
 * The context a handler (tool, resource read, prompt) gets for one request: its signal (the
 * request's, or its task's once the call became a task), progress and log notices tied to the
 * request, and server→client input in both eras (a legacy request to the client; a 2026 round of
 * multi-round-trip input; a task's `tasks/update`). After `finish`, nothing more goes out.
 */
import { McpError } from '../../protocol/errors.js';
import { extensionsOf } from '../../protocol/extensions/ids.js';
import { eraOf, hasFeature } from '../../protocol/revisions.js';
import type { Meta } from '../../protocol/types.js';
import { clientUi } from '../apps/app-only-tools.js';
import { missingInputCapability } from '../input/input-capability.js';
import { InputRequiredSignal, type RoundInput } from '../input/input-round.js';
import type { ToolContext } from '../server-types.js';
import type { TaskLaunch } from '../tasks/tool-task.js';
import { isObject, type MethodCall, type Params } from './method-table.js';
import { isLoggingLevel, LOG_LEVEL_RANK } from './request-link.js';

/** The handler's context; `finish` stops its progress and log messages (none after the response). */
export function requestContext(
  call: MethodCall,
  params: Params,
  input?: RoundInput,
  launch?: TaskLaunch,
): { context: ToolContext; finish: () => void } {
  const { request, link, facts } = call;
  let asks = 0;
  const token = isObject(params._meta) ? (params._meta as Meta).progressToken : undefined;
  const threshold = facts.logLevel === undefined ? undefined : LOG_LEVEL_RANK[facts.logLevel];
  let last = -Infinity;
  let finished = false;
  const context: ToolContext = {
    // A getter: the request's AbortController is made only if the handler looks at its signal.
    get signal() {
      return launch ? launch.controller.signal : link.signal;
    },
    era: eraOf(facts.revision),
    revision: facts.revision,
    requestId: request.id,
    clientInfo: facts.clientInfo,
    clientCapabilities: facts.clientCapabilities,
    get extensions() {
      return extensionsOf(facts.clientCapabilities);
    },
    get ui() {
      return clientUi(facts.clientCapabilities);
    },
    progress(progress, total, message) {
      if (
        finished ||
        (typeof token !== 'string' && typeof token !== 'number') ||
        typeof progress !== 'number' ||
        !(progress > last)
      )
        return;
      last = progress;
      const out: Record<string, unknown> = { progressToken: token, progress };
      if (total !== undefined) out.total = total;
      if (message !== undefined && hasFeature(facts.revision, 'progressMessage')) out.message = message;
      link.notify('notifications/progress', out);
    },
    wantsProgress: typeof token === 'string' || typeof token === 'number',
    log(level, data, logger) {
      if (finished || threshold === undefined || !isLoggingLevel(level) || LOG_LEVEL_RANK[level] < threshold) return;
      link.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data });
    },
    elicit: (body, options) => ask('elicitation/create', body, options?.key) as Promise<never>,
    sample: (body, options) => ask('sampling/createMessage', body, options?.key) as Promise<never>,
    listRoots: (options) => ask('roots/list', {}, options?.key) as Promise<never>,
    resumed: input?.resumed ?? false,
    closeStream: () => {
      if (!finished) link.closeStream?.();
    },
    startTask: () => {
      // A store's refusal surfaces where the handler next needs the task (an input request).
      if (launch && !finished) launch.start().catch(() => undefined);
    },
    get taskId() {
      return launch?.task?.taskId;
    },
    auth: link.auth,
  };
  /**
   * Server→client input in both eras: a request to the client on a legacy connection; in 2026,
   * the answer the request carries (`inputResponses` or the signed `requestState`), else the
   * round ends in `input_required` (every request asked before the handler gave up goes in it).
   */
  async function ask(method: string, body: Record<string, unknown>, key?: string): Promise<Record<string, unknown>> {
    // Checked before anything is sent or asked: a client refusing a mode it never declared would
    // otherwise answer -32601, which the handler could not tell from a failure.
    const missing = missingInputCapability(method, body, facts.clientCapabilities);
    if (missing !== undefined)
      throw new McpError('INPUT_UNSUPPORTED', `the client did not declare the "${missing}" capability`, { method });
    // A task's input waits for `tasks/update`, under the same keys as a request's rounds (an
    // answer gathered in those rounds still counts).
    if (launch?.started) {
      await launch.start();
      const name = key ?? `input-${++asks}`;
      if (input && Object.hasOwn(input.responses, name)) return input.responses[name] as Record<string, unknown>;
      return launch.ask(name, { method, params: body });
    }
    if (finished) throw new McpError('INVALID_STATE', `${method} after the request was answered`, { method });
    if (eraOf(facts.revision) === 'modern') {
      if (!input)
        throw new McpError(
          'INPUT_UNSUPPORTED',
          `${method} is available to tools and prompts only in 2026-07-28 (multi-round-trip input)`,
          { method },
        );
      const name = key ?? `input-${++asks}`;
      if (Object.hasOwn(input.responses, name)) return input.responses[name] as Record<string, unknown>;
      input.asked[name] = { method, params: body };
      throw new InputRequiredSignal();
    }
    if (!link.request)
      throw new McpError(
        'INPUT_UNSUPPORTED',
        `${method} needs a connection that carries server requests (stdio, or HTTP with sessions)`,
        { method },
      );
    return link.request(method, body);
  }
  return { context, finish: () => (finished = true) };
}
