/**
 * The server's side of the MCP Apps extension (`io.modelcontextprotocol/ui`) in its extension
 * list. The apps spec asks nothing of a server's capabilities (the client declares `mimeTypes`);
 * SEP-2133 has both sides name an extension they use, so the kit advertises
 * `{ mimeTypes: ["text/html;profile=mcp-app"] }`, in both eras, while at least one app tool or
 * app resource (registered through `registerAppTool` / `registerAppResource`) is offered, and
 * nothing otherwise: a server without views does not claim the extension.
 */
import { EXTENSION_IDS } from '../../protocol/extensions/ids.js';
import { UI_MIME_TYPE } from '../../protocol/extensions/apps-types.js';
import type { Disposer } from '../../protocol/transport.js';
import type { ServerExtension } from '../extensions/extension-list.js';

/** How many app tools and app resources a server offers now. */
export class AppRegistrations {
  private count = 0;

  /** True while at least one is offered. */
  get any(): boolean {
    return this.count > 0;
  }

  /** Counts one registration; the disposer (idempotent) uncounts it and then runs `dispose`. */
  track(dispose: Disposer): Disposer {
    this.count++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.count--;
      dispose();
    };
  }
}

/** The ui extension's descriptor: advertised while `apps` has a registration. */
export function appsExtension(apps: AppRegistrations): ServerExtension {
  return {
    id: EXTENSION_IDS.ui,
    settings: () => (apps.any ? { mimeTypes: [UI_MIME_TYPE] } : undefined),
  };
}
