/**
 * `mcpwire app TOOL [target] [--arg K=V]… [--args-json JSON] [--no-browser] [--once] [--trace-file F]`:
 * the developer's preview of an MCP App. Connects the target (declaring MCP Apps), finds TOOL and
 * its `ui://` view, serves the host page and the sandbox proxy on two loopback origins, prints
 * the page's address and opens it (unless `--no-browser`). The page renders the view with
 * `mcpwire/apps` against this live server; the trace gets the MCP lane and the view's bridge as
 * the `ui` lane. Runs until interrupted (Ctrl-C), or with `--once` until the view has its
 * result; then closes the sites and the session.
 */
import { EXTENSION_IDS } from '../../protocol/extensions/ids.js';
import { toolUiMeta, UI_MIME_TYPE } from '../../protocol/extensions/apps-types.js';
import { secretValues } from '../../manager/config/redact.js';
import { redactError } from '../../manager/error-redaction.js';
import { startPreviewSites } from '../app-preview/preview-sites.js';
import { flag, UsageError, type ParsedArgs } from '../argv.js';
import { withInterrupts } from '../interrupt.js';
import type { CliIO } from '../io.js';
import { openBrowser, withLoginHint } from '../login.js';
import type { Outcome } from '../outcome.js';
import { openSession } from '../session.js';
import { callArguments } from '../tool-arguments.js';

/** The page script, bundled by the build (`scripts/build.mjs`) from `app-preview/page-main.ts`. */
declare const __MCPWIRE_APP_PAGE__: string | undefined;

function pageScript(): string {
  if (typeof __MCPWIRE_APP_PAGE__ !== 'string')
    throw new UsageError('mcpwire app needs the built command (npm run build): its page is bundled at build time');
  return __MCPWIRE_APP_PAGE__;
}

export async function appCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const name = args.words[1];
  if (name === undefined) throw new UsageError('mcpwire app needs a tool name: mcpwire app TOOL --server NAME');
  if (args.words.length > 2) throw new UsageError(`mcpwire app takes one tool, got: ${args.words.slice(1).join(' ')}`);
  const script = pageScript();
  const once = flag(args, 'once');
  if (!once && io.stdout !== process.stdout)
    throw new UsageError('mcpwire app runs until Ctrl-C, which a CLI run in-process cannot get: give --once');
  return withInterrupts(io, async (interrupt) => {
    const session = await openSession(args, io, interrupt.signal, {
      extensions: { [EXTENSION_IDS.ui]: { mimeTypes: [UI_MIME_TYPE] } },
    });
    let sites: Awaited<ReturnType<typeof startPreviewSites>> | undefined;
    const stop = async () => {
      await sites?.close();
      await session.close();
    };
    interrupt.onInterrupt(stop);
    try {
      const client = session.client;
      const tools = client.capabilities.tools ? await client.listTools() : [];
      const tool = tools.find((t) => t.name === name);
      if (!tool)
        throw new UsageError(
          `server "${client.name}" has no tool "${name}"${tools.length ? ` (it has ${tools.map((t) => t.name).join(', ')})` : ''}`,
        );
      const uri = toolUiMeta(tool)?.resourceUri;
      if (typeof uri !== 'string' || !uri.startsWith('ui://'))
        throw new UsageError(`tool "${name}" of server "${client.name}" has no ui:// view (its _meta.ui.resourceUri)`);
      const toolArguments = callArguments(args, tool);
      let delivered!: () => void;
      const done = new Promise<void>((resolve) => (delivered = resolve));
      sites = await startPreviewSites({
        client,
        tool,
        arguments: toolArguments,
        pageScript: script,
        ...(session.trace ? { trace: { sink: session.trace.sink, secrets: secretValues(session.target.spec) } } : {}),
        onEvent: (line) => io.stderr.write(`mcpwire app: ${line}\n`),
        onDelivered: () => delivered(),
      });
      io.stdout.write(`${sites.url}\n`);
      io.stderr.write(`mcpwire app: ${name} of ${client.name} (${uri}); Ctrl-C to stop\n`);
      if (!flag(args, 'no-browser')) openBrowser(io, new URL(sites.url));
      // --once: until the view has its result; else until the interrupt, whose handler closes
      // the sites and the session, then exits.
      const interrupted = new Promise<never>((_resolve, reject) =>
        interrupt.signal.addEventListener('abort', () => reject(interrupt.signal.reason as Error), { once: true }),
      );
      if (once) await Promise.race([done, interrupted]);
      else await interrupted;
      await stop();
      return {
        json: { server: client.name, tool: name, resourceUri: uri, url: sites.url, delivered: true },
        text: `mcpwire app: the view of ${name} had its result; stopped`,
      };
    } catch (error) {
      await stop();
      throw withLoginHint(
        redactError(error, secretValues(session.target.spec)),
        session.target.spec,
        session.target.byUrl,
      );
    }
  });
}
