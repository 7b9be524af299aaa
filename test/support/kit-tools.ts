/**
 * A kit tool whose calls run until the test opens them or they are aborted: what task, cancel
 * and scale-out tests hold a call open with.
 */
import type { AuthInfo, McpServer } from '../../src/server/index.js';

type ToolResult = { content: Array<{ type: 'text'; text: string }> };

export interface GateToolOptions {
  /** The tool's name (default `gate`). */
  name?: string;
  /** Report progress 1 as each call starts (default false). */
  progress?: boolean;
  /** What an aborted call answers (default no content). */
  whenAborted?: ToolResult;
}

export interface GateTool {
  /** One opener per call started, in call order: each answers its call with the text `opened`. */
  readonly opens: Array<() => void>;
  /** The abort reason of each aborted call, in the order they were aborted. */
  readonly aborted: unknown[];
  /** Opens every call still held (for an `afterEach`). */
  openAll(): void;
}

/** Registers the gate tool (task support optional) on `server`. */
export function registerGateTool(server: McpServer, options: GateToolOptions = {}): GateTool {
  const gate: GateTool = {
    opens: [],
    aborted: [],
    openAll: () => {
      for (const open of gate.opens.splice(0)) open();
    },
  };
  server.registerTool({
    name: options.name ?? 'gate',
    inputSchema: { type: 'object' },
    taskSupport: 'optional',
    handler: (_args, context) =>
      new Promise((resolve) => {
        if (options.progress) context.progress(1);
        gate.opens.push(() => resolve({ content: [{ type: 'text', text: 'opened' }] }));
        context.signal.addEventListener('abort', () => {
          gate.aborted.push(context.signal.reason);
          resolve(options.whenAborted ?? { content: [] });
        });
      }),
  });
  return gate;
}

export interface GreetToolOptions {
  /** Report progress 1 as each call starts (default false). */
  progress?: boolean;
  /** Let the tool run as a task (default: no task support). */
  taskSupport?: 'optional';
}

/** Registers `greet`: asks the client for a name (`Your name?`) and answers `hello <name>`. */
export function registerGreetTool(server: McpServer, options: GreetToolOptions = {}): void {
  server.registerTool({
    name: 'greet',
    inputSchema: { type: 'object' },
    ...(options.taskSupport ? { taskSupport: options.taskSupport } : {}),
    handler: async (_args, context) => {
      if (options.progress) context.progress(1);
      const answer = await context.elicit({ message: 'Your name?', requestedSchema: { type: 'object' } });
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
    },
  });
}

/** The params of a greet call's second round: the first round's `requestState`, answered with the name Ada. */
export function greetAnsweredAda(requestState: unknown): Record<string, unknown> {
  return {
    name: 'greet',
    arguments: {},
    requestState,
    inputResponses: { 'input-1': { action: 'accept', content: { name: 'Ada' } } },
  };
}

/**
 * Registers `whoami`: answers `{ subject }` from `context.auth` (null without one), pushing each
 * call's auth to `seen`.
 */
export function registerWhoamiTool(server: McpServer, seen: Array<AuthInfo | undefined> = []): void {
  server.registerTool({
    name: 'whoami',
    inputSchema: { type: 'object' },
    handler: (_args, context) => {
      seen.push(context.auth);
      return { structuredContent: { subject: context.auth?.subject ?? null } };
    },
  });
}
