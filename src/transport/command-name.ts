/**
 * The display name of a server started from a command line: the one rule `McpClient.connect`,
 * the stdio proxy and the `mcpwire` command use when no name is given (a configured server is
 * named by its config key, a URL by its host). Pure: no I/O, no `node:*` imports.
 *
 * The rule, in order:
 * 1. A package runner (`npx`, `pnpx`, `bunx`, `uvx`, `pipx run`, `npm exec`, `pnpm dlx`,
 *    `yarn dlx`, `uv tool run`): the package (for `npm run` and the like: the script), without scope, version or extras
 *    (`@scope/server-x@1.2` → `server-x`, `mcp-server-fetch==0.6` → `mcp-server-fetch`).
 * 2. An interpreter (`node`, `bun`, `deno`, `tsx`, `python`, `uv run`, …): the script, by the
 *    file rule; `-m module` names the module; code given inline (`-e`, `-p`, `-c`) or no
 *    script at all names the interpreter (`node -e "…"` → `node`).
 * 3. `docker run … IMAGE`: the image without registry, tag or digest.
 * 4. Anything else: the command, by the file rule.
 *
 * The file rule: the last path segment without a script or executable extension; a generic name
 * (`index`, `main`, `server`, `cli`, …) is replaced by the nearest directory above it that is not
 * a build folder (`dist`, `build`, `lib`, `src`, `bin`, …): `node …/server-everything/dist/index.js`
 * → `server-everything`.
 */

const SCRIPT_EXTENSION = /\.(?:m?[jt]sx?|c[jt]s|py|exe|cmd|bat|ps1|sh)$/i;
const GENERIC = new Set(['index', 'main', 'server', 'cli', 'app', 'run', 'start', 'mod', '__main__', 'entry']);
const BUILD_FOLDERS = new Set(['dist', 'build', 'lib', 'src', 'bin', 'out', 'esm', 'cjs', 'build-esm', '.', '..', '']);

/** How a kind of launcher reads its arguments before the package, script or image. */
interface ArgumentShape {
  /** Sub-command words before it (`npm exec`, `deno run`). */
  words: readonly string[];
  /** Options whose value is the next argument (so that value is not the subject). */
  takesValue: ReadonlySet<string>;
  /** Options whose value is code to run inline (the interpreter names the server). */
  inline?: ReadonlySet<string>;
}

const RUNNER_OPTIONS = new Set([
  '-p',
  '--package',
  '--from',
  '--with',
  '--python',
  '--spec',
  '-c',
  '--call',
  '--index',
  '--index-url',
]);
const INTERPRETER_OPTIONS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '--env-file',
  '--config',
  '--with',
  '--directory',
  '--project',
  '--python',
  '-W',
  '-X',
]);
const INLINE_CODE = new Set(['-e', '--eval', '-p', '--print', '-c']);
const CONTAINER_OPTIONS = new Set([
  '-e',
  '--env',
  '--env-file',
  '-v',
  '--volume',
  '-w',
  '--workdir',
  '-u',
  '--user',
  '--name',
  '--network',
  '--mount',
  '--entrypoint',
  '--platform',
  '-l',
  '--label',
  '--add-host',
  '-p',
  '--publish',
]);

const runner = (...words: string[]): ArgumentShape => ({ words, takesValue: RUNNER_OPTIONS });
const interpreter = (...words: string[]): ArgumentShape => ({
  words,
  takesValue: INTERPRETER_OPTIONS,
  inline: INLINE_CODE,
});

