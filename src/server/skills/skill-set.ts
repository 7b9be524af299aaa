/**
 * The skills a server publishes: registration (disposers; a skill is listed once its digests are
 * computed, and `skills/list` waits for that), pages of entries (an entry is never split), one
 * entry by its `SKILL.md` URI, a file's contents by URI, and the directories the files imply
 * (`skill://acme`, `skill://acme/refunds`, `skill://acme/refunds/templates`), each listed with
 * its direct children. Registration order is listing order.
 */
import { McpError } from '../../protocol/errors.js';
import type { Disposer } from '../../protocol/transport.js';
import type { Resource, ResourceContents } from '../../protocol/types.js';
import {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  type DirectoryResource,
  type Skill,
} from '../../protocol/extensions/skills-types.js';
import { base64urlFromBytes } from '../../util/base64url.js';
import { ChangeListeners, pageOf } from '../change-listeners.js';
import type { ServerLogger } from '../server-types.js';
import { buildSkill, checkDefinition, type BuiltSkill, type SkillDefinition, type SkillFile } from './skill-entry.js';

/** The disposer of a registered skill, and when it is listed. */
export interface SkillRegistration extends Disposer {
  /** Resolves with the skill's entry once it is listed; rejects with `INVALID_ARGUMENT` when it was refused. */
  readonly ready: Promise<Skill>;
}

interface Registration {
  uri: string;
  built: Promise<BuiltSkill>;
}

/** What a URI names among the skills' files and directories. */
type Found = { kind: 'file'; file: SkillFile } | { kind: 'directory'; children: DirectoryResource[] };

export class SkillSet {
  private readonly skills = new Map<string, Registration>();
  /** Told when a skill is added or withdrawn: the server publishes `resources` list_changed (skills have none). */
  readonly changes = new ChangeListeners();

  constructor(private readonly logger: ServerLogger) {}

  /** Skills registered now (hashed or not). */
  get size(): number {
    return this.skills.size;
  }

  /**
   * Registers `definition`. Throws `INVALID_ARGUMENT` at once for a bad definition or a `SKILL.md`
   * URI already registered; a given `SKILL.md` is read when the skill is built (digests are
   * async): one whose frontmatter disagrees is logged and withdrawn, and `ready` rejects with
   * `INVALID_ARGUMENT`.
   */
  add(definition: SkillDefinition): SkillRegistration {
    const { root } = checkDefinition(definition);
    const uri = `${root}/SKILL.md`;
    if (this.skills.has(uri)) throw new McpError('INVALID_ARGUMENT', `skill "${uri}" is already registered`);
    const registration: Registration = { uri, built: buildSkill(definition) };
    this.skills.set(uri, registration);
    const dispose = (): void => {
      if (this.skills.get(uri) !== registration) return;
      this.skills.delete(uri);
      this.changes.emit();
    };
    const ready = registration.built.then(
      (skill) => {
        this.checkLimits(skill);
        return skill.entry;
      },
      (error: unknown) => {
        this.logger({
          level: 'error',
          msg: 'skill refused',
          skill: uri,
          error: error instanceof Error ? error.message : 'a non-Error value',
        });
        dispose();
        throw error;
      },
    );
    // Awaiting `ready` is optional: a refusal is logged either way, never an unhandled rejection.
    ready.catch(() => undefined);
    this.changes.emit();
    return Object.assign(dispose, { ready });
  }

  /** One page of entries, in registration order; a cursor not made here throws `INVALID_ARGUMENT`. */
  async page(cursor: unknown, pageSize: number): Promise<{ skills: Skill[]; nextCursor?: string }> {
    const { items, nextCursor } = pageOf(
      (await this.current()).map((s) => s.entry),
      cursor,
      pageSize,
      invalidCursor,
    );
    return nextCursor === undefined ? { skills: items } : { skills: items, nextCursor };
  }

  /** The entry whose `SKILL.md` is at `uri`, or undefined. */
  async get(uri: string): Promise<Skill | undefined> {
    const registration = this.skills.get(uri);
    return registration ? (await settled(registration))?.entry : undefined;
  }

