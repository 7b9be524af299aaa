/**
 * Redaction of credentials before a header, a URL or any text appears in an error, a log or a
 * trace. Pure (no `node:*`), so every layer uses the same rules: the transports, the trace
 * decorator, the client, config loading and the manager.
 */

/** Header names whose whole value is a secret. */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$|token|secret|password|passwd|api[-_]?key|session/i;

/**
 * A display copy of `value` for header `name`: `Authorization: Bearer abc` becomes `Bearer ***`
 * (the scheme stays, it helps debugging), other credential-like headers become `***`, anything
 * else is returned unchanged.
 */
export function redactHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADER.test(name)) return value;
  const scheme = /^([A-Za-z][\w-]*)\s+\S/.exec(value);
  return scheme && /authorization/i.test(name) ? `${scheme[1]} ***` : '***';
}

/** {@link redactHeaderValue} over a whole header record. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactHeaderValue(name, value);
  return out;
}

const SECRET_QUERY = /token|secret|password|passwd|key|auth|sig|code/i;

/** A display form of a URL: no password in userinfo, credential-like query values as `***`. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return String(url);
  }
  if (parsed.password) parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY.test(key)) parsed.searchParams.set(key, '***');
  }
  return parsed.toString().replace(/%2A%2A%2A/g, '***');
}

/**
 * Replaces every occurrence of each secret in `text` by `***` (secrets shorter than 4
 * characters are left alone: they would mangle ordinary words).
 */
export function scrubSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}
