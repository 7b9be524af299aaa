/**
 * The shape a successful result must have for the method it answers, per revision: our own
 * checks, independent of the official JSON Schemas, naming the offending field path
 * (`result.tools[2].inputSchema.type`). Each rule reports at most once per result: its first
 * problem, with a count of the others.
 */
import { hasFeature, isSupportedRevision } from '../../protocol/revisions.js';
import { missingClientCapability } from './client-capabilities.js';
import { contentBlockProblem, resourceContentsProblem } from './content-blocks.js';
import { at, firstMissingString, isObject, mustBe } from './field-checks.js';
import type { RuleId } from './rules.js';
import { EXTENSION_IDS, META_KEYS } from '../../protocol/meta-keys.js';

/** One problem with a result. `path` is where it is (`result.content[0].text`). */
export interface ShapeProblem {
  rule: RuleId;
  path: string;
  message: string;
}

/** What the result check knows about the request answered. */
export interface ResultContext {
  /** The revision the exchange ran under; undefined when unknown (revision-specific checks are skipped). */
  revision?: string;
  /** The params of the request answered. */
  requestParams?: unknown;
}

// 2026-07-28/basic/patterns/mrtr.mdx: InputRequiredResult only on these.
const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
// 2026-07-28/server/utilities/caching.mdx: results that carry ttlMs and cacheScope.
const CACHEABLE_METHODS = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
// <rev>/server/utilities/pagination.mdx (tasks/list: 2025-11-25/basic/utilities/tasks.mdx).
const PAGINATED_METHODS = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'tasks/list',
]);
// 2026-07-28/basic/patterns/mrtr.mdx "InputRequest": the kinds of input a server may ask for.
const INPUT_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);
const TASKS_EXTENSION = EXTENSION_IDS.tasks;

type Check = (result: Record<string, unknown>, context: ResultContext) => string[];

/** Problems with the list `result[key]` whose items `item` checks (first problem per item). */
function listOf(
  result: Record<string, unknown>,
  key: string,
  item: (value: unknown, path: string) => string | undefined,
): string[] {
  const list = result[key];
  const path = at('result', key);
  if (!Array.isArray(list)) return [mustBe(path, 'an array', list)];
  return list.flatMap((value, i) => item(value, at(path, i)) ?? []);
}

function objectWithStrings(names: readonly string[]) {
  return (value: unknown, path: string) =>
    isObject(value) ? firstMissingString(value, path, names) : mustBe(path, 'an object', value);
}

function checkTool(value: unknown, path: string): string | undefined {
  if (!isObject(value)) return mustBe(path, 'a tool object', value);
  const name = firstMissingString(value, path, ['name']);
  if (name) return name;
  // <rev>/server/tools.mdx "Tool": inputSchema is a JSON Schema whose root has type "object".
  const schema = value.inputSchema;
  if (!isObject(schema)) return mustBe(at(path, 'inputSchema'), 'a JSON Schema object', schema);
  if (schema.type !== 'object') return mustBe(at(at(path, 'inputSchema'), 'type'), '"object"', schema.type);
  return undefined;
}

function checkPromptMessage(revision: string | undefined) {
  return (value: unknown, path: string): string | undefined => {
    if (!isObject(value)) return mustBe(path, 'a prompt message object', value);
    if (value.role !== 'user' && value.role !== 'assistant')
      return mustBe(at(path, 'role'), '"user" or "assistant"', value.role);
    return contentBlockProblem(value.content, at(path, 'content'), revision);
  };
}

const checkInitialize: Check = (result) => {
  const problems: string[] = [];
  if (typeof result.protocolVersion !== 'string')
    problems.push(mustBe('result.protocolVersion', 'a string', result.protocolVersion));
  if (!isObject(result.capabilities)) problems.push(mustBe('result.capabilities', 'an object', result.capabilities));
  const info = result.serverInfo;
  if (!isObject(info)) problems.push(mustBe('result.serverInfo', 'an object with name and version', info));
  else {
    const missing = firstMissingString(info, 'result.serverInfo', ['name', 'version']);
    if (missing) problems.push(missing);
  }
  return problems;
};

const checkDiscover: Check = (result) => {
  const problems: string[] = [];
  const versions = result.supportedVersions;
  if (!Array.isArray(versions)) problems.push(mustBe('result.supportedVersions', 'an array of strings', versions));
  else
    versions.forEach(
      (v, i) => typeof v !== 'string' && problems.push(mustBe(at('result.supportedVersions', i), 'a string', v)),
    );
  if (!isObject(result.capabilities)) problems.push(mustBe('result.capabilities', 'an object', result.capabilities));
  return problems;
};

