/**
 * The wire shapes of the skills extension (`io.modelcontextprotocol/skills`, SEP-2640), written
 * against the 2026-07-28 base: `skills/list` (paginated), `skills/get`, and
 * `resources/directory/read` when the server declares `directoryRead`. A skill's files are plain
 * resources (`resources/read`); its entry lists every one with the `sha256:` digest and size of
 * its raw bytes, so a host can refuse what does not match. Types only.
 */
import type { Annotations, Icon, Meta, PaginatedParams, ResultBase } from '../types.js';

/** The settings a server advertises under `capabilities.extensions[EXTENSION_IDS.skills]`. */
export interface SkillsCapability {
  /** The server answers `resources/directory/read`; a client MUST NOT call it otherwise. */
  directoryRead?: boolean;
  [key: string]: unknown;
}

/** One file of a skill: its resource URI and what verifies its raw bytes. */
export interface SkillResourceEntry {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits of the raw bytes. */
  digest: string;
  /** The raw bytes' length. */
  size: number;
  [key: string]: unknown;
}

/** A `SKILL.md`'s frontmatter as JSON, verbatim: `name` and `description` and whatever else it holds. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/** One skill as `skills/list` and `skills/get` carry it. */
export interface Skill {
  /** The URI of the skill's `SKILL.md` (`skill://<skill-path>/SKILL.md`). */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill, `SKILL.md` included, or `"dynamic"` when the server cannot list them. */
  resources: SkillResourceEntry[] | 'dynamic';
  _meta?: Meta;
  [key: string]: unknown;
}

/** Params of `skills/list`. */
export type ListSkillsParams = PaginatedParams;

/** Result of `skills/list`: one page of entries (an entry is never split across pages). */
export interface ListSkillsResult extends ResultBase {
  skills: Skill[];
  nextCursor?: string;
}

/** Params of `skills/get`. */
export interface GetSkillParams {
  uri: string;
  _meta?: Meta;
}

/** Result of `skills/get`. */
export interface GetSkillResult extends ResultBase {
  skill: Skill;
}

/** One entry of a directory listing (`inode/directory` for a subdirectory). */
export interface DirectoryResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
  [key: string]: unknown;
}

/** Params of `resources/directory/read`. */
export interface ReadResourceDirectoryParams extends PaginatedParams {
  uri: string;
}

/** Result of `resources/directory/read`. */
export interface ReadResourceDirectoryResult extends ResultBase {
  resources: DirectoryResource[];
  nextCursor?: string;
}

/** The MIME type of a directory in a listing. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** The per-skill limits a host MUST accept up to (SEP-2640): files in an entry, and the sum of their sizes. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;
