/**
 * A configured server's `oauth` block as the client's `auth` option: OAuth is on for every
 * http/sse server unless the block is `false`, and what the block says (a pre-registered client,
 * scopes, a callback port, a grant) goes to the OAuth session. How a login reaches the user (the
 * browser hook), where it is kept (the store), how long it may wait and a fixed callback port are
 * the caller's: the manager's options, the CLI.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OAuthOptions, PreRegisteredClient } from '../../auth/auth-options.js';
import type { TokenStore } from '../../auth/token-store.js';
import { ConfigError, errorMessage } from '../../protocol/errors.js';
import type { ManagedServer, ServerOAuth } from './managed-server.js';
import { checkPrivateKey } from '../hashing.js';

/** What the caller adds to a server's OAuth: how to show the login URL, where logins are kept. */
export interface LoginHooks {
  /**
   * Hands the authorization URL to the user (open a browser, print it). Without it no
   * interactive login happens: a server with no usable stored login fails with `AUTH_REQUIRED`.
   */
  onAuthorizationUrl?: OAuthOptions['onAuthorizationUrl'];
  /** Where logins are kept (default: the file store under `~/.mcpwire/oauth`). */
  store?: TokenStore;
  /** How long the browser step may take (default: the session's, 300000 ms). */
  loginTimeoutMs?: number;
  /**
   * The loopback port the login's redirect URI must use (a port in use fails the login naming
   * it); overrides the block's `callbackPort`, which is only tried first.
   */
  callbackPort?: number;
}

/**
 * The `auth` option for `spec`: undefined for a stdio server and for `oauth: false`; otherwise
 * the block's settings with `hooks`. A `privateKeyFile` is read (and checked to be a private key)
 * here, so a missing or unreadable file is a `CONFIG_INVALID` naming it and the server, before
 * anything is sent; its content is never part of an error.
 */
export function oauthOptionsFor(spec: ManagedServer, hooks: LoginHooks = {}): OAuthOptions | undefined {
  if (spec.transport === 'stdio' || spec.oauth === false) return undefined;
  const block: ServerOAuth = spec.oauth ?? {};
  const options: OAuthOptions = {};
  if (block.grant !== undefined) options.grant = block.grant;
  if (block.scopes !== undefined) options.scopes = [...block.scopes];
  if (block.callbackPort !== undefined) options.callbackPort = block.callbackPort;
  if (block.clientMetadataUrl !== undefined) options.clientMetadataUrl = block.clientMetadataUrl;
  if (block.clientId !== undefined) options.client = preRegisteredClient(spec, block, block.clientId);
  else if (block.clientSecret !== undefined || block.privateKeyFile !== undefined) {
    // The schema refuses this; a hand-built ManagedServer may not have been through it.
    throw new ConfigError(
      `oauth.${block.clientSecret !== undefined ? 'clientSecret' : 'privateKeyFile'} needs an oauth.clientId`,
      siteOf(spec, 'oauth.clientId'),
    );
  }
  if (hooks.onAuthorizationUrl) options.onAuthorizationUrl = hooks.onAuthorizationUrl;
  if (hooks.store) options.store = hooks.store;
  if (hooks.loginTimeoutMs !== undefined) options.loginTimeoutMs = hooks.loginTimeoutMs;
  if (hooks.callbackPort !== undefined) {
    options.callbackPort = hooks.callbackPort;
    options.callbackPortFixed = true;
  }
  return options;
}

function preRegisteredClient(spec: ManagedServer, block: ServerOAuth, clientId: string): PreRegisteredClient {
  const client: PreRegisteredClient = { clientId };
  if (block.clientSecret !== undefined) client.clientSecret = block.clientSecret;
  if (block.tokenEndpointAuthMethod !== undefined) client.tokenEndpointAuthMethod = block.tokenEndpointAuthMethod;
  if (block.signingAlgorithm !== undefined) client.signingAlgorithm = block.signingAlgorithm;
  if (block.privateKeyFile !== undefined) client.privateKey = readPrivateKey(spec, block.privateKeyFile);
  return client;
}

/**
 * The PEM text of `file` (`~/` is the home directory; a relative path is relative to the config
 * file that named it). Throws `CONFIG_INVALID` naming the file when it cannot be read or holds no
 * private key; the reason is the system's (`ENOENT`, a decoder error), never the file's text.
 */
function readPrivateKey(spec: ManagedServer, file: string): string {
  const resolved = resolveKeyFile(spec, file);
  const site = siteOf(spec, 'oauth.privateKeyFile');
  let text: string;
  try {
    text = readFileSync(resolved, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`oauth.privateKeyFile ${resolved} cannot be read (${code ?? errorMessage(error)})`, site);
  }
  try {
    checkPrivateKey(text);
  } catch {
    throw new ConfigError(`oauth.privateKeyFile ${resolved} holds no PEM private key`, site);
  }
  return text;
}

function resolveKeyFile(spec: ManagedServer, file: string): string {
  if (file === '~' || file.startsWith('~/')) return path.join(os.homedir(), file.slice(1));
  const configFile = spec.provenance?.file;
  const base = configFile !== undefined && path.isAbsolute(configFile) ? path.dirname(configFile) : process.cwd();
  return path.resolve(base, file);
}

function siteOf(spec: ManagedServer, field: string): { file?: string; server: string; field: string } {
  return { ...(spec.provenance ? { file: spec.provenance.file } : {}), server: spec.name, field };
}
