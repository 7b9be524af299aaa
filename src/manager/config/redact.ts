/**
 * Display copies of server definitions: what status output, `config show` and logs may print.
 * Values that came from variables, env values under secret-looking names and credential headers
 * become `***` (`Authorization: Bearer ***` keeps its scheme); the definition itself is untouched.
 */
import { redactHeaderValue, scrubSecrets } from '../../transport/http/header-values.js';
import type { ManagedServer } from '../server-spec.js';

const SECRET_NAME = /token|secret|password|passwd|key|auth|credential|cookie|session/i;

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
  if (shown.env) out.env = Object.fromEntries(Object.entries(shown.env).map(([k, v]) => [k, SECRET_NAME.test(k) || secrets.includes(v) ? '***' : scrub(v)]));
  if (shown.headers) out.headers = Object.fromEntries(Object.entries(shown.headers).map(([k, v]) => [k, scrub(redactHeaderValue(k, v))]));
  return out;
}
