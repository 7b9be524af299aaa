/**
 * The connect target of a supervised server: `connectTarget` with the two watches a slot keeps.
 * A login page is shown only while a login someone asked for is under way (the client's OAuth
 * session would otherwise show one by itself when a call finds its token gone; that call fails
 * with `AUTH_REQUIRED` instead and the slot waits in `needs-auth`), and the header values a
 * `headersHelper` hands out are reported, so the slot keeps them out of everything it shows.
 */
import type { McpClient } from '../client/mcp-client.js';
import { McpError } from '../protocol/errors.js';
import { loginHint } from './login-hint.js';
import type { LoginHooks } from './server-auth.js';
import type { ManagedServer } from './server-spec.js';
import { connectTarget } from './server-target.js';

/** What the target asks of its slot. */
export interface TargetWatch {
  /** True while a login asked for (`login()`, `/mcp auth NAME`) is under way. */
  loginUnderWay(): boolean;
  /** Header values the authorize hook handed out (credentials: never to be shown). */
  credentialsSeen(values: string[]): void;
}

/** `connectTarget(spec, hooks)` under `watch` (see the file comment). Throws as `connectTarget` does. */
export function slotTarget(
  spec: ManagedServer,
  hooks: LoginHooks,
  watch: TargetWatch,
): Parameters<typeof McpClient.connect>[0] {
  const show = hooks.onAuthorizationUrl;
  const guarded: LoginHooks = { ...hooks };
  if (show) {
    guarded.onAuthorizationUrl = (url, context) => {
      if (!watch.loginUnderWay())
        throw new McpError('AUTH_REQUIRED', `needs a login: ${loginHint(spec)}`, { server: spec.name });
      return show(url, context);
    };
  }
  const target = connectTarget(spec, guarded);
  if (typeof target !== 'object' || !('authorize' in target) || !target.authorize) return target;
  const authorize = target.authorize;
  return {
    ...target,
    authorize: async (request) => {
      const headers = await authorize(request);
      if (headers) watch.credentialsSeen(credentialParts(Object.values(headers)));
      return headers;
    },
  };
}

/** Each value, and the credential after an auth scheme (`Bearer abc` gives `abc` too). */
function credentialParts(values: string[]): string[] {
  return values.flatMap((value) => {
    const scheme = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value);
    return scheme ? [value, scheme[1]!] : [value];
  });
}
