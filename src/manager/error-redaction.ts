/**
 * Scrubbing a server's secrets out of what the manager hands on: errors (a server may answer
 * `-32000 "bad token Bearer sk-…"`, or die with its token on stderr, which the stdio transport
 * quotes), their peer `data`, the typed facts of an error's class (an HTTP error body, a
 * challenge), and diagnostics (junk on stdout). Errors are scrubbed in place, so their class,
 * `code`, `rpcCode`, `server`, `method`, stack frames and `cause` chain stay as they were and every
 * holder of the same object sees the scrubbed text; nothing is copied when no secret occurs.
 */
import { McpError } from '../protocol/errors.js';
import type { TransportDiagnostic } from '../protocol/transport.js';
import { scrubSecrets } from '../util/redact.js';

/** Causes followed at most (a chain longer than this is not something a peer made). */
const MAX_CAUSES = 16;
/** Fields of an {@link McpError} that name things rather than say them: never rewritten. */
const KEPT = new Set(['name', 'code', 'server', 'method', 'rpcCode', 'cause']);

/**
 * `error` with every occurrence of `secrets` replaced by `***` in its message and stack, and in
 * every other field of an {@link McpError} — `reason`, `rpcMessage`, the peer's `data`, a
 * subclass's facts such as an HTTP `body` — (a scrubbed copy replaces an object that holds one),
 * and likewise down its `cause` chain. Returns `error` itself (a string is returned scrubbed).
 * Never throws.
 */
export function redactError<T>(error: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return error;
  if (typeof error === 'string') return scrubSecrets(error, secrets) as T;
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && !seen.has(current) && depth < MAX_CAUSES; depth++) {
    seen.add(current);
    const fields = current as Error & { data?: unknown; rpcMessage?: unknown; cause?: unknown };
    try {
      fields.message = scrubSecrets(fields.message, secrets);
      if (typeof fields.stack === 'string') fields.stack = scrubSecrets(fields.stack, secrets);
      if (current instanceof McpError) scrubFields(current, secrets);
      if (typeof fields.cause === 'string') fields.cause = scrubSecrets(fields.cause, secrets);
    } catch {
      // A frozen error from elsewhere: leave it; ours are never frozen.
    }
    current = fields.cause;
  }
  return error;
}

/**
 * Scrubs the own fields of `error` in place: strings (`reason`, the peer's whole `rpcMessage`,
 * `url`, `body`, …), and objects holding a secret (peer `data`, a `challenge`) replaced by a
 * scrubbed copy. Any subclass's fields are covered without being listed here.
 */
function scrubFields(error: McpError, secrets: readonly string[]): void {
  const fields = error as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (KEPT.has(key)) continue;
    const value = fields[key];
    if (typeof value === 'string') fields[key] = scrubSecrets(value, secrets);
    else if (value !== null && typeof value === 'object' && holdsSecret(value, secrets))
      fields[key] = scrubbedCopy(value, secrets);
  }
}

/** `diagnostic` itself when it holds no secret, else a copy with its message and sample scrubbed. */
export function redactDiagnostic(diagnostic: TransportDiagnostic, secrets: readonly string[]): TransportDiagnostic {
  if (secrets.length === 0 || !holdsSecret(diagnostic, secrets)) return diagnostic;
  return scrubbedCopy(diagnostic, secrets) as TransportDiagnostic;
}

/**
 * True when a string anywhere in `value` (keys included) contains one of `secrets`. No recursion: any depth is fine.
 */
function holdsSecret(value: unknown, secrets: readonly string[]): boolean {
  const has = (text: string) => secrets.some((secret) => secret.length >= 4 && text.includes(secret));
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (has(item)) return true;
    } else if (item !== null && typeof item === 'object' && !seen.has(item)) {
      seen.add(item);
      for (const key of Object.keys(item)) {
        if (!Array.isArray(item) && has(key)) return true;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** A plain copy of `value` with `secrets` scrubbed from every string (keys included). No recursion. */
function scrubbedCopy(value: unknown, secrets: readonly string[]): unknown {
  const scrub = (text: string) => scrubSecrets(text, secrets);
  const copyOf = (item: unknown, pending: Array<[object, Record<string, unknown>]>): unknown => {
    if (typeof item === 'string') return scrub(item);
    if (item === null || typeof item !== 'object') return item;
    const copy: Record<string, unknown> = Array.isArray(item) ? ([] as unknown as Record<string, unknown>) : {};
    pending.push([item, copy]);
    return copy;
  };
  const pending: Array<[object, Record<string, unknown>]> = [];
  const root = copyOf(value, pending);
  const seen = new Set<object>();
  while (pending.length > 0) {
    const [from, to] = pending.pop()!;
    if (seen.has(from)) continue; // a cycle (never in JSON): its second visit stays empty
    seen.add(from);
    for (const key of Object.keys(from))
      to[Array.isArray(from) ? key : scrub(key)] = copyOf((from as Record<string, unknown>)[key], pending);
  }
  return root;
}
