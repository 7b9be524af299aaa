/**
 * A kit tool whose calls run until the test opens them or they are aborted: what task, cancel
 * and scale-out tests hold a call open with.
 */
import type { McpServer } from '../../src/server/index.js';

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
