/**
 * Names in an emitted TypeScript module: the type names derived from tool names (PascalCase,
 * unique, never a name the module's own code uses), object keys for tool names that are not
 * identifiers, and doc-comment text that cannot end its comment early. Pure.
 */

/**
 * Identifiers the emitted module's own code refers to (its imports and exports) and the global
 * types it or its readers are likely to use: a generated type of such a name would shadow them.
 */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  'McpClient',
  'McpError',
  'CallOptions',
  'CallToolResult',
  'TypedTools',
  'Array',
  'ArrayLike',
  'Awaited',
  'BigInt',
  'Boolean',
  'Date',
  'Error',
  'Exclude',
  'Extract',
  'Function',
  'Iterable',
  'JSON',
  'Map',
  'Math',
  'NonNullable',
  'Number',
  'Object',
  'Omit',
  'Parameters',
  'Partial',
  'Pick',
  'Promise',
  'PromiseLike',
  'Readonly',
  'ReadonlyArray',
  'Record',
  'RegExp',
  'Required',
  'ReturnType',
  'Set',
  'String',
  'Symbol',
  'WeakMap',
  'WeakSet',
]);

/**
 * The PascalCase stem of a tool's type names: `get_weather`, `get-weather` and `getWeather` give
 * `GetWeather`; accents are dropped and other letters outside ASCII too; a stem that would start with a digit or be
 * empty gets the prefix `Tool` (`3d-render` gives `Tool3dRender`).
 */
export function typeStem(toolName: string): string {
  const words = toolName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // the accents NFKD split off: `ünïcödé` is one word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  // A letter after a digit is upper case, as the generator's own name rule makes it (`Tool3DRender`).
  const stem = words
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
    .replace(/(\d)([a-z])/g, (_m, digit: string, letter: string) => digit + letter.toUpperCase());
  return /^[A-Za-z]/.test(stem) ? stem : `Tool${stem}`;
}

/** The input and output type names of one tool. */
export interface ToolTypeNames {
  input: string;
  output: string;
}

/**
 * Type names for each tool, in the given order: `<Stem>Input` and `<Stem>Output`. Two tools with
 * the same stem (`get-sum`, `get_sum`) are told apart by a number on the later one
 * (`GetSum2Input`); a stem whose names are reserved gets `Tool` in front.
 */
export function toolTypeNames(toolNames: readonly string[]): Map<string, ToolTypeNames> {
  const taken = new Set(RESERVED_TYPE_NAMES);
  const out = new Map<string, ToolTypeNames>();
  for (const name of toolNames) {
    const stem = typeStem(name);
    let candidate = stem;
    for (let n = 2; taken.has(`${candidate}Input`) || taken.has(`${candidate}Output`); n++) candidate = `${stem}${n}`;
    taken.add(`${candidate}Input`);
    taken.add(`${candidate}Output`);
    out.set(name, { input: `${candidate}Input`, output: `${candidate}Output` });
  }
  return out;
}

/** A tool name as an object key or method name: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/**
 * Text for a `/** … *\/` block, one ` * ` line per line: every `*\/` is broken up (`* /`) so the
 * text cannot close the comment, and the line breaks JavaScript knows (CR, LF, U+2028, U+2029)
 * all start a new comment line.
 */
export function docLines(text: string, indent = ''): string[] {
  return text
    .replace(/\*\//g, '* /')
    .split(/\r\n|[\r\n\u2028\u2029]/)
    .map((line) => `${indent} *${line.trimEnd() === '' ? '' : ` ${line.trimEnd()}`}`);
}
