/**
 * Opt-in capture of tool arguments and results on spans (`gen_ai.tool.call.arguments|result`),
 * redacted as trace files are: every configured secret value scrubbed to `***`, and the value of
 * every credential-like key (`authorization`, `token`, `password`, `api_key`, …) replaced whole.
 * Bounded: a capture longer than `maxLength` characters is cut and marked.
 */
import { scrubSecrets } from '../util/redact.js';

const SECRET_KEY = /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|password|passwd|api[-_]?key/i;

/** How content is captured. */
export interface ContentCapture {
  /** Secret values to scrub wherever they appear. */
  readonly secrets: readonly string[];
  /** The longest capture kept, in characters. */
  readonly maxLength: number;
}

/** The JSON text of `value` for a span attribute, redacted and bounded; undefined when it has none. */
export function captured(value: unknown, capture: ContentCapture): string | undefined {
  if (value === undefined) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key, inner: unknown) =>
      key !== '' && SECRET_KEY.test(key) && inner !== null && typeof inner !== 'object' ? '***' : inner,
    );
  } catch {
    return '[not serializable]';
  }
  if (text === undefined) return undefined;
  if (capture.secrets.length > 0) text = scrubSecrets(text, capture.secrets);
  return text.length > capture.maxLength ? `${text.slice(0, capture.maxLength)}…[truncated]` : text;
}
