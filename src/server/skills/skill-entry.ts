/**
 * One skill as a server publishes it (SEP-2640): the definition `McpServer.registerSkill` takes,
 * its checks, its `SKILL.md` (given, or generated from `instructions`), and the built skill: every
 * file's URI, bytes, size and `sha256:` digest, and the `Skill` entry `skills/list` and
 * `skills/get` carry. Runtime-neutral: digests come from Web Crypto; a given `SKILL.md` is read
 * with the YAML reader the Node entry registers (`yaml-reader.ts`).
 */
import { McpError } from '../../protocol/errors.js';
import type { Skill, SkillFrontmatter } from '../../protocol/extensions/skills-types.js';
import { skillYamlReader } from './yaml-reader.js';

/** A skill as registered with `McpServer.registerSkill`. */
export interface SkillDefinition {
  /** The skill's name: 1–64 of `a-z`, `0-9` and `-`, no leading, trailing or doubled `-` (Agent Skills). */
  name: string;
  /** What the skill is for (non-empty): the host shows it to the model before loading the skill. */
  description: string;
  /** An organisational prefix, `/`-separated: `'acme/billing'` serves `skill://acme/billing/<name>/…`. */
  prefix?: string;
  /**
   * The skill's files by path relative to its root (`references/GUIDE.md`); a string is UTF-8.
   * A `SKILL.md` given here must state the same `name` and `description` in its YAML
   * frontmatter, whose fields are then the entry's `frontmatter`, verbatim; without one it is
   * generated from `instructions` and `frontmatter`.
   */
  files?: Record<string, string | Uint8Array>;
  /** The markdown body of a generated `SKILL.md` (not with a given one). */
  instructions?: string;
  /** Further frontmatter fields of a generated `SKILL.md` (JSON values; `license`, `metadata`, …). */
  frontmatter?: Record<string, unknown>;
}

/** One file of a built skill. */
export interface SkillFile {
  uri: string;
  /** The path below the skill's root (`SKILL.md`, `references/GUIDE.md`). */
  path: string;
  bytes: Uint8Array;
  mimeType: string;
  /** The UTF-8 text of `bytes` when the file is served as text, else undefined (served as a base64 blob). */
  text: string | undefined;
}

/** A skill ready to serve: its entry and its files. */
export interface BuiltSkill {
  entry: Skill;
  /** The skill's root directory URI (`skill://<prefix>/<name>`, no trailing slash). */
  root: string;
  files: SkillFile[];
}

/** The Agent Skills naming rule, as the conformance suite spells it. */
export const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

const SKILL_MD = 'SKILL.md';
const DEFINITION_KEYS = new Set(['name', 'description', 'prefix', 'files', 'instructions', 'frontmatter']);
const encoder = new TextEncoder();

/**
 * Checks `definition` and resolves with the skill it publishes. Rejects with `INVALID_ARGUMENT`
 * naming the problem: an unknown key, a bad name, prefix or file path, an empty description, a
 * given `SKILL.md` whose frontmatter is missing or states another name or description (or beside
 * `instructions`/`frontmatter`), or frontmatter that is not JSON.
 */
export async function buildSkill(definition: SkillDefinition): Promise<BuiltSkill> {
  const { root, files: given } = checkDefinition(definition);
  const sources = new Map<string, string | Uint8Array>(Object.entries(given));
  let frontmatter: SkillFrontmatter;
  const skillMd = sources.get(SKILL_MD);
  if (skillMd !== undefined) {
    if (definition.instructions !== undefined || definition.frontmatter !== undefined)
      throw invalid(
        definition,
        'give "instructions" and "frontmatter" only when SKILL.md is generated, not with files["SKILL.md"]',
      );
    frontmatter = await givenFrontmatter(definition, typeof skillMd === 'string' ? skillMd : decodeUtf8(skillMd));
  } else {
    frontmatter = generatedFrontmatter(definition);
    sources.set(SKILL_MD, skillMarkdown(frontmatter, definition.instructions ?? ''));
  }
  const problem = frontmatterProblem(frontmatter);
  if (problem) throw invalid(definition, problem);
  const files: SkillFile[] = [];
  // SKILL.md first, then the rest in the order given.
  for (const path of [SKILL_MD, ...[...sources.keys()].filter((p) => p !== SKILL_MD)]) {
    const source = sources.get(path)!;
    const bytes = typeof source === 'string' ? encoder.encode(source) : new Uint8Array(source);
    const mimeType = mimeTypeOf(path, typeof source === 'string');
    files.push({ uri: `${root}/${path}`, path, bytes, mimeType, text: servedText(bytes, source, mimeType) });
  }
  const resources = await Promise.all(
    files.map(async (file) => ({ uri: file.uri, digest: await sha256Digest(file.bytes), size: file.bytes.length })),
  );
  return { entry: { uri: `${root}/${SKILL_MD}`, frontmatter, resources }, root, files };
}

