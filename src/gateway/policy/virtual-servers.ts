/**
 * Virtual servers (`virtualServers`): named subsets of the gateway's catalogue, each served at
 * `/mcp/NAME` by an `McpServer` of its own over the same core. A target belongs to a virtual
 * server when one of its `servers` globs matches the target's server, or one of its `tools`
 * patterns names the target (the policy matcher, `pattern.ts`: `SERVER` or `SERVER__TOOL`, `*`,
 * `?`, read against the (server, tool) pair). A whole-server item (resources, prompts of a server)
 * belongs when a `servers` glob or a `tools` pattern names the whole server.
 * Policies still apply inside a virtual server: it narrows what a request can see, never widens.
 */
import {
  checkKeys,
  checkSeparator,
  configProblem,
  isRecord,
  optionalText,
  patternList,
  type ConfigSite,
} from './config-checks.js';
import { anyPatternMatches, globMatches, type PolicyTarget } from './pattern.js';

/** One virtual server as configured. */
export interface VirtualServerConfig {
  /** Patterns of tools (`SERVER__TOOL`, or `SERVER` for all of a server's), globs allowed. */
  tools?: string[];
  /** Globs over server names: everything of those servers. */
  servers?: string[];
  /** Shown to clients as the virtual server's instructions / description. */
  description?: string;
}

/** A virtual server, validated. */
export interface VirtualServer {
  readonly name: string;
  readonly tools: readonly string[];
  readonly servers: readonly string[];
  readonly description: string | undefined;
}

/** What a virtual server's name must be: one URL path segment, `[A-Za-z0-9_-]{1,64}`. */
export const VIRTUAL_SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const ENTRY_KEYS = new Set(['tools', 'servers', 'description']);

/** Validated virtual servers by name. Immutable; a config reload compiles a new set. */
export class VirtualServerSet {
  /** @internal Use {@link compileVirtualServers}. */
  constructor(
    private readonly byName: ReadonlyMap<string, VirtualServer>,
    private readonly separator: string,
  ) {}

  /** The names, in config order. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The virtual server `name`, or undefined when there is none of that name. */
  get(name: string): VirtualServer | undefined {
    return this.byName.get(name);
  }

  /** Whether `target` belongs to virtual server `name`; false when there is no such virtual server. */
  includes(name: string, target: PolicyTarget): boolean {
    const entry = this.byName.get(name);
    if (!entry) return false;
    if (entry.servers.some((glob) => globMatches(glob, target.server))) return true;
    return anyPatternMatches(entry.tools, target, this.separator);
  }
}

/**
 * Validates `config` (an object of {@link VirtualServerConfig} by name; undefined = none).
 * Throws `ConfigError` (`CONFIG_INVALID`) whose message starts with `where` and names the entry
 * (`virtualServers.NAME`) for: not an object, a name that is no URL path segment, an unknown key,
 * a field of the wrong type or empty, an entry with neither `tools` nor `servers`.
 */
export function compileVirtualServers(
  config: unknown,
  where: string,
  options: { separator?: string } = {},
): VirtualServerSet {
  const separator = checkSeparator(options.separator ?? '__', where);
  const byName = new Map<string, VirtualServer>();
  if (config === undefined) return new VirtualServerSet(byName, separator);
  if (!isRecord(config))
    throw configProblem({ where, entry: 'virtualServers' }, 'must be an object of virtual servers by name');
  for (const [name, raw] of Object.entries(config)) {
    const site: ConfigSite = { where, entry: `virtualServers.${JSON.stringify(name)}` };
    if (!VIRTUAL_SERVER_NAME.test(name))
      throw configProblem(site, 'the name must be 1 to 64 of A-Z a-z 0-9 _ - (it is a URL path segment)');
    if (!isRecord(raw)) throw configProblem(site, 'must be an object ({ tools?, servers?, description? })');
    checkKeys(site, raw, ENTRY_KEYS);
    const tools = patternList(site, raw, 'tools');
    const servers = patternList(site, raw, 'servers');
    if (!tools && !servers) throw configProblem(site, 'needs "tools" or "servers"');
    byName.set(name, {
      name,
      tools: tools ?? [],
      servers: servers ?? [],
      description: optionalText(site, raw, 'description'),
    });
  }
  return new VirtualServerSet(byName, separator);
}
