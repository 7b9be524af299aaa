/**
 * The one rule that decides whether the CLI may start a server a project file defines (a
 * `.mcp.json` in a repository you cloned can name any command). Every command applies it: the
 * one-shot commands with `--server NAME`, `servers` and `repl` (through the manager's approval
 * hook). In order: `--trust-project` approves; else a decision stored in
 * `~/.mcpwire/approvals.json` for exactly this definition; else, on a terminal, a question whose
 * answer is stored; else (off a terminal) no, and nothing is stored.
 */
import { ApprovalStore } from '../manager/permissions/approval-store.js';
import { redactServer } from '../manager/config/redact.js';
import type { ManagedServer } from '../manager/servers/managed-server.js';
import { flag, type ParsedArgs } from './argv.js';
import { askYesNo } from './ask.js';
import { CliError, EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';

/** Decides for one server; resolves true for servers that need no approval (`trusted` not false). */
export type Approval = (server: ManagedServer) => Promise<boolean>;

/** The approval rule of this command line. Rejects only when the approvals file cannot be written. */
export function cliApproval(args: ParsedArgs, io: CliIO): Approval {
  const approvals = new ApprovalStore(io.env.HOME ? { homeDir: io.env.HOME } : {});
  return async (server) => {
    if (server.trusted !== false || flag(args, 'trust-project')) return true;
    const stored = await approvals.get(server);
    if (stored !== undefined) return stored;
    if (!io.interactive) return false;
    const shown = redactServer(server);
    // A URL server with a headersHelper runs a command too: the question names it.
    const helper = shown.headersHelper ? ` (runs its headersHelper: ${shown.headersHelper})` : '';
    const what = shown.command ? [shown.command, ...(shown.args ?? [])].join(' ') : `${shown.url ?? ''}${helper}`;
    const decision = await askYesNo(
      io,
      `${server.provenance?.file ?? 'a project file'} wants to start server "${server.name}": ${what}\nAllow it?`,
    );
    await approvals.set(server, decision);
    return decision;
  };
}

/**
 * Resolves when `server` may start under `approve`; otherwise throws a `NOT_APPROVED`
 * {@link CliError} (exit 2) naming the server, its file and the ways to approve it.
 */
export async function requireApproval(server: ManagedServer, approve: Approval): Promise<void> {
  if (await approve(server)) return;
  const file = server.provenance?.file ?? 'a project file';
  throw new CliError(
    'NOT_APPROVED',
    `server "${server.name}" (defined in ${file}) is not approved to start: project files can name any command. Approve it by running the command on a terminal (it asks once), or pass --trust-project`,
    EXIT.config,
  );
}