/** The synchronous checks of `definition` (what `registerSkill` refuses at once): its root URI and files. */
export function checkDefinition(definition: SkillDefinition): {
  root: string;
  files: Record<string, string | Uint8Array>;
} {
  if (definition === null || typeof definition !== 'object')
    throw new McpError('INVALID_ARGUMENT', 'registerSkill needs a skill definition object');
  for (const key of Object.keys(definition))
    if (!DEFINITION_KEYS.has(key)) throw invalid(definition, `unknown key "${key}"`);
  const { name, description, prefix } = definition;
  if (typeof name !== 'string' || !SKILL_NAME.test(name))
    throw new McpError(
      'INVALID_ARGUMENT',
      `skill name ${JSON.stringify(name)} is invalid: 1-64 of a-z, 0-9 and "-", no leading, trailing or doubled "-"`,
    );
  if (typeof description !== 'string' || description.trim() === '')
    throw invalid(definition, 'needs a non-empty "description"');
  if (prefix !== undefined && (typeof prefix !== 'string' || !prefix.split('/').every(isPrefixSegment)))
    throw invalid(definition, `prefix ${JSON.stringify(prefix)} must be "/"-separated URI path segments`);
  if (definition.instructions !== undefined && typeof definition.instructions !== 'string')
    throw invalid(definition, '"instructions" must be a string');
  const files = definition.files ?? {};
  if (files === null || typeof files !== 'object' || Array.isArray(files))
    throw invalid(definition, '"files" must map relative paths to strings or bytes');
  const paths = Object.keys(files);
  for (const path of paths) {
    const content = files[path];
    if (typeof content !== 'string' && !(content instanceof Uint8Array))
      throw invalid(definition, `file "${path}" must be a string or a Uint8Array`);
    if (!path.split('/').every(isPathSegment))
      throw invalid(definition, `file path "${path}" must be relative, "/"-separated, without "." or ".."`);
    if (paths.some((other) => other.startsWith(`${path}/`)))
      throw invalid(definition, `file path "${path}" is also a directory of another file`);
  }
  return { root: `skill://${prefix ? `${prefix}/` : ''}${name}`, files };
}

/**
 * What breaks the Agent Skills frontmatter rules hosts check (SDK 2.4 refuses such an entry), or
 * undefined: a description of 1–1024 characters, a `compatibility` of 1–500, `metadata` mapping
 * strings to strings.
 */
export function frontmatterProblem(frontmatter: Record<string, unknown>): string | undefined {
  const { description, compatibility, metadata } = frontmatter;
  if (typeof description !== 'string' || description === '' || [...description].length > 1024)
    return 'the description must be 1-1024 characters';
  if (
    compatibility !== undefined &&
    (typeof compatibility !== 'string' || compatibility === '' || [...compatibility].length > 500)
  )
    return 'frontmatter compatibility must be a string of 1-500 characters';
  if (
    metadata !== undefined &&
    (metadata === null ||
      typeof metadata !== 'object' ||
      Array.isArray(metadata) ||
      !Object.values(metadata).every((v) => typeof v === 'string'))
  )
    return 'frontmatter metadata must map strings to strings';
  return undefined;
}

/** `sha256:` and the 64 lowercase hex digits of the SHA-256 of `bytes` (Web Crypto). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/**
 * The frontmatter of a `SKILL.md`'s text as JSON (BOM and CRLF tolerated), or undefined when the
 * text has no leading `---` block. Rejects with `INVALID_ARGUMENT` when the block is not a YAML mapping.
 */
export async function frontmatterOf(text: string, where: string): Promise<Record<string, unknown> | undefined> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(
    text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
  );
  if (!match) return undefined;
  const yaml = await skillYamlReader();
  if (!yaml)
    throw new McpError(
      'INVALID_ARGUMENT',
      `${where}: a given SKILL.md needs a YAML reader, which only the Node entry of mcpwire/server has; ` +
        'give "instructions" and "frontmatter" instead and the kit writes SKILL.md',
    );
  let value: unknown;
  try {
    value = yaml.parse(match[1]!);
  } catch (error) {
    throw new McpError('INVALID_ARGUMENT', `${where}: the SKILL.md frontmatter is not YAML`, { cause: error });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new McpError('INVALID_ARGUMENT', `${where}: the SKILL.md frontmatter is not a mapping`);
  // The entry carries it as JSON: what JSON cannot say (a date, a map with object keys) is refused.
  const json: unknown = JSON.parse(JSON.stringify(value));
  if (!isDeepEqual(json, value))
    throw new McpError('INVALID_ARGUMENT', `${where}: the SKILL.md frontmatter holds values JSON cannot carry`);
  return json as Record<string, unknown>;
}

