/**
 * A command that needs one connected server: the target of the command line opened, the work
 * run on its client, the session closed whatever happens. A signal (Ctrl-C, SIGTERM, SIGHUP)
 * aborts the connect or closes the session; an error is scrubbed of the target's secrets (a
 * server may echo a `-e` / `--header` / config secret) and says how to log in when that is
 * what it needs.
 */
import type { McpClient } from '../client/mcp-client.js';
import { secretValues } from '../manager/config/redact.js';
import { redactError } from '../manager/error-redaction.js';
import type { ParsedArgs } from './argv.js';
import { withInterrupts } from './interrupt.js';
import type { CliIO } from './io.js';
import { withLoginHint } from './login.js';
import { openSession } from './session.js';

/** Runs `work` on the client of this command line's target; resolves or rejects with its outcome. */
export async function withServerSession<T>(
  args: ParsedArgs,
  io: CliIO,
  work: (client: McpClient) => Promise<T>,
): Promise<T> {
  return withInterrupts(io, async (interrupt) => {
    const session = await openSession(args, io, interrupt.signal);
    interrupt.onInterrupt(() => session.close());
    try {
      return await work(session.client);
    } catch (error) {
      // A server may echo a -e / --header / config secret in its error: never print it.
      throw withLoginHint(
        redactError(error, secretValues(session.target.spec)),
        session.target.spec,
        session.target.byUrl,
      );
    } finally {
      await session.close();
    }
  });
}
