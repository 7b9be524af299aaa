/**
 * Config file text → a value, for the formats users already have: JSON with comments and
 * trailing commas (VS Code's `mcp.json` is JSONC) and YAML. A syntax error is a `ConfigError`
 * (`CONFIG_INVALID`) naming the file, line and column.
 */
import { ConfigError, errorMessage } from '../../protocol/errors.js';

/**
 * Parses `text` from `file` by its extension (`.yaml`/`.yml` ⇒ YAML, anything else JSONC). The
 * YAML parser loads on the first YAML file: importing mcpwire does not pay for it.
 */
export async function parseConfigText(file: string, text: string): Promise<unknown> {
  if (/\.ya?ml$/i.test(file)) {
    const { parse: parseYaml, YAMLParseError } = await import('yaml');
    try {
      return parseYaml(text, { prettyErrors: true }) ?? {};
    } catch (error) {
      const at = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
      throw new ConfigError(`invalid YAML: ${firstLine(error)}`, {
        file,
        ...(at ? { line: at.line, column: at.col } : {}),
      });
    }
  }
  const clean = stripJsonComments(text);
  try {
    return clean.trim() === '' ? {} : (JSON.parse(clean) as unknown);
  } catch (error) {
    const position = /position (\d+)/.exec(String((error as Error).message));
    const { line, column } = position ? lineColumn(text, Number(position[1])) : { line: undefined, column: undefined };
    throw new ConfigError(`invalid JSON: ${firstLine(error)}`, {
      file,
      ...(line !== undefined ? { line, column } : {}),
    });
  }
}

/**
 * Removes `//` and `/* *\/` comments and trailing commas outside strings, keeping every other
 * character (comments become spaces, newlines stay) so positions still point at the source.
 */
export function stripJsonComments(text: string): string {
  return dropTrailingCommas(dropComments(text));
}

/** Calls `visit` for every character outside strings; strings are copied whole. */
function scan(text: string, visit: (i: number) => { out: string; next: number }): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const step = visit(i);
    out += step.out;
    i = step.next;
  }
  return out;
}

function dropComments(text: string): string {
  return scan(text, (i) => {
    if (text[i] === '/' && text[i + 1] === '/') {
      let j = i;
      while (j < text.length && text[j] !== '\n') j++;
      return { out: ' '.repeat(j - i), next: j };
    }
    if (text[i] === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      return { out: text.slice(i, stop).replace(/[^\n]/g, ' '), next: stop };
    }
    return { out: text[i]!, next: i + 1 };
  });
}

function dropTrailingCommas(text: string): string {
  return scan(text, (i) => {
    if (text[i] !== ',') return { out: text[i]!, next: i + 1 };
    let j = i + 1;
    while (j < text.length && /\s/.test(text[j]!)) j++;
    return { out: text[j] === '}' || text[j] === ']' ? ' ' : ',', next: i + 1 };
  });
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The first line of `error`'s message (parsers' messages go on to quote the source). */
export function firstLine(error: unknown): string {
  return errorMessage(error).split('\n')[0]!;
}
