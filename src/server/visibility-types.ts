/** The types of `McpServerOptions.visibility` (the functions that apply it: `visibility.ts`). */
import type { ClientCapabilities, Prompt, Tool } from '../protocol/types.js';
import type { AuthInfo } from './auth-info.js';

/** What a visibility function knows of the request. */
export interface VisibilityRequest {
  /** The verified bearer token's facts (a protected HTTP endpoint); undefined elsewhere. */
  readonly auth: AuthInfo | undefined;
  readonly clientCapabilities: ClientCapabilities;
  /**
   * `list` for a list, `use` for a call, get, read or completion of one item by its name: a
   * server may list less than it lets be used by name (a gateway lists no tool it withholds, yet
   * answers a call of one with why it is withheld).
   */
  readonly purpose: 'list' | 'use';
}

/** `McpServerOptions.visibility`: each function present decides for its kind; absent ones show everything. */
export interface VisibilityOptions {
  tool?: (tool: Tool, request: VisibilityRequest) => boolean;
  prompt?: (prompt: Prompt, request: VisibilityRequest) => boolean;
  /** Resources by URI and templates by URI template. */
  resource?: (uri: string, request: VisibilityRequest) => boolean;
}
