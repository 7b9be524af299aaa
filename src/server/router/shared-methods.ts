/**
 * The methods both eras share beyond tools: resource and prompt lists, `resources/read`,
 * `prompts/get` (with 2026 input rounds) and `completion/complete`; the skills extension
 * (`skills/skills-methods.ts`, its own methods routed through the extension list) adds each
 * skill's `SKILL.md` after the server's own resources, and a read asks the skills first. A
 * method whose capability is not offered (no resource, skill or prompt registered) is answered
 * -32601, as an unknown one.
 */
import { eraOf } from '../../protocol/revisions.js';
import { RpcErrorCode } from '../../protocol/jsonrpc.js';
import { inputRequired, InputRequiredSignal, roundInput } from '../input/input-round.js';
import { ResourceNotFoundError } from '../resource-not-found.js';
import { readSkillFile } from '../skills/skills-methods.js';
import { pageOf } from '../change-listeners.js';
import { McpError } from '../../protocol/errors.js';
import { requestContext } from './handler-context.js';
import { isObject, type MethodCall, type MethodHandler, type MethodResult, type Params } from './method-table.js';
import { RequestFault } from './request-fault.js';
import { visiblePrompts, visibleResources } from '../visibility.js';
import type { Prompt } from '../../protocol/types.js';

/** The handler, answered -32601 while `offered` is false for the call's server. */
function offeredWhen(offered: (call: MethodCall) => boolean, handler: MethodHandler): MethodHandler {
  return (params, call) => {
    if (!offered(call)) throw RequestFault.methodNotFound(call.request.method);
    return handler(params, call);
  };
}

const hasResources = (call: MethodCall): boolean => call.core.resources.size > 0;
/** Resources to list and read: the server's own, or a skill's files. */
const hasReadable = (call: MethodCall): boolean => hasResources(call) || call.core.skills.size > 0;
const hasPrompts = (call: MethodCall): boolean => call.core.prompts.size > 0;

/** `resources/list`: the server's resources, then each skill's `SKILL.md`, paged as one list. */
async function listResources(params: Params, call: MethodCall): Promise<MethodResult> {
  const { core } = call;
  const visible = resourcesShown(call);
  if (core.skills.size === 0) return core.resources.page(params.cursor, core.pageSize, visible);
  const all = [
    ...core.resources.page(undefined, Infinity, visible).resources,
    ...(await core.skills.listedResources()),
  ];
  const { items, nextCursor } = pageOf(all, params.cursor, core.pageSize, () => {
    throw new McpError('INVALID_ARGUMENT', 'invalid cursor');
  });
  return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
}

async function readResource(params: Params, call: MethodCall): Promise<MethodResult> {
  if (typeof params.uri !== 'string') throw RequestFault.invalidParams('resources/read needs a "uri"');
  const uri = params.uri;
  const { context, finish } = requestContext(call, params);
  const shown = resourcesShown(call, 'use')?.(uri) ?? true;
  try {
    // A skill's file first: the skills own their `skill://` names.
    const contents =
      (await readSkillFile(call.core, uri)) ??
      (!shown
        ? undefined
        : await call.core.resources.read(uri, context).catch((error: unknown) => {
            if (error instanceof ResourceNotFoundError) return undefined;
            throw error;
          }));
    // 2026 reports a missing resource as invalid params; legacy revisions had their own code.
    if (!contents)
      throw new RequestFault(
        eraOf(call.facts.revision) === 'modern' ? RpcErrorCode.InvalidParams : RpcErrorCode.ResourceNotFound,
        `Resource not found: ${uri}`,
        { uri },
      );
    return { contents };
  } finally {
    finish();
  }
}

