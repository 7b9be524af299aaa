/**
 * Display copies of server definitions and of tool arguments: what status output, `config show`
 * and logs may print. Values that came from variables, values under secret-looking names,
 * credential headers and the `oauth` block's `clientSecret` become `***` (`Authorization: Bearer
 * ***` keeps its scheme); the originals are untouched. A private key is never in a definition (only
 * its file's path), so there is nothing of it to hide here.
 */
import { redactHeaderValue, scrubSecrets } from '../../util/redact.js';
import type { ManagedServer } from '../servers/managed-server.js';

/** Env and field names whose values are secrets (`API_TOKEN`, `DB_PASSWORD`, `clientSecret`). */
export const SECRET_NAME = /token|secret|password|passwd|key|auth|credential|cookie|session/i;

/** A copy of `server` safe to show; `secrets` and provenance are kept out of the copy's values. */
export function redactServer(server: ManagedServer): Omit<ManagedServer, 'secrets'> {
  const secrets = server.secrets ?? [];
  const { secrets: _hidden, ...shown } = server;
  const scrub = (text: string): string => scrubSecrets(text, secrets);
  const out: Omit<ManagedServer, 'secrets'> = { ...shown };
  if (shown.command) out.command = scrub(shown.command);
  if (shown.args) out.args = shown.args.map(scrub);
  if (shown.cwd) out.cwd = scrub(shown.cwd);
  if (shown.url) out.url = scrub(shown.url);
  if (shown.headersHelper) out.headersHelper = scrub(shown.headersHelper);
  if (shown.env)
    out.env = Object.fromEntries(
      Object.entries(shown.env).map(([k, v]) => [k, SECRET_NAME.test(k) || secrets.includes(v) ? '***' : scrub(v)]),
    );
  if (shown.headers)
    out.headers = Object.fromEntries(
      Object.entries(shown.headers).map(([k, v]) => [k, scrub(redactHeaderValue(k, v))]),
    );
  if (shown.oauth) {
    const oauth = { ...shown.oauth };
    if (oauth.clientSecret !== undefined) oauth.clientSecret = '***';
    if (oauth.clientId !== undefined) oauth.clientId = scrub(oauth.clientId);
    if (oauth.privateKeyFile !== undefined) oauth.privateKeyFile = scrub(oauth.privateKeyFile);
    if (oauth.clientMetadataUrl !== undefined) oauth.clientMetadataUrl = scrub(oauth.clientMetadataUrl);
    out.oauth = oauth;
  }
  return out;
}

/**
 * The values of `server` that must never be shown, longest first (so a value inside another is
 * not scrubbed out of it piecemeal): those that came from variables (`secrets`), the credential
 * of each credential header (`Authorization: Bearer abc` gives `abc`, an `X-Api-Key` its whole
 * value), the values of env keys that look secret (`API_TOKEN`, `DB_PASSWORD`), whether
 * written by hand or expanded, and the `oauth` block's `clientSecret`. What a server echoes of
 * them in an error is scrubbed with these.
 */
export function secretValues(server: ManagedServer): string[] {
  const found = new Set(server.secrets ?? []);
  for (const [name, value] of Object.entries(server.headers ?? {})) {
    const shown = redactHeaderValue(name, value);
    if (shown === value) continue;
    // `Bearer ***` keeps the scheme: the secret is what follows it.
    found.add(shown.endsWith(' ***') ? value.slice(shown.length - 3).trim() : value);
  }
  for (const [name, value] of Object.entries(server.env ?? {})) if (SECRET_NAME.test(name)) found.add(value);
  if (server.oauth && server.oauth.clientSecret !== undefined) found.add(server.oauth.clientSecret);
  return [...found].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
}

/**
 * A display copy of a JSON-like value (tool arguments for a log line): every value under a
 * secret-looking key (`token`, `apiKey`, `password`, …) becomes `***`, and every string has the
 * `secrets` scrubbed out. Plain data only; anything else is shown by its type.
 */
export function redactValue(value: unknown, secrets: readonly string[] = []): unknown {
  if (typeof value === 'string') return secrets.length ? scrubSecrets(value, secrets) : value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_NAME.test(k) ? '***' : redactValue(v, secrets)]),
    );
  }
  return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint'
    ? `[${typeof value}]`
    : value;
}
