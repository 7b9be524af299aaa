/**
 * The skills extension's methods (SEP-2640), the same in both eras: `skills/list` (paged, an
 * entry never split), `skills/get {uri}` (-32602 for a URI no skill has) and
 * `resources/directory/read {uri, cursor?}` (-32602 for what is no directory). Each answers
 * -32601 while no skill is registered, as an unknown method. Their results carry `ttlMs` and
 * `cacheScope` in both eras (the extension requires them; SDK 2.4 refuses a 2026 page without
 * them); the 2026 runner adds `resultType: "complete"`. Skill files are read through plain
 * `resources/read` ({@link readSkillFile}, asked before the server's own resources). The
 * extension is one entry of the server's extension list ({@link skillsExtension}).
 */
import { EXTENSION_IDS } from '../../protocol/extensions/ids.js';
import type { SkillsCapability } from '../../protocol/extensions/skills-types.js';
import type { ResourceContents, ServerCapabilities } from '../../protocol/types.js';
import type { ServerExtension } from '../extensions/extension-list.js';
import type { MethodCall, MethodHandler } from '../router/method-table.js';
import { RequestFault } from '../router/request-fault.js';
import type { ServerCore } from '../router/server-core.js';
import type { SkillSet } from './skill-set.js';

/** A result any cache may keep, and must re-ask at once: the entries change when skills are (re)registered. */
const PUBLIC_NOW = { ttlMs: 0, cacheScope: 'public' } as const;

/** The extension's settings: the kit answers directory reads. */
const SKILLS_SETTINGS: SkillsCapability = { directoryRead: true };

const hasSkills = (call: MethodCall): boolean => call.core.skills.size > 0;

function whileSkills(handler: MethodHandler): MethodHandler {
  return (params, call) => {
    if (!hasSkills(call)) throw RequestFault.methodNotFound(call.request.method);
    return handler(params, call);
  };
}

/** The extension's methods, for both era tables. */
export const SKILLS_METHODS: Readonly<Record<string, MethodHandler>> = {
  'skills/list': whileSkills(async (params, { core }) => ({
    ...(await core.skills.page(params.cursor, core.pageSize)),
    ...PUBLIC_NOW,
  })),
  'skills/get': whileSkills(async (params, { core }) => {
    if (typeof params.uri !== 'string') throw RequestFault.invalidParams('skills/get needs a "uri"');
    const skill = await core.skills.get(params.uri);
    if (!skill) throw RequestFault.invalidParams(`No skill is served at ${params.uri}`, { uri: params.uri });
    return { skill, ...PUBLIC_NOW };
  }),
  'resources/directory/read': whileSkills(async (params, { core }) => {
    if (typeof params.uri !== 'string') throw RequestFault.invalidParams('resources/directory/read needs a "uri"');
    const page = await core.skills.readDirectory(params.uri, params.cursor, core.pageSize);
    if (!page) throw RequestFault.invalidParams(`${params.uri} is not a directory resource`, { uri: params.uri });
    return { ...page, ...PUBLIC_NOW };
  }),
};

/** The contents of skill file `uri`, or undefined when it is none (the server's own resources are asked next). */
export function readSkillFile(core: ServerCore, uri: string): Promise<ResourceContents[] | undefined> | undefined {
  return core.skills.size > 0 ? core.skills.read(uri) : undefined;
}

/**
 * The skills extension as the kit's extension list holds it: advertised in both eras with
 * `{ directoryRead: true }` while a skill is registered (not at all before), its methods routed
 * after each era's own table.
 */
export function skillsExtension(skills: SkillSet): ServerExtension {
  return {
    id: EXTENSION_IDS.skills,
    settings: () => (skills.size > 0 ? { ...SKILLS_SETTINGS } : undefined),
    methods: SKILLS_METHODS,
  };
}

/**
 * The `resources` capability the extension requires while a skill is registered (without
 * `subscribe` when the server has no resources of its own: skill files do not change in place).
 */
export function skillsNeedResources(core: ServerCore, capabilities: ServerCapabilities): void {
  if (core.skills.size > 0) capabilities.resources ??= { listChanged: true };
}
