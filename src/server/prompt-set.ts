/** The prompts a server offers: registration (disposers), listing, and completion of arguments. */
import { McpError } from '../protocol/errors.js';
import type { Disposer } from '../protocol/transport.js';
import type { Prompt, PromptArgument, PromptMessage } from '../protocol/types.js';
import { ChangeListeners, pageOf } from './change-listeners.js';
import type { CompleteHandler, RequestContext } from './server-types.js';

/** A prompt as registered with `McpServer.registerPrompt`. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  /** Its arguments; a `required` one missing from `prompts/get` is -32602 before `get` runs. */
  arguments?: PromptArgument[];
  _meta?: Record<string, unknown>;
  get: (args: Record<string, string>, context: RequestContext) => PromptResult | Promise<PromptResult>;
  /** Completion of an argument's value (`completion/complete` with `ref/prompt`). */
  complete?: Record<string, CompleteHandler>;
}

/** What a prompt's `get` returns. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

export class PromptSet {
  private readonly prompts = new Map<string, { definition: PromptDefinition; wire: Prompt }>();
  readonly changes = new ChangeListeners();

  get size(): number {
    return this.prompts.size;
  }

  /** Throws `INVALID_ARGUMENT` for a name already registered or a missing `get`. */
  add(definition: PromptDefinition): Disposer {
    if (typeof definition.name !== 'string' || definition.name === '')
      throw new McpError('INVALID_ARGUMENT', 'a prompt needs a "name"');
    if (this.prompts.has(definition.name))
      throw new McpError('INVALID_ARGUMENT', `prompt "${definition.name}" is already registered`);
    if (typeof definition.get !== 'function')
      throw new McpError('INVALID_ARGUMENT', `prompt "${definition.name}" has no get function`);
    const { get: _get, complete: _complete, ...wire } = definition;
    const entry = { definition, wire: wire as Prompt };
    this.prompts.set(definition.name, entry);
    this.changes.emit();
    return () => {
      if (this.prompts.get(definition.name) !== entry) return;
      this.prompts.delete(definition.name);
      this.changes.emit();
    };
  }

  get(name: string): PromptDefinition | undefined {
    return this.prompts.get(name)?.definition;
  }

  page(cursor: unknown, pageSize: number): { prompts: Prompt[]; nextCursor?: string } {
    const { items, nextCursor } = pageOf(
      [...this.prompts.values()].map((p) => p.wire),
      cursor,
      pageSize,
      () => {
        throw new McpError('INVALID_ARGUMENT', 'invalid cursor');
      },
    );
    return nextCursor === undefined ? { prompts: items } : { prompts: items, nextCursor };
  }
}
