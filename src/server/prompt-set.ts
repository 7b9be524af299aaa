/** The prompts a server offers: registration (disposers), listing, and completion of arguments. */
import { McpError } from '../protocol/errors.js';
import type { Disposer } from '../protocol/transport.js';
import type { Prompt, PromptArgument, PromptMessage } from '../protocol/types.js';
import { ChangeListeners, pageOf } from './change-listeners.js';
import type { CompleteHandler, RequestContext } from './server-types.js';

/**
 * A prompt as registered with `McpServer.registerPrompt`. `Args` types what `get` receives:
 * `registerPrompt` infers it from `arguments` (`{ topic: string; tone?: string }`).
 */
export interface PromptDefinition<Args = Record<string, string>> {
  name: string;
  title?: string;
  description?: string;
  /** Its arguments; a `required` one missing from `prompts/get` is -32602 before `get` runs. */
  arguments?: readonly PromptArgument[];
  _meta?: Record<string, unknown>;
  get: (args: Args, context: RequestContext) => PromptResult | Promise<PromptResult>;
  /** Completion of an argument's value (`completion/complete` with `ref/prompt`), by argument name. */
  complete?: { [Name in keyof Args]?: CompleteHandler };
}

/**
 * What `get` receives for `arguments`: each named argument a string, optional unless
 * `required: true`. Names that are not literal types (a `PromptArgument[]` value) give
 * `Record<string, string>`.
 */
export type PromptArguments<Arguments extends readonly PromptArgument[]> = string extends Arguments[number]['name']
  ? Record<string, string>
  : Flat<
      {
        [A in Arguments[number] as A extends { readonly required: true } ? A['name'] : never]: string;
      } & {
        [A in Arguments[number] as A extends { readonly required: true } ? never : A['name']]?: string;
      }
    >;

/** One object type in hovers and messages instead of an intersection of its parts. */
type Flat<T> = T extends object ? { [K in keyof T]: T[K] } : T;

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

  /** One page of the prompts `visible` keeps (all when absent). */
  page(
    cursor: unknown,
    pageSize: number,
    visible?: (prompt: Prompt) => boolean,
  ): { prompts: Prompt[]; nextCursor?: string } {
    const wires = [...this.prompts.values()].map((p) => p.wire);
    const { items, nextCursor } = pageOf(visible ? wires.filter(visible) : wires, cursor, pageSize, () => {
      throw new McpError('INVALID_ARGUMENT', 'invalid cursor');
    });
    return nextCursor === undefined ? { prompts: items } : { prompts: items, nextCursor };
  }
}
