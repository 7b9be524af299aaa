/**
 * The MCP step for recipe and workflow engines: call one tool of one server with arguments
 * rendered from the run's context, and store the result under a key of that context. The step
 * keeps no state between runs; connections are cached per server definition (same definition ⇒
 * same connection) until {@link McpStepRunner.reset}.
 */
import { errorMessage, McpError } from '../protocol/errors.js';
import { jsonText } from '../protocol/json-text.js';
import { checkOptions, optionKeys, unknownOptionError } from '../protocol/option-keys.js';
import { peerText } from '../protocol/value-sample.js';
import type { CallToolResult } from '../protocol/types.js';
import { scrubSecrets } from '../util/redact.js';
import { secretValues } from './config/redact.js';
import type { DebugLogger } from './debug-log.js';
import { redactError } from './error-redaction.js';
import { fingerprint, McpManager } from './mcp-manager.js';
import { stepServer, type StepServer } from './servers/step-server.js';

export type { StepServer } from './servers/step-server.js';

/** One step's configuration. String values anywhere in it are templates. */
export interface McpStep {
  /**
   * A server name from the manager's config, or an inline server definition written as in a
   * config file (`command` a string or an array, `${VAR}` expanded from the runner's `env`).
   */
  server: string | StepServer;
  /** The tool's name on that server (not namespaced). */
  tool: string;
  arguments?: Record<string, unknown>;
  /** Where the result goes in the context (overwriting). */
  resultKey: string;
}

/** What is stored under `resultKey`. */
export interface McpStepResult {
  server: string;
  tool: string;
  /** The `CallToolResult` as a plain object. */
  result: CallToolResult;
  /**
   * The text content blocks joined with newlines (for the next step's templates), the server's secrets shown as `***`.
   */
  text: string;
  isError: boolean;
}

/**
 * Renders `{{ path.to.value }}` and `$path.to.value` references against `context`. A string that
 * is exactly one reference takes the value itself (numbers, objects stay typed); references
 * inside longer strings are stringified. An unknown path is an `INVALID_ARGUMENT` error naming it.
 */
