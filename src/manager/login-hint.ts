/**
 * What to tell a user about a server in `needs-auth`: the one command that brings it back, in
 * the words of where they are (a chat host's `/mcp`, a shell). One place, so the event, the
 * status line and a refused call say the same thing.
 */
import type { ManagedServer } from './servers/managed-server.js';

/** The `/mcp` command that logs in to `name` and connects it (`McpManager.login`). */
export function loginCommand(name: string): string {
  return `/mcp auth ${name}`;
}

/**
 * What to do for `spec`: log in (OAuth: `/mcp auth NAME` in a host with a browser hook, or
 * `mcpwire auth login NAME` in a shell and then connect), or, for a `headersHelper` server, fix
 * what the helper needs and run it again through `/mcp auth NAME`.
 */
export function loginHint(spec: ManagedServer): string {
  const command = loginCommand(spec.name);
  if (spec.headersHelper) return `its headersHelper gave no usable headers: fix what it needs, then run ${command}`;
  return `run ${command} (or mcpwire auth login ${spec.name} in a shell, then /mcp connect ${spec.name})`;
}
