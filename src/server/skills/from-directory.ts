/**
 * `skillsFromDirectory` (Node only: `node:fs`): the skills in a folder tree, one per folder that
 * holds a `SKILL.md`, as definitions for `McpServer.registerSkills`. A nested skill is published
 * on its own too (its parents' path becomes its prefix), and its files stay files of the skill
 * around it (SEP-2640: an entry lists every file below its root).
 */
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { McpError } from '../../protocol/errors.js';
import { SKILL_LIMITS } from '../../protocol/extensions/skills-types.js';
import { frontmatterOf, frontmatterProblem, SKILL_NAME, type SkillDefinition } from './skill-entry.js';

/** Options of {@link skillsFromDirectory}. */
export interface SkillsFromDirectoryOptions {
  /** An organisational prefix for every skill found: `'acme'` serves `skill://acme/<name>/…`. */
  prefix?: string;
  /**
   * Refuse instead of warn: a skill over SKILL_LIMITS (512 files, 16 MiB), or a `SKILL.md`
   * without a valid `name` (equal to its folder's) and `description`. Default false: such a
   * skill is warned about (an invalid one is left out).
   */
  strict?: boolean;
  /** Where warnings go (default: one JSON line on stderr). */
  onWarning?: (warning: { path: string; message: string }) => void;
}

const SKILL_MD = 'SKILL.md';

/**
 * The skills under `dir`. Walks with `lstat`: a symlink is followed only while its real path
 * stays inside `dir`; a symlink that leaves it, or a special file (socket, FIFO, device), rejects
 * the whole call with `INVALID_ARGUMENT` naming it. Entries whose name starts with `.` are not
 * published. Rejects with `INVALID_ARGUMENT` when `dir` is no directory, and in `strict` mode for
 * a problem that is otherwise a warning.
 */
export async function skillsFromDirectory(
  dir: string,
  options: SkillsFromDirectoryOptions = {},
): Promise<SkillDefinition[]> {
  const root = await realpath(dir).catch((error: unknown) => {
    throw new McpError('INVALID_ARGUMENT', `skills directory ${dir} cannot be read`, { cause: error });
  });
  if (!(await stat(root)).isDirectory())
    throw new McpError('INVALID_ARGUMENT', `skills directory ${dir} is not a directory`);
  const files = new Map<string, Uint8Array>();
  await walk(root, root, '', files, new Set([root]));
  const warn = options.onWarning ?? stderrWarning;
  const problem = (where: string, message: string): void => {
    if (options.strict) throw new McpError('INVALID_ARGUMENT', `${path.join(dir, where)}: ${message}`);
    warn({ path: path.join(dir, where), message });
  };
  const skillFolders = [...files.keys()]
    .filter((p) => p === SKILL_MD || p.endsWith(`/${SKILL_MD}`))
    .map((p) => p.slice(0, -SKILL_MD.length).replace(/\/$/, ''))
    .sort();
  const definitions: SkillDefinition[] = [];
  for (const folder of skillFolders) {
    const where = folder === '' ? SKILL_MD : `${folder}/${SKILL_MD}`;
    const name = folder === '' ? path.basename(root) : folder.slice(folder.lastIndexOf('/') + 1);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(files.get(where));
    let frontmatter: Record<string, unknown> | undefined;
    try {
      frontmatter = await frontmatterOf(text, where);
    } catch (error) {
      problem(where, error instanceof McpError ? error.reason : 'the frontmatter cannot be read');
      continue;
    }
    if (!frontmatter || frontmatter.name !== name || !SKILL_NAME.test(name)) {
      problem(where, `the frontmatter must state name "${name}" (its folder's name, a valid skill name)`);
      continue;
    }
    const rule = frontmatterProblem(frontmatter);
    if (rule !== undefined || typeof frontmatter.description !== 'string') {
      problem(where, rule ?? 'the frontmatter must state a description');
      continue;
    }
    const below = folder === '' ? '' : `${folder}/`;
    const own: Record<string, Uint8Array> = {};
    let bytes = 0;
    for (const [file, content] of files)
      if (file.startsWith(below)) {
        own[file.slice(below.length)] = content;
        bytes += content.length;
      }
    const count = Object.keys(own).length;
    if (count > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes)
      problem(
        where,
        `the skill has ${count} files and ${bytes} bytes, over the limits hosts must accept (512, 16 MiB)`,
      );
    const parents = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
    const prefix = [options.prefix, parents].filter((p) => p !== undefined && p !== '').join('/');
    definitions.push({
      name,
      description: frontmatter.description,
      ...(prefix !== '' ? { prefix } : {}),
      files: own,
    });
  }
  return definitions;
}

/** Reads every file below `real` (the real path of `relative` in the tree) into `files`. */
async function walk(
  root: string,
  real: string,
  relative: string,
  files: Map<string, Uint8Array>,
  visiting: Set<string>,
): Promise<void> {
  const names = (await readdir(real)).filter((name) => !name.startsWith('.')).sort();
  for (const name of names) {
    const shown = relative === '' ? name : `${relative}/${name}`;
    let full = path.join(real, name);
    let info = await lstat(full);
    if (info.isSymbolicLink()) {
      const target = await realpath(full).catch(() => undefined);
      if (target === undefined || !isInside(root, target))
        throw new McpError('INVALID_ARGUMENT', `skills: symlink ${shown} points outside the skills directory`);
      full = target;
      info = await stat(full);
    }
    if (info.isDirectory()) {
      // A symlink back up the tree would walk forever.
      if (visiting.has(full)) continue;
      visiting.add(full);
      await walk(root, full, shown, files, visiting);
      visiting.delete(full);
    } else if (info.isFile()) {
      files.set(shown, new Uint8Array(await readFile(full)));
    } else {
      throw new McpError('INVALID_ARGUMENT', `skills: ${shown} is a special file (not a file or a directory)`);
    }
  }
}

function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function stderrWarning(warning: { path: string; message: string }): void {
  process.stderr.write(`${JSON.stringify({ level: 'warning', msg: 'skill problem', ...warning })}\n`);
}
