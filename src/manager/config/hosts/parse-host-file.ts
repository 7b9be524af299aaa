/**
 * A host's config file text → a value, by the file's {@link HostFormat}: JSON and JSONC through
 * `jsonc-parser` (comments and trailing commas allowed for both: hosts such as Cursor and Gemini
 * CLI read them, and a reader that refused them would hide servers the host itself runs), TOML
 * through `smol-toml`, YAML through `yaml`. Each parser loads on first use. A syntax error is a
 * `ConfigError` (`CONFIG_INVALID`) naming the file, line and column.
 */
import { ConfigError } from '../../../protocol/errors.js';
import { firstLine, lineColumn } from '../text-formats.js';
import type { HostFormat } from './host-table.js';

/**
 * Parses `text` (the contents of `file`) as `format`. An empty or whitespace-only file is `{}`.
 * Throws `CONFIG_INVALID` naming file, line and column for a syntax error.
 */
export async function parseHostText(file: string, text: string, format: HostFormat): Promise<unknown> {
  if (text.trim() === '') return {};
  switch (format) {
    case 'json':
    case 'jsonc':
      return parseJsonc(file, text);
    case 'toml':
      return parseToml(file, text);
    case 'yaml':
      return parseYaml(file, text);
  }
}

async function parseJsonc(file: string, text: string): Promise<unknown> {
  const { parse, printParseErrorCode } = await import('jsonc-parser');
  const errors: import('jsonc-parser').ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    throw new ConfigError(`invalid JSON: ${describeJsonError(printParseErrorCode(first.error))}`, {
      file,
      line,
      column,
    });
  }
  return value;
}

async function parseToml(file: string, text: string): Promise<unknown> {
  const { parse, TomlError } = await import('smol-toml');
  try {
    return parse(text);
  } catch (error) {
    const at = error instanceof TomlError ? { line: error.line, column: error.column } : {};
    throw new ConfigError(`invalid TOML: ${firstLine(error)}`, { file, ...at });
  }
}

async function parseYaml(file: string, text: string): Promise<unknown> {
  const { parse, YAMLParseError } = await import('yaml');
  try {
    return (parse(text, { prettyErrors: true }) as unknown) ?? {};
  } catch (error) {
    const at = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
    throw new ConfigError(`invalid YAML: ${firstLine(error)}`, {
      file,
      ...(at ? { line: at.line, column: at.col } : {}),
    });
  }
}

/** `CommaExpected` → `comma expected`. */
function describeJsonError(code: string): string {
  return code
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/^<unknown parseerrorcode>$/, 'syntax error');
}