async function getPrompt(params: Params, call: MethodCall): Promise<MethodResult> {
  const prompt = typeof params.name === 'string' ? shownPrompt(call, params.name) : undefined;
  if (!prompt)
    throw RequestFault.invalidParams(
      typeof params.name === 'string' ? `Unknown prompt: ${params.name}` : 'prompts/get needs a "name"',
    );
  const args = stringRecord(params.arguments);
  if (!args) throw RequestFault.invalidParams('prompts/get "arguments" must map names to strings');
  const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  if (missing.length > 0)
    throw RequestFault.invalidParams(`prompt "${prompt.name}" needs the argument(s) ${missing.join(', ')}`);
  const input = await roundInput(call, params, `prompts/get:${prompt.name}`);
  const { context, finish } = requestContext(call, params, input);
  try {
    const result = await prompt.get(args, context);
    return {
      ...(result.description !== undefined ? { description: result.description } : {}),
      messages: result.messages,
    };
  } catch (error) {
    if (input && error instanceof InputRequiredSignal) return await inputRequired(call, input);
    throw error;
  } finally {
    finish();
  }
}

async function complete(params: Params, call: MethodCall): Promise<MethodResult> {
  const { resources } = call.core;
  const ref = isObject(params.ref) ? params.ref : {};
  const argument = isObject(params.argument) ? params.argument : {};
  if (typeof argument.name !== 'string' || typeof argument.value !== 'string')
    throw RequestFault.invalidParams('completion/complete needs argument.name and argument.value');
  let completer;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const prompt = shownPrompt(call, ref.name);
    if (!prompt) throw RequestFault.invalidParams(`Unknown prompt: ${ref.name}`);
    completer = prompt.complete?.[argument.name];
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    completer =
      (resourcesShown(call, 'use')?.(ref.uri) ?? true) ? resources.completer(ref.uri, argument.name) : undefined;
  } else {
    throw RequestFault.invalidParams('completion/complete needs a ref/prompt or ref/resource "ref"');
  }
  const given = isObject(params.context) ? (stringRecord(params.context.arguments) ?? {}) : {};
  const values = completer
    ? (await completer(argument.value, { arguments: given })).filter((v) => typeof v === 'string')
    : [];
  return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
}

/** The shared methods; the 2026 table marks the lists and reads cacheable (`modern-methods.ts`). */
export const SHARED_METHODS: Readonly<Record<string, MethodHandler>> = {
  'resources/list': offeredWhen(hasReadable, listResources),
  'resources/templates/list': offeredWhen(hasReadable, (params, call) =>
    call.core.resources.templatePage(params.cursor, call.core.pageSize, resourcesShown(call)),
  ),
  'resources/read': offeredWhen(hasReadable, readResource),
  'prompts/list': offeredWhen(hasPrompts, (params, call) =>
    call.core.prompts.page(
      params.cursor,
      call.core.pageSize,
      visiblePrompts(call.core, call.facts.clientCapabilities, call.link.auth),
    ),
  ),
  'prompts/get': offeredWhen(hasPrompts, getPrompt),
  'completion/complete': offeredWhen((call) => hasResources(call) || hasPrompts(call), complete),
};

/** The resource filter of this request (`McpServerOptions.visibility`). */
function resourcesShown(call: MethodCall, purpose: 'list' | 'use' = 'list'): ((uri: string) => boolean) | undefined {
  return visibleResources(call.core, call.facts.clientCapabilities, call.link.auth, purpose);
}

/** The prompt `name`, when it exists and this request is shown it. */
function shownPrompt(call: MethodCall, name: string) {
  const prompt = call.core.prompts.get(name);
  if (!prompt) return undefined;
  const visible = visiblePrompts(call.core, call.facts.clientCapabilities, call.link.auth, 'use');
  return !visible || visible(prompt as unknown as Prompt) ? prompt : undefined;
}

/** `value` as string arguments: `{}` when absent, undefined when it is not an object of strings. */
function stringRecord(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isObject(value)) return undefined;
  for (const v of Object.values(value)) if (typeof v !== 'string') return undefined;
  return value as Record<string, string>;
}
