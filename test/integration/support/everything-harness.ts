/**
 * One `@modelcontextprotocol/server-everything` per test file, connected through `McpClient` with
 * sampling, elicitation and roots handlers that record what the server asked and answer what the
 * test chose. `stop()` closes the client and proves the server process is gone.
 */
import { McpClient } from '../../../src/client/mcp-client.js';
import type { ClientOptions } from '../../../src/client/options.js';
import type { ServerInputContext } from '../../../src/client/server-input.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Root,
} from '../../../src/protocol/types.js';
import type { Transport } from '../../../src/protocol/transport.js';
import { waitUntilGone } from '../../support/processes.js';
import { everything } from './reference-servers.js';
import { sampleFor } from './schema-args.js';

/** What the handlers saw, in arrival order. */
export interface SeenInput {
  sampling: Array<{ params: CreateMessageParams; context: ServerInputContext }>;
  elicitation: Array<{ params: ElicitParams; context: ServerInputContext }>;
  roots: ServerInputContext[];
}

/** How the handlers answer; tests change these between calls. */
export interface InputAnswers {
  /** The text of the sampled "model" reply. */
  samplingText: string;
  /** When set, the sampling handler throws an Error with this message instead of answering. */
  samplingFailure?: string;
  /**
   * `accept` fills every requested field from the schema (see {@link formAnswer}); `hang` never
   * answers and rejects only when the handler's signal aborts.
   */
  elicitation: 'accept' | 'decline' | 'cancel' | 'hang';
  roots: Root[];
}

/** A connected client, its server pid, what its handlers saw and how they answer. */
export interface EverythingHarness {
  client: McpClient;
  /** The server's pid, taken right after connect. */
  pid: number;
  seen: SeenInput;
  answers: InputAnswers;
  /** Closes the client and resolves once the server pid is gone (throws if it is not, after 5 s). */
  stop(): Promise<void>;
}

/**
 * Content for a form elicitation: a valid value for every property of `requestedSchema`. Numbers
 * are rounded: the official JSON Schemas (2025-06-18 on) admit only integers in `ElicitResult`
 * content although schema.ts says `number`, and server-everything's default for its "number"
 * field is 3.14.
 */
export function formAnswer(params: ElicitParams): NonNullable<ElicitResult['content']> {
  const schema = (params as { requestedSchema?: Record<string, unknown> }).requestedSchema ?? {};
  const content = sampleFor({ ...schema, type: 'object' }) as NonNullable<ElicitResult['content']>;
  for (const [key, value] of Object.entries(content)) if (typeof value === 'number') content[key] = Math.round(value);
  return content;
}

/** A promise that only ever rejects, with the signal's reason, once `signal` aborts. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Starts the server (or adopts `transport`) and connects with recording handlers. */
export async function startEverything(
  options: { transport?: Transport; env?: Record<string, string>; client?: ClientOptions } = {},
): Promise<EverythingHarness> {
  const seen: SeenInput = { sampling: [], elicitation: [], roots: [] };
  const answers: InputAnswers = {
    samplingText: 'sampled by the mcpwire test',
    elicitation: 'accept',
    roots: [{ uri: 'file:///tmp/mcpwire-everything-root', name: 'everything root' }],
  };
  const client = await McpClient.connect(options.transport ?? everything(options.env), {
    name: 'everything',
    handlers: {
      sampling: (params, context): CreateMessageResult => {
        seen.sampling.push({ params, context });
        if (answers.samplingFailure !== undefined) throw new Error(answers.samplingFailure);
        return {
          role: 'assistant',
          content: { type: 'text', text: answers.samplingText },
          model: 'mcpwire-test-model',
          stopReason: 'endTurn',
        };
      },
      elicitation: (params, context): ElicitResult | Promise<ElicitResult> => {
        seen.elicitation.push({ params, context });
        if (answers.elicitation === 'hang') return untilAborted(context.signal);
        if (answers.elicitation !== 'accept') return { action: answers.elicitation };
        // URL mode asks for consent only: accepting carries no content.
        return params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: formAnswer(params) };
      },
      roots: (context) => {
        seen.roots.push(context);
        return answers.roots;
      },
    },
    ...options.client,
  });
  const pid = client.pid ?? (options.transport as { pid?: number; inner?: { pid?: number } } | undefined)?.inner?.pid;
  if (pid === undefined) throw new Error('the everything server has no pid');
  return {
    client,
    pid,
    seen,
    answers,
    async stop() {
      await client.close();
      if (!(await waitUntilGone(pid, 5_000)))
        throw new Error(`server-everything (pid ${pid}) still runs 5 s after close()`);
    },
  };
}