  /** The `SKILL.md` of every skill as `resources/list` shows it (name and description from the frontmatter). */
  async listedResources(): Promise<Resource[]> {
    return (await this.current()).map(({ entry, files }) => ({
      uri: entry.uri,
      name: entry.frontmatter.name,
      description: entry.frontmatter.description,
      mimeType: files[0]!.mimeType,
      size: files[0]!.bytes.length,
    }));
  }

  /** The contents of skill file `uri`, or undefined when no skill has that file (a directory is no file). */
  async read(uri: string): Promise<ResourceContents[] | undefined> {
    const found = await this.find(uri);
    if (found?.kind !== 'file') return undefined;
    const { file } = found;
    return [
      file.text !== undefined
        ? { uri: file.uri, mimeType: file.mimeType, text: file.text }
        : { uri: file.uri, mimeType: file.mimeType, blob: base64FromBytes(file.bytes) },
    ];
  }

  /**
   * One page of the direct children of directory `uri` (files with their metadata, subdirectories
   * as `inode/directory`), sorted by URI; undefined when `uri` is no directory of a skill.
   */
  async readDirectory(
    uri: string,
    cursor: unknown,
    pageSize: number,
  ): Promise<{ resources: DirectoryResource[]; nextCursor?: string } | undefined> {
    const found = await this.find(uri);
    if (found?.kind !== 'directory') return undefined;
    const { items, nextCursor } = pageOf(found.children, cursor, pageSize, invalidCursor);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  /** Whether `uri` is a skill's file or directory (the skill set answers reads of it). */
  async has(uri: string): Promise<boolean> {
    return (await this.find(uri)) !== undefined;
  }

  /** The built skills registered now, in order (a refused one left out). */
  private async current(): Promise<BuiltSkill[]> {
    const built = await Promise.all([...this.skills.values()].map(settled));
    return built.filter((skill): skill is BuiltSkill => skill !== undefined);
  }

  private async find(uri: string): Promise<Found | undefined> {
    const skills = await this.current();
    for (const skill of skills) {
      const file = skill.files.find((f) => f.uri === uri);
      if (file) return { kind: 'file', file };
    }
    const children = new Map<string, DirectoryResource>();
    const below = `${uri}/`;
    for (const skill of skills) {
      for (const file of skill.files) {
        if (!file.uri.startsWith(below)) continue;
        const rest = file.uri.slice(below.length);
        const slash = rest.indexOf('/');
        const name = slash === -1 ? rest : rest.slice(0, slash);
        const child = `${below}${name}`;
        if (children.has(child)) continue;
        children.set(
          child,
          slash === -1
            ? { uri: child, name, mimeType: file.mimeType, size: file.bytes.length }
            : { uri: child, name, mimeType: DIRECTORY_MIME_TYPE },
        );
      }
    }
    // The scheme's root (`skill:/`) is no directory: a directory has at least its authority.
    if (children.size === 0 || !/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i.test(uri)) return undefined;
    return {
      kind: 'directory',
      children: [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)),
    };
  }

  /** SEP-2640: servers SHOULD NOT serve a skill past the limits hosts must accept; logged. */
  private checkLimits(skill: BuiltSkill): void {
    const resources = skill.entry.resources as { size: number }[];
    const bytes = resources.reduce((sum, r) => sum + r.size, 0);
    if (resources.length > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes)
      this.logger({
        level: 'warning',
        msg: 'skill exceeds the limits hosts must accept (512 files, 16 MiB)',
        skill: skill.entry.uri,
        files: resources.length,
        bytes,
      });
  }
}

/** The built skill, or undefined when it was refused (its registration is then withdrawn). */
function settled(registration: Registration): Promise<BuiltSkill | undefined> {
  return registration.built.catch(() => undefined);
}

function base64FromBytes(bytes: Uint8Array): string {
  // base64url → base64 with padding: the same alphabet but two characters, then `=` to a multiple of 4.
  const url = base64urlFromBytes(bytes).replace(/-/g, '+').replace(/_/g, '/');
  return url + '='.repeat((4 - (url.length % 4)) % 4);
}

function invalidCursor(): never {
  throw new McpError('INVALID_ARGUMENT', 'invalid cursor');
}
