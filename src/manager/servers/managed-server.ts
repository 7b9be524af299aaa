/**
 * `ManagedServer`: the one shape of a configured server the manager runs (how to reach it, how to
 * supervise it, where its definition came from), with its `oauth` block and restart policy. The
 * config layer produces it (files, variables, merge); the rest of the manager only reads it.
 *
 * A new server field goes here first; then the entry schema and its key list
 * (`config/server-schema.ts`, `config/server-entry.ts`) so config files accept it, the key list of
 * hand-written definitions (`check-definition.ts`), and whatever acts on it: `connect-target.ts`
 * (how the client connects), `server-slot.ts` (supervision), `server-oauth.ts` (the `oauth` block).
 * Fingerprints (`config/fingerprint.ts`) cover every field without being told.
 */
import { globMatches } from '../glob.js';

/** Where an effective server definition came from. */
export interface Provenance {
  /** The config file, or `inline` for an in-memory object. */
  file: string;
  scope: 'user' | 'project' | 'explicit' | 'inline' | 'import';
  /** For a server read from another host's file: the host's id, its scope there and where in the file. */
  host?: { id: string; scope: 'user' | 'project'; at: string };
}

/** How a crashed server is restarted: capped exponential backoff, then a circuit breaker. */
export interface RestartPolicy {
  /** Restarts in a row (without a stable period between them) before giving up (default 5). */
  maxRestarts?: number;
  /** First delay (default 500 ms); doubles per attempt. */
  initialDelayMs?: number;
  /** Ceiling of the delay (default 30 s). */
  maxDelayMs?: number;
  /** A connection that stays up this long resets the count (default 60 s). */
  resetAfterMs?: number;
}

/**
 * The `oauth` block of a URL server: how mcpwire logs in to it (MCP authorization). Every field
 * is optional; without a block an http/sse server still logs in (dynamic registration, the
 * challenge's scopes). `clientSecret` and the private key are secrets: never shown.
 */
export interface ServerOAuth {
  /** A client id registered beforehand (preferred over a metadata document and registration). */
  clientId?: string;
  /** Its secret, usually `"${VAR}"` (needs `clientId`). */
  clientSecret?: string;
  /** Scopes to ask for instead of the challenge's / the metadata's. */
  scopes?: string[];
  /** The loopback port of the redirect URI to try first. */
  callbackPort?: number;
  /** The URL of this client's Client ID Metadata Document. */
  clientMetadataUrl?: string;
  /**
   * `authorization_code` (default: a user logs in in a browser) or `client_credentials` (the machine is the client).
   */
  grant?: 'authorization_code' | 'client_credentials';
  /** A PKCS#8 PEM private key file for `private_key_jwt` (needs `clientId`); read when connecting. */
  privateKeyFile?: string;
  /** The key's signing algorithm (default ES256). */
  signingAlgorithm?: 'ES256' | 'RS256';
  /** How the client authenticates at the token endpoint (default: from the secret and the server's list). */
  tokenEndpointAuthMethod?: 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
}

/** One server as the manager runs it. */
export interface ManagedServer {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /**
   * http/sse: a shell command line whose stdout is headers for the server's requests (a JSON
   * object or `Name: value` lines), run before the first request and again on a 401/403; its
   * output is a secret (see `headers-helper.ts`).
   */
  headersHelper?: string;
  /** false: configured but never connected (default true). */
  enabled?: boolean;
  /** false: connected only on demand, not by `connectAll` (default true). */
  autoConnect?: boolean;
  /** Default idle timeout of this server's requests. */
  timeoutMs?: number;
  /** Time allowed for connect (spawn/handshake). */
  startupTimeoutMs?: number;
  /** Idle timeout of tool calls (overrides `timeoutMs` for them). */
  toolTimeoutMs?: number;
  /** Only these tools (globs with `*`) are exposed. */
  includeTools?: string[];
  /** These tools (globs with `*`) are hidden. */
  excludeTools?: string[];
  /** `false` never restarts; default: the {@link RestartPolicy} defaults. */
  restart?: RestartPolicy | false;
  /**
   * OAuth of an http/sse server (on by default): `false` never logs in (a 401 stays
   * `AUTH_REQUIRED`), a block says how to. Ignored for stdio servers.
   */
  oauth?: ServerOAuth | false;
  provenance?: Provenance;
  /**
   * Values that came from variables (tokens, keys): never shown in status output, logs or
   * errors. Not part of the definition's identity.
   */
  secrets?: string[];
  /**
   * false for servers defined by project files (untrusted: a cloned repository can name any
   * command); such servers pass the manager's approval step before they start. Default true.
   */
  trusted?: boolean;
}

/**
 * A server as a host writes it (`McpManager.create({ servers })`, `setServer`): a
 * {@link ManagedServer} whose `transport` may be left out, as in a config file (a `command` means
 * stdio, a `url` means http).
 */
export type ServerDefinition = Omit<ManagedServer, 'transport'> & { transport?: ManagedServer['transport'] };

/** True when `name` passes the include/exclude globs of `server` (`*`: any run of characters). */
export function toolAllowed(server: ManagedServer, name: string): boolean {
  if (server.includeTools && !server.includeTools.some((glob) => globMatches(glob, name))) return false;
  if (server.excludeTools?.some((glob) => globMatches(glob, name))) return false;
  return true;
}