const checkToolCall: Check = (result, { revision, requestParams }) => {
  // 2025-11-25/basic/utilities/tasks.mdx: a task-augmented call is answered with CreateTaskResult.
  const taskRequested = isObject(requestParams) && requestParams.task !== undefined;
  if (taskRequested && !('content' in result)) {
    return isObject(result.task)
      ? []
      : [mustBe('result.task', 'a task object (the call asked for a task)', result.task)];
  }
  const problems: string[] = [];
  const content = result.content;
  if (!Array.isArray(content)) problems.push(mustBe('result.content', 'an array of content blocks', content));
  else {
    content.forEach((block, i) => {
      const problem = contentBlockProblem(block, at('result.content', i), revision);
      if (problem) problems.push(problem);
    });
  }
  if (result.isError !== undefined && typeof result.isError !== 'boolean')
    problems.push(mustBe('result.isError', 'a boolean', result.isError));
  // 2025-06-18 … 2025-11-25: structuredContent is an object; 2026-07-28 allows any JSON value.
  const legacyStructured =
    revision !== undefined &&
    isSupportedRevision(revision) &&
    hasFeature(revision, 'structuredOutput') &&
    !hasFeature(revision, 'resultType');
  if (legacyStructured && result.structuredContent !== undefined && !isObject(result.structuredContent)) {
    problems.push(mustBe('result.structuredContent', `an object in ${revision}`, result.structuredContent));
  }
  return problems;
};

const checkCompletion: Check = (result) => {
  const completion = result.completion;
  if (!isObject(completion)) return [mustBe('result.completion', 'an object with values', completion)];
  const values = completion.values;
  if (!Array.isArray(values)) return [mustBe('result.completion.values', 'an array of strings', values)];
  if (values.length > 100) return [`result.completion.values must hold at most 100 items (it holds ${values.length})`];
  return values.flatMap((v, i) =>
    typeof v === 'string' ? [] : [mustBe(at('result.completion.values', i), 'a string', v)],
  );
};

const METHOD_CHECKS: Record<string, { rule: RuleId; check: Check }> = {
  initialize: { rule: 'result.initialize', check: checkInitialize },
  'server/discover': { rule: 'result.discover', check: checkDiscover },
  'tools/list': { rule: 'result.tools-list', check: (r) => listOf(r, 'tools', checkTool) },
  'tools/call': { rule: 'result.tools-call', check: checkToolCall },
  'resources/list': {
    rule: 'result.resources-list',
    check: (r) => listOf(r, 'resources', objectWithStrings(['uri', 'name'])),
  },
  'resources/templates/list': {
    rule: 'result.resource-templates-list',
    check: (r) => listOf(r, 'resourceTemplates', objectWithStrings(['uriTemplate', 'name'])),
  },
  'resources/read': { rule: 'result.resources-read', check: (r) => listOf(r, 'contents', resourceContentsProblem) },
  'prompts/list': { rule: 'result.prompts-list', check: (r) => listOf(r, 'prompts', objectWithStrings(['name'])) },
  'prompts/get': { rule: 'result.prompts-get', check: (r, c) => listOf(r, 'messages', checkPromptMessage(c.revision)) },
  'completion/complete': { rule: 'result.completion', check: checkCompletion },
};

function pathOf(message: string): string {
  return message.split(' ')[0] ?? 'result';
}

function report(rule: RuleId, messages: string[]): ShapeProblem[] {
  const [first] = messages;
  if (first === undefined) return [];
  const more = messages.length > 1 ? ` (and ${messages.length - 1} more in this result)` : '';
  return [{ rule, path: pathOf(first), message: first + more }];
}

/** The `_meta` client capabilities of a 2026 request's params, if any. */
function requestCapabilities(params: unknown): Record<string, unknown> | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const caps = meta?.[META_KEYS.clientCapabilities];
  return isObject(caps) ? caps : undefined;
}