export function renderTemplate(value: unknown, context: Record<string, unknown>, where = 'step'): unknown {
  if (typeof value === 'string') return renderString(value, context, where);
  if (Array.isArray(value)) return value.map((item, i) => renderTemplate(item, context, `${where}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderTemplate(v, context, `${where}.${k}`)]));
  }
  return value;
}

const WHOLE = /^\s*(?:\{\{\s*([A-Za-z_][\w.]*)\s*\}\}|\$([A-Za-z_][\w.]*))\s*$/;
const INNER = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}|\$([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)/g;

function renderString(text: string, context: Record<string, unknown>, where: string): unknown {
  const whole = WHOLE.exec(text);
  if (whole) return lookup(context, (whole[1] ?? whole[2])!, where);
  return text.replace(INNER, (_m, a: string | undefined, b: string | undefined) => {
    const found = lookup(context, (a ?? b)!, where);
    return typeof found === 'string' ? found : JSON.stringify(found);
  });
}

function lookup(context: Record<string, unknown>, path: string, where: string): unknown {
  let value: unknown = context;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !(key in value)) {
      throw new McpError('INVALID_ARGUMENT', `${where}: template reference "${path}" is not in the context`);
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Options of {@link McpStepRunner}. */
export interface McpStepRunnerOptions {
  /** Where named servers come from (default: none; inline definitions only). */
  manager?: McpManager;
  /** Variables for `${VAR}` in inline server definitions (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Debug lines of inline servers' connects and calls (see `ManagerOptions.logger`; default `NODE_DEBUG=mcpwire`). */
  logger?: DebugLogger;
}

/** Options of {@link runMcpStep}. */
export interface RunMcpStepOptions {
  /** The runner to use (default: the process's, over `McpManager.getInstance()`). */
  runner?: McpStepRunner;
}

const STEP_KEYS = optionKeys<McpStep>(
  'MCP step',
  { server: true, tool: true, arguments: true, resultKey: true },
  {
    args: 'arguments',
    params: 'arguments',
    input: 'arguments',
    name: 'tool',
    result: 'resultKey',
    output: 'resultKey',
  },
);
const RUNNER_KEYS = optionKeys<McpStepRunnerOptions>('McpStepRunner options', {
  manager: true,
  env: true,
  logger: true,
});
const RUN_KEYS = optionKeys<RunMcpStepOptions>('runMcpStep options', { runner: true });

/** Runs MCP steps; one runner per engine (or per test). */
export class McpStepRunner {
  private readonly manager: McpManager | undefined;
  private readonly env: Record<string, string | undefined> | undefined;
  private readonly logger: DebugLogger | undefined;
  /** Inline servers by definition fingerprint, each in a private manager. */
  private readonly inline = new Map<string, { manager: McpManager; name: string }>();

  /** Throws `INVALID_ARGUMENT` for an unknown key in `options`. */
  constructor(options: McpStepRunnerOptions = {}) {
    checkOptions(options, RUNNER_KEYS);
    this.manager = options.manager;
    this.env = options.env;
    this.logger = options.logger;
  }

  /**
   * Renders the step against `context`, calls the tool and stores the result under
   * `context[resultKey]`. Rejects with `INVALID_ARGUMENT` for an unknown key in `step`, a bad
   * template or an unknown tool ("tool not found: <name>", before any call), with
   * `CONFIG_INVALID` for an inline server the config rules refuse, and with an error naming the
   * tool and the server when the server cannot be connected, the call fails or it returns
   * `isError` (the result is still stored), and with `PROTOCOL` naming them for a result nested
   * more than 1000 levels deep (nothing is stored). Messages never hold the server's secrets.
   */
  async run(step: McpStep, context: Record<string, unknown>): Promise<McpStepResult> {
    checkOptions(step, STEP_KEYS);
    const rendered = renderTemplate(
      { server: step.server, tool: step.tool, arguments: step.arguments ?? {} },
      context,
    ) as { server: McpStep['server']; tool: string; arguments: Record<string, unknown> };
    if (typeof rendered.tool !== 'string' || rendered.tool === '')
      throw new McpError('INVALID_ARGUMENT', 'step.tool must be a non-empty string');
    const { manager, name } = await this.serverFor(rendered.server);
    const spec = manager.getServer(name);
    const secrets = spec ? secretValues(spec) : [];
    const failure = (error: unknown, method: string, what: string) => {
      // Our message names the server; the error's own method and reason follow (`tools/call failed: …`).
      const said =
        error instanceof McpError
          ? `${error.method !== undefined ? `${error.method} ` : ''}${error.reason}`
          : errorMessage(error);
      return new McpError(
        error instanceof McpError ? error.code : 'TRANSPORT',
        `${what} "${rendered.tool}" failed: ${scrubSecrets(said, secrets)}`,
        { server: name, method, cause: redactError(error, secrets) },
      );
    };
    if (!manager.isConnected(name)) {
      try {
        await manager.connect(name);
      } catch (error) {
        throw failure(error, 'connect', 'for tool');
      }
    }
    const namespaced = manager.getAllTools().find((t) => t.server === name && t.tool === rendered.tool)?.name;
    if (!namespaced)
      throw new McpError('INVALID_ARGUMENT', `tool not found: ${rendered.tool}`, {
        server: name,
        method: 'tools/call',
      });
    let result: CallToolResult;
    try {
      result = await manager.callTool(namespaced, rendered.arguments);
    } catch (error) {
      throw failure(error, 'tools/call', 'tool');
    }
    // A plain copy for the context; a peer's value nested too deeply to copy is refused, not thrown as a RangeError.
    const json = jsonText(result);
    if (json.text === undefined) {
      throw new McpError(
        'PROTOCOL',
        `tool "${rendered.tool}" returned a result the step cannot store: it is ${json.problem}`,
        { server: name, method: 'tools/call' },
      );
    }
    const plain = JSON.parse(json.text) as CallToolResult;
    // The text is what templates hand on (often to a model): the server's secrets show as ***.
    const text = scrubSecrets(
      (plain.content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n'),
      secrets,
    );
    const stored: McpStepResult = {
      server: name,
      tool: rendered.tool,
      result: plain,
      text,
      isError: plain.isError === true,
    };
    context[step.resultKey] = stored;
    if (stored.isError)
      throw redactError(
        new McpError(
          'SERVER_ERROR',
          `tool "${rendered.tool}" reported an error: ${text ? peerText(text) : '(no text)'}`,
          { server: name, method: 'tools/call', data: plain },
        ),
        secrets,
      );
    return stored;
  }

  /** Closes every inline server and forgets them. Named servers belong to the manager and stay. */
  async reset(): Promise<void> {
    const all = [...this.inline.values()];
    this.inline.clear();
    await Promise.allSettled(all.map((entry) => entry.manager.disconnectAll()));
  }

  private async serverFor(server: McpStep['server']): Promise<{ manager: McpManager; name: string }> {
    if (typeof server === 'string') {
      if (!this.manager?.getServer(server)) {
        throw new McpError(
          'INVALID_ARGUMENT',
          `unknown server "${server}" (configured: ${this.manager?.listServers().join(', ') || 'none'})`,
        );
      }
      return { manager: this.manager, name: server };
    }
    const definition = stepServer(server, this.env ?? process.env);
    const key = fingerprint(definition);
    let entry = this.inline.get(key);
    if (!entry) {
      entry = {
        manager: McpManager.create({ servers: [definition], ...(this.logger ? { logger: this.logger } : {}) }),
        name: definition.name,
      };
      this.inline.set(key, entry);
    }
    return entry;
  }
}

/**
 * The runner `runMcpStep` uses without `options.runner`, owned by the process's manager (its
 * named servers come from `McpManager.getInstance()`): when that manager is replaced
 * (`McpManager.resetInstance()`), the next step gets a runner over the new one, and the old
 * runner's inline servers are closed.
 */
let processRunner: { manager: McpManager; runner: McpStepRunner } | undefined;

/** The runner of the process's current manager. */
async function runnerOfProcess(): Promise<McpStepRunner> {
  const manager = McpManager.getInstance();
  if (processRunner?.manager === manager) return processRunner.runner;
  const previous = processRunner;
  processRunner = { manager, runner: new McpStepRunner({ manager }) };
  await previous?.runner.reset();
  return processRunner.runner;
}

/**
 * Runs one MCP step with the process's runner (named servers from `McpManager.getInstance()`),
 * or with `options.runner`. See {@link McpStepRunner.run}.
 */
export async function runMcpStep(
  step: McpStep,
  context: Record<string, unknown>,
  options: RunMcpStepOptions = {},
): Promise<McpStepResult> {
  const invalid = unknownOptionError(options, RUN_KEYS);
  if (invalid) throw invalid;
  const runner = options.runner ?? (await runnerOfProcess());
  return runner.run(step, context);
}

/** Closes the inline servers of the process's runner and forgets it (a host that starts over; tests). Never rejects. */
export async function resetMcpSteps(): Promise<void> {
  const current = processRunner;
  processRunner = undefined;
  await current?.runner.reset();
}
