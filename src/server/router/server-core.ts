/**
 * `ServerCore`: what the router, the method tables and the transport bindings read of one
 * `McpServer` (its registrations, its logger, its shared state). Made once by the server and
 * never replaced; nothing here is per request.
 */
import type { Implementation } from '../../protocol/types.js';
import type { AppsPolicy } from '../apps/app-only-tools.js';
import type { ChangeFeed } from '../change-listeners.js';
import type { ExtensionList } from '../extensions/extension-list.js';
import type { InputStateSigner } from '../input/input-state.js';
import type { PromptSet } from '../prompt-set.js';
import type { ResourceSet } from '../resource-set.js';
import type { SkillSet } from '../skills/skill-set.js';
import type { ServerLogger, ToolCallObserver } from '../server-types.js';
import type { ServerState } from '../state/server-state.js';
import type { TaskRuntime } from '../tasks/task-runtime.js';
import type { ToolSet } from '../tools/tool-set.js';
import type { VisibilityOptions } from '../visibility-types.js';

/** What the router needs of the server. */
export interface ServerCore {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly tools: ToolSet;
  readonly resources: ResourceSet;
  readonly prompts: PromptSet;
  /**
   * The changes this server's clients hear (list changes, resource updates), from every node
   * through the change bus: legacy sessions, GET streams and listens register here.
   */
  readonly changes: ChangeFeed;
  readonly logger: ServerLogger;
  readonly onToolCall: ToolCallObserver | undefined;
  /** Signs the 2026 `requestState` of multi-round-trip input. */
  readonly inputState: InputStateSigner;
  /** The extensions it offers (tasks among them): their advertisement per era and their methods. */
  readonly extensions: ExtensionList;
  /** The tasks of the 2026 tasks extension. */
  readonly tasks: TaskRuntime;
  /** Where the server's shared state lives, and this node's id. */
  readonly state: ServerState;
  /** The skills it publishes (the skills extension, SEP-2640). */
  readonly skills: SkillSet;
  /** Who sees app-only tools (MCP Apps). */
  readonly apps: AppsPolicy;
  /** Who sees which tools, prompts and resources (`McpServerOptions.visibility`). */
  readonly visibility: VisibilityOptions | undefined;
}