async function givenFrontmatter(definition: SkillDefinition, text: string): Promise<SkillFrontmatter> {
  const where = `skill "${definition.name}"`;
  const frontmatter = await frontmatterOf(text, where);
  if (!frontmatter) throw invalid(definition, 'files["SKILL.md"] must begin with YAML frontmatter between "---" lines');
  for (const field of ['name', 'description'] as const)
    if (frontmatter[field] !== definition[field])
      throw invalid(
        definition,
        `files["SKILL.md"] states ${field} ${JSON.stringify(frontmatter[field])}, the definition ${JSON.stringify(definition[field])}`,
      );
  return frontmatter as SkillFrontmatter;
}

function generatedFrontmatter(definition: SkillDefinition): SkillFrontmatter {
  const extra = definition.frontmatter ?? {};
  if (extra === null || typeof extra !== 'object' || Array.isArray(extra))
    throw invalid(definition, '"frontmatter" must be an object');
  for (const field of ['name', 'description'] as const)
    if (field in extra && extra[field] !== definition[field])
      throw invalid(definition, `frontmatter.${field} differs from the definition's "${field}"`);
  const frontmatter = { ...extra, name: definition.name, description: definition.description };
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(frontmatter));
  } catch (error) {
    throw new McpError('INVALID_ARGUMENT', `skill "${definition.name}": "frontmatter" is not JSON`, { cause: error });
  }
  if (!isDeepEqual(json, frontmatter)) throw invalid(definition, '"frontmatter" holds values JSON cannot carry');
  const { name, description, ...rest } = json as SkillFrontmatter;
  return { name, description, ...rest };
}

/**
 * A `SKILL.md` for `frontmatter` and `body`: block-style YAML whose scalars and keys are JSON
 * (double-quoted YAML is a superset of JSON strings), so no YAML writer is needed and any YAML
 * 1.2 reader gives the same JSON back.
 */
export function skillMarkdown(frontmatter: Record<string, unknown>, body: string): string {
  const lines = Object.entries(frontmatter).flatMap(([key, value]) => yamlLines(key, value, ''));
  return `---\n${lines.join('\n')}\n---\n${body === '' ? '' : `\n${body}${body.endsWith('\n') ? '' : '\n'}`}`;
}

function yamlLines(key: string, value: unknown, indent: string): string[] {
  const head = `${indent}${JSON.stringify(key)}:`;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0)
    return [head, ...Object.entries(value).flatMap(([k, v]) => yamlLines(k, v, `${indent}  `))];
  if (Array.isArray(value) && value.length > 0)
    return [head, ...value.flatMap((item) => yamlItem(item, `${indent}  `))];
  return [`${head} ${JSON.stringify(value)}`];
}

/** A sequence item: JSON, which is also YAML (flow style for a collection). */
function yamlItem(value: unknown, indent: string): string[] {
  return [`${indent}- ${JSON.stringify(value)}`];
}

const MIME_TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
};

/** A file's MIME type by its extension; unknown: text/plain for text given as a string, else octet-stream. */
export function mimeTypeOf(path: string, givenAsText: boolean): string {
  const dot = path.lastIndexOf('.');
  const known = dot > path.lastIndexOf('/') ? MIME_TYPES[path.slice(dot + 1).toLowerCase()] : undefined;
  return known ?? (givenAsText ? 'text/plain' : 'application/octet-stream');
}

const TEXT_TYPES = /^(?:text\/|application\/(?:json|yaml|xml)$|image\/svg\+xml$)/;

/** The text a file is served as: a string source always; bytes when they are UTF-8 of a textual type. */
function servedText(bytes: Uint8Array, source: string | Uint8Array, mimeType: string): string | undefined {
  if (typeof source !== 'string' && !TEXT_TYPES.test(mimeType)) return undefined;
  // Exactly the bytes the digest covers: a leading BOM is kept, and a string's lone surrogates
  // (which UTF-8 cannot carry) are served as the replacement character the bytes hold.
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

function isPrefixSegment(segment: string): boolean {
  return /^(?:[A-Za-z0-9\-._~!$&'()*+,;=@:]|%[0-9A-Fa-f]{2})+$/.test(segment) && segment !== '.' && segment !== '..';
}

function isPathSegment(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !/[\\?#\0]/.test(segment);
}

function invalid(definition: SkillDefinition, problem: string): McpError {
  return new McpError('INVALID_ARGUMENT', `skill "${String(definition.name)}": ${problem}`);
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(b) !== Object.prototype && !Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && isDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}