/** 2026-07-28/basic/patterns/mrtr.mdx "InputRequiredResult". */
function inputRequiredProblems(
  method: string,
  result: Record<string, unknown>,
  context: ResultContext,
): ShapeProblem[] {
  if (!MRTR_METHODS.has(method)) {
    return [
      {
        rule: 'result.input-required',
        path: 'result.resultType',
        message: `result.resultType "input_required" is not allowed on ${method} (only tools/call, prompts/get and resources/read)`,
      },
    ];
  }
  const shape: string[] = [];
  const requests = result.inputRequests;
  if (requests === undefined && result.requestState === undefined)
    shape.push('result must carry "inputRequests" or "requestState" (it has neither)');
  if (result.requestState !== undefined && typeof result.requestState !== 'string')
    shape.push(mustBe('result.requestState', 'a string', result.requestState));
  const undeclared: string[] = [];
  if (requests !== undefined && !isObject(requests))
    shape.push(mustBe('result.inputRequests', 'an object of input requests', requests));
  else if (isObject(requests)) {
    const capabilities = requestCapabilities(context.requestParams);
    for (const [key, request] of Object.entries(requests)) {
      const path = at('result.inputRequests', key);
      if (!isObject(request) || typeof request.method !== 'string' || !INPUT_METHODS.has(request.method)) {
        shape.push(
          mustBe(
            at(path, 'method'),
            'one of "elicitation/create", "sampling/createMessage", "roots/list"',
            isObject(request) ? request.method : request,
          ),
        );
        continue;
      }
      const lacking = capabilities && missingClientCapability(request.method, request.params, capabilities);
      if (lacking)
        undeclared.push(
          `${path} asks for ${request.method}, but the request's _meta clientCapabilities declare no ${lacking}`,
        );
    }
  }
  return [...report('result.input-required', shape), ...report('capability.client-undeclared', undeclared)];
}

/**
 * 2026-07-28/basic/index.mdx "Responses" (resultType) and server/utilities/caching.mdx (ttlMs,
 * cacheScope). `final` means the result is not a method's own shape (input_required, task, or
 * an unknown resultType), so the method's checks do not apply.
 */
function modernProblems(
  method: string,
  result: Record<string, unknown>,
  context: ResultContext,
): { problems: ShapeProblem[]; final: boolean } {
  const type = result.resultType;
  if (type === 'input_required') return { problems: inputRequiredProblems(method, result, context), final: true };
  if (type === 'task') {
    // The tasks extension adds "task"; only a client that declared the extension knows it.
    const extensions = requestCapabilities(context.requestParams)?.extensions;
    if (isObject(extensions) && isObject(extensions[TASKS_EXTENSION])) return { problems: [], final: true };
    const message = `result.resultType "task" needs the client to declare the ${TASKS_EXTENSION} extension, and this request did not`;
    return { problems: [{ rule: 'result.result-type', path: 'result.resultType', message }], final: true };
  }
  if (type !== undefined && type !== 'complete') {
    const message = mustBe('result.resultType', '"complete" or "input_required"', type);
    return { problems: [{ rule: 'result.result-type', path: 'result.resultType', message }], final: true };
  }
  const problems: ShapeProblem[] = [];
  if (type === undefined) {
    problems.push({
      rule: 'result.result-type',
      path: 'result.resultType',
      message: mustBe('result.resultType', '"complete" or "input_required" in 2026-07-28', type),
    });
  }
  if (CACHEABLE_METHODS.has(method)) {
    const cache: string[] = [];
    const ttl = result.ttlMs;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0)
      cache.push(mustBe('result.ttlMs', 'an integer >= 0', ttl));
    if (result.cacheScope !== 'public' && result.cacheScope !== 'private')
      cache.push(mustBe('result.cacheScope', '"public" or "private"', result.cacheScope));
    problems.push(...report('result.cache', cache));
  }
  return { problems, final: false };
}

/**
 * Problems with the successful `result` of a `method` request under `context.revision`; empty
 * when it is well formed. Methods without checks here (ping, subscribe, …) pass.
 */
export function resultProblems(
  method: string,
  result: Record<string, unknown>,
  context: ResultContext,
): ShapeProblem[] {
  const { revision } = context;
  const problems: ShapeProblem[] = [];
  if (revision !== undefined && isSupportedRevision(revision) && hasFeature(revision, 'resultType')) {
    const modern = modernProblems(method, result, context);
    if (modern.final) return modern.problems;
    problems.push(...modern.problems);
  }
  const own = METHOD_CHECKS[method];
  if (own) problems.push(...report(own.rule, own.check(result, context)));
  if (PAGINATED_METHODS.has(method) && result.nextCursor !== undefined && typeof result.nextCursor !== 'string') {
    problems.push({
      rule: 'result.next-cursor',
      path: 'result.nextCursor',
      message: mustBe('result.nextCursor', 'a string', result.nextCursor),
    });
  }
  return problems;
}