/** Package runners by program name (`uv tool run` is found by its words). */
const RUNNERS: Record<string, ArgumentShape> = {
  npx: runner(),
  pnpx: runner(),
  bunx: runner(),
  uvx: runner(),
  pipx: runner('run'),
  npm: runner('exec', 'x', 'run', 'run-script'),
  pnpm: runner('dlx', 'exec', 'run'),
  yarn: runner('dlx', 'exec', 'run'),
};
/** Interpreters by program name (`python3.12` counts as `python`). */
const INTERPRETERS: Record<string, ArgumentShape> = {
  node: interpreter(),
  nodejs: interpreter(),
  bun: interpreter('run'),
  deno: interpreter('run'),
  tsx: interpreter(),
  'ts-node': interpreter(),
  python: interpreter(),
  uv: interpreter('run'),
};
const CONTAINERS: ArgumentShape = { words: ['run', 'container'], takesValue: CONTAINER_OPTIONS };

/** The last segment of a path (either separator). */
function lastSegment(text: string): string {
  const parts = text.split(/[\\/]/);
  return parts[parts.length - 1] ?? text;
}

/** The file rule: a script's or command's name, or its folder's when the name says nothing. */
export function fileDisplayName(file: string): string {
  const segments = file.split(/[\\/]/);
  const base = (segments.pop() ?? file).replace(SCRIPT_EXTENSION, '');
  if (!GENERIC.has(base.toLowerCase())) return base;
  for (let i = segments.length - 1; i >= 0; i--) {
    const folder = segments[i]!;
    if (!BUILD_FOLDERS.has(folder.toLowerCase())) return folder;
  }
  return base;
}

/** A package spec's name: no registry prefix, scope, version, extras or `.git`. */
function packageDisplayName(spec: string): string {
  let name = spec.replace(/^(?:npm|jsr|pypi):/i, '');
  if (/^(?:git\+|https?:|github:|file:)/i.test(name))
    return fileDisplayName(
      name
        .replace(/#.*$/, '')
        .replace(/\.git$/i, '')
        .replace(/@[^/@]*$/, ''),
    );
  name = name.replace(/\[.*\]/, '').replace(/(?:==|>=|<=|~=|!=|[<>]).*$/, '');
  const at = name.indexOf('@', 1);
  if (at > 0) name = name.slice(0, at);
  return lastSegment(name) || spec;
}

/** An image reference's name: no registry, path, tag or digest. */
function imageDisplayName(image: string): string {
  return lastSegment(image.replace(/@sha256:.*$/i, '')).replace(/:.*$/, '');
}

/** What a launcher's arguments name: the first argument that is no option, option value or sub-command word. */
function subject(args: readonly string[], shape: ArgumentShape): { value?: string; inline?: boolean; module?: string } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1] !== undefined ? { value: args[i + 1]! } : {};
    if (arg.startsWith('-') && arg.length > 1) {
      if (shape.inline?.has(arg)) return { inline: true };
      if (arg === '-m' && shape.inline) return args[i + 1] !== undefined ? { module: args[i + 1]! } : {};
      if (shape.takesValue.has(arg)) i++;
      continue;
    }
    if (shape.words.includes(arg)) continue;
    return { value: arg };
  }
  return {};
}

/** The display name of the server `command args…` starts (see the rule above). Never empty. */
export function commandDisplayName(command: string, args: readonly string[] = []): string {
  const program = lastSegment(command).replace(/\.(?:exe|cmd|bat)$/i, '');
  const key = /^python\d+(?:\.\d+)?$/i.test(program) ? 'python' : program.toLowerCase();
  const shape =
    key === 'uv' && args.includes('tool')
      ? runner('tool', 'run')
      : (RUNNERS[key] ?? INTERPRETERS[key] ?? (key === 'docker' || key === 'podman' ? CONTAINERS : undefined));
  if (!shape) return fileDisplayName(command) || program || 'server';
  const found = subject(args, shape);
  if (found.module) return lastSegment(found.module.replace(/\./g, '/'));
  if (found.inline || !found.value) return program;
  if (shape === CONTAINERS) return imageDisplayName(found.value);
  if (shape.takesValue === RUNNER_OPTIONS || /^(?:npm|jsr):/i.test(found.value)) return packageDisplayName(found.value);
  return fileDisplayName(found.value);
}
