/**
 * The challenges of a `WWW-Authenticate` header (RFC 9110 §11.6.1), read as data: what an OAuth
 * client needs from a 401/403 (`Bearer` with `resource_metadata`, `scope`, `error`). Pure: no
 * I/O, no Node module; never throws, and its work is bounded by {@link MAX_CHALLENGE_CHARS}
 * whatever the server sends (a header is peer text).
 *
 * ```
 * WWW-Authenticate = #challenge
 * challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 * auth-param = token BWS "=" BWS ( token / quoted-string )
 * token68    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 * ```
 * Challenges and their parameters are both separated by commas; a token followed by `=` is a
 * parameter of the challenge before it, any other token starts a new challenge.
 */

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** The auth scheme, lower-cased (schemes are case-insensitive): `bearer`, `basic`, `dpop`. */
  scheme: string;
  /**
   * The auth-params by lower-cased name (names are case-insensitive), quoted strings unescaped.
   * A name given twice keeps its first value. An object without a prototype: a name such as
   * `__proto__` or `constructor` is a plain key.
   */
  params: Record<string, string>;
  /** The token68 form (`Basic dXNlcjpwYXNz`), when the challenge has one instead of params. */
  token68?: string;
}

/** Longest header text read; what lies past it (cut at a comma) is ignored. */
export const MAX_CHALLENGE_CHARS = 8192;

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;
const TOKEN68_CHAR = /^[A-Za-z0-9\-._~+/]$/;

/**
 * The challenges of one `WWW-Authenticate` header value, in order; `[]` for none or nothing
 * readable. Lenient like a browser: an element that breaks the grammar (a parameter before any
 * scheme, an unterminated quoted string, stray characters) is skipped up to the next comma that
 * is not inside a quoted string, and the rest is still read. Several header lines of one response
 * may be joined with `, ` first (RFC 9110 §5.3).
 */
export function parseAuthChallenges(header: string | undefined): AuthChallenge[] {
  if (typeof header !== 'string' || header === '') return [];
  const text = header.length > MAX_CHALLENGE_CHARS ? cutAtComma(header) : header;
  return new ChallengeReader(text).read();
}

/** The first {@link MAX_CHALLENGE_CHARS} characters, up to their last comma (an element cut in two is no element). */
function cutAtComma(header: string): string {
  const comma = header.lastIndexOf(',', MAX_CHALLENGE_CHARS - 1);
  return comma < 0 ? '' : header.slice(0, comma);
}

/** A single left-to-right pass over the header: every character is looked at a bounded number of times. */
class ChallengeReader {
  private pos = 0;
  private readonly out: AuthChallenge[] = [];
  private current: AuthChallenge | undefined;

  constructor(private readonly text: string) {}

  read(): AuthChallenge[] {
    while (this.skipSeparators()) {
      const start = this.pos;
      const token = this.token();
      if (token === '') {
        this.skipElement();
        continue;
      }
      this.skipSpace();
      if (this.peek() === '=') {
        // `name=value`: a parameter of the challenge before it.
        this.pos++;
        this.param(token);
        continue;
      }
      this.current = { scheme: token.toLowerCase(), params: Object.create(null) as Record<string, string> };
      this.out.push(this.current);
      if (this.pos > start + token.length) this.maybeToken68();
      else if (!this.atElementEnd()) this.skipElement(); // `Basic"x"`: no space after the scheme
    }
    return this.out;
  }

  /** After `name =`: the value (token or quoted string), then the element's end. */
  private param(name: string): void {
    this.skipSpace();
    const value = this.peek() === '"' ? this.quoted() : this.token();
    if (value === undefined || this.current === undefined || !this.atElementEnd()) {
      // A parameter before any scheme, an unterminated quote, or junk after the value.
      if (value !== undefined) this.skipElement();
      return;
    }
    const key = name.toLowerCase();
    if (!(key in this.current.params)) this.current.params[key] = value;
  }

  /**
   * Right after `scheme 1*SP`: a token68 when a run of its characters (and `=` padding) fills
   * the element; otherwise the position stays, and what follows is read as parameters.
   */
  private maybeToken68(): void {
    const start = this.pos;
    while (this.pos < this.text.length && TOKEN68_CHAR.test(this.text[this.pos]!)) this.pos++;
    const runEnd = this.pos;
    while (this.peek() === '=') this.pos++;
    const end = this.pos;
    if (runEnd > start && this.atElementEnd()) {
      this.current!.token68 = this.text.slice(start, end);
      return;
    }
    this.pos = start;
  }

  /** Skips whitespace and commas; false at the end of the text. */
  private skipSeparators(): boolean {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c !== ' ' && c !== '\t' && c !== ',') return true;
      this.pos++;
    }
    return false;
  }

  private skipSpace(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  /** True (having skipped trailing whitespace) at a comma or the end of the text. */
  private atElementEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length || this.text[this.pos] === ',';
  }

  /** Moves to the next comma outside a quoted string (or the end). */
  private skipElement(): void {
    let quoted = false;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (quoted && c === '\\') this.pos++;
      else if (c === '"') quoted = !quoted;
      else if (c === ',' && !quoted) return;
      this.pos++;
    }
  }

  private token(): string {
    const start = this.pos;
    while (this.pos < this.text.length && TCHAR.test(this.text[this.pos]!)) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** A quoted string at `"`, unescaped; undefined (at the end of the text) when it never closes. */
  private quoted(): string | undefined {
    this.pos++;
    let value = '';
    let from = this.pos;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === '"') {
        value += this.text.slice(from, this.pos);
        this.pos++;
        return value;
      }
      if (c === '\\' && this.pos + 1 < this.text.length) {
        value += this.text.slice(from, this.pos) + this.text[this.pos + 1];
        this.pos += 2;
        from = this.pos;
        continue;
      }
      this.pos++;
    }
    return undefined;
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }
}
