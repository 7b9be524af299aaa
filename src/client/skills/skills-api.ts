/**
 * `client.skills`: the host side of the skills extension (SEP-2640). Listing reads no file (no
 * retrieval ahead of need); reading a file needs an entry that lists it, held from `list` or
 * `get`, and returns its bytes only once they match the entry (size, then digest; a `SKILL.md`
 * also its frontmatter, field by field). A skill whose `SKILL.md` was refused stays refused: no
 * more of its files are read. Runtime-neutral (Web Crypto; the YAML parser loads on first use).
 */
import { McpError } from '../../protocol/errors.js';
import { EXTENSION_IDS, extensionSettings } from '../../protocol/extensions/ids.js';
import { SKILL_LIMITS, type DirectoryResource, type Skill } from '../../protocol/extensions/skills-types.js';
import type { ReadResourceResult, ServerCapabilities } from '../../protocol/types.js';
import type { CallOptions } from '../options.js';
import { walkPages, type Page } from '../pagination.js';
import { bytesFromBase64 } from '../../util/base64url.js';
import { checkSkillEntry, type CheckedSkill } from './skill-entry-check.js';
import { verifiedBytes, type ReadContent } from './skill-file-check.js';
import { frontmatterDifferences, splitSkillMd } from './skill-frontmatter.js';
import { SkillVerificationError, type SkillRejection } from './skill-verification-error.js';

const SKILLS = EXTENSION_IDS.skills;

/** What the skills API needs of its client. */
export interface SkillsHost {
  readonly name: string;
  readonly capabilities: ServerCapabilities;
  extensionRequest(
    id: string,
    method: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>;
}

/** Every skill the server listed, and the entries refused (each with why; none of their files is read). */
export interface SkillListing {
  skills: Skill[];
  invalid: Array<{ index: number; uri?: string; reason: string }>;
}

/** One verified (or, in a `dynamic` skill, unverifiable) skill file. */
export interface SkillFile {
  uri: string;
  mimeType?: string;
  bytes: Uint8Array;
  /** The text, when the server sent it as text. */
  text?: string;
  /** True when size and digest matched a listed entry; false in a skill whose resources are `dynamic`. */
  verified: boolean;
  /** `SKILL.md` only: its frontmatter (equal to the entry's) and the Markdown after it. */
  frontmatter?: Record<string, unknown>;
  body?: string;
}

/** Options of {@link SkillsApi.read}. */
export interface SkillReadOptions extends CallOptions {
  /** The skill the file belongs to (its entry or its `SKILL.md` URI), when several held skills could list it. */
  skill?: Skill | string;
}

export class SkillsApi {
  /** The entries held from `list` and `get`, by their `SKILL.md` URI. */
  private readonly held = new Map<string, CheckedSkill>();
  /** Skills refused once (their `SKILL.md` or a limit), by `SKILL.md` URI: nothing more of them is read. */
  private readonly refused = new Map<string, SkillVerificationError>();
  /** Bytes read so far per `dynamic` skill, against the per-skill limit. */
  private readonly dynamicBytes = new Map<string, number>();

  constructor(
    private readonly host: SkillsHost,
    private readonly maxPages: number,
  ) {}

  /** Whether the server advertised the skills extension. */
  get supported(): boolean {
    return extensionSettings(this.host.capabilities, SKILLS) !== undefined;
  }

  /** Whether the server answers `resources/directory/read` (its `directoryRead` setting). */
  get directoryRead(): boolean {
    return extensionSettings(this.host.capabilities, SKILLS)?.directoryRead === true;
  }

  /**
   * Every page of `skills/list`. Entries that break the extension's rules are left out and
   * reported in `invalid`; nothing of any skill is read. `CAPABILITY_MISSING`, nothing sent,
   * when the server did not advertise skills.
   */
  async list(options: CallOptions = {}): Promise<SkillListing> {
    const walked = await walkPages<unknown>(
      async (cursor): Promise<Page<unknown>> => {
        const result = await this.host.extensionRequest(
          SKILLS,
          'skills/list',
          cursor === undefined ? {} : { cursor },
          options,
        );
        if (!Array.isArray(result.skills))
          throw this.protocol('skills/list', 'returned a result without a "skills" array');
        const next = result.nextCursor;
        return { items: result.skills, nextCursor: typeof next === 'string' ? next : undefined, ttlMs: undefined };
      },
      this.maxPages,
      this.host.name,
      'skills/list',
    );
    const listing: SkillListing = { skills: [], invalid: [] };
    walked.items.forEach((item, index) => {
      const checked = checkSkillEntry(item);
      if ('problem' in checked) {
        listing.invalid.push({ index, ...(checked.uri ? { uri: checked.uri } : {}), reason: checked.problem });
        return;
      }
      this.hold(checked);
      listing.skills.push(checked.entry);
    });
    return listing;
  }

  /** `skills/get` of a `SKILL.md` URI: the entry, checked and held. Refuses an invalid entry with `SKILL_REJECTED`. */
  async get(uri: string, options: CallOptions = {}): Promise<Skill> {
    const result = await this.host.extensionRequest(SKILLS, 'skills/get', { uri }, options);
    const checked = checkSkillEntry(result.skill);
    if ('problem' in checked)
      throw new SkillVerificationError(checked.limit ? 'limit' : 'invalid-entry', checked.problem, {
        server: this.host.name,
        method: 'skills/get',
        uri,
      });
    if (checked.entry.uri !== uri)
      throw new SkillVerificationError('invalid-entry', `skills/get answered for ${checked.entry.uri}`, {
        server: this.host.name,
        method: 'skills/get',
        uri,
      });
    this.hold(checked);
    return checked.entry;
  }

  /**
   * Reads one file of a held skill and returns it verified. A `SKILL.md` no held entry lists is
   * fetched with `skills/get` first; any other file no held entry lists is refused (`unlisted`)
   * with nothing sent, as is every file of a skill refused before.
   */
  async read(uri: string, options: SkillReadOptions = {}): Promise<SkillFile> {
    const { skill: which, ...callOptions } = options;
    const skill = await this.skillFor(uri, which, callOptions);
    const prior = this.refused.get(skill.entry.uri);
    if (prior) throw prior;
    const listed = skill.files?.get(uri);
    if (skill.files && !listed) throw this.reject('unlisted', `${uri} is not listed by ${skill.entry.uri}`, uri);
    const result = await this.host.readResource(uri, callOptions);
    const contents = Array.isArray(result.contents) ? (result.contents as ReadContent[]) : [];
    const content = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
    if (!content) throw this.protocol('resources/read', `returned no contents for ${uri}`);
    let file: SkillFile;
    try {
      file = listed
        ? { uri, ...(await verifiedBytes(content, listed, { uri, server: this.host.name })), verified: true }
        : { uri, ...this.dynamicRead(skill, content, uri), verified: false };
    } catch (error) {
      if (uri === skill.entry.uri && error instanceof SkillVerificationError) this.refused.set(uri, error);
      throw error;
    }
    if (file.text === undefined) delete file.text;
    if (typeof content.mimeType === 'string') file.mimeType = content.mimeType;
    if (uri === skill.entry.uri) await this.checkSkillMd(skill, file);
    return file;
  }

  /**
   * Every page of `resources/directory/read` for a directory URI of a skill. `CAPABILITY_MISSING`,
   * nothing sent, unless the server declared `directoryRead`.
   */
  async readDirectory(uri: string, options: CallOptions = {}): Promise<DirectoryResource[]> {
    const walked = await walkPages<DirectoryResource>(
      async (cursor) => {
        const params: Record<string, unknown> = cursor === undefined ? { uri } : { uri, cursor };
        const result = await this.host.extensionRequest(SKILLS, 'resources/directory/read', params, options);
        if (!Array.isArray(result.resources))
          throw this.protocol('resources/directory/read', 'returned a result without a "resources" array');
        const next = result.nextCursor;
        return {
          items: result.resources as DirectoryResource[],
          nextCursor: typeof next === 'string' ? next : undefined,
          ttlMs: undefined,
        };
      },
      this.maxPages,
      this.host.name,
      'resources/directory/read',
    );
    return walked.items;
  }

  private hold(checked: CheckedSkill): void {
    const before = this.held.get(checked.entry.uri);
    // A changed entry is a new skill: what was refused of the old one is forgotten.
    if (before && JSON.stringify(before.entry) !== JSON.stringify(checked.entry)) {
      this.refused.delete(checked.entry.uri);
      this.dynamicBytes.delete(checked.entry.uri);
    }
    this.held.set(checked.entry.uri, checked);
  }

  /** The held skill `uri` belongs to: the one named, else the innermost whose root holds it. */
  private async skillFor(uri: string, which: Skill | string | undefined, options: CallOptions): Promise<CheckedSkill> {
    if (which !== undefined) {
      const skillUri = typeof which === 'string' ? which : which.uri;
      const held = this.held.get(skillUri);
      if (held) return held;
      await this.get(skillUri, options);
      return this.held.get(skillUri)!;
    }
    let best: CheckedSkill | undefined;
    for (const skill of this.held.values())
      if ((uri === skill.entry.uri || uri.startsWith(`${skill.root}/`)) && (!skill.files || skill.files.has(uri)))
        if (!best || skill.root.length > best.root.length) best = skill;
    if (best) return best;
    if (uri.startsWith('skill://') && uri.endsWith('/SKILL.md')) {
      await this.get(uri, options);
      return this.held.get(uri)!;
    }
    throw this.reject('unlisted', `${uri} is not listed by any skill this client holds`, uri);
  }

  /** A file of a `dynamic` skill: no entry to verify it against, but the per-skill byte limit holds. */
  private dynamicRead(skill: CheckedSkill, content: ReadContent, uri: string): { bytes: Uint8Array; text?: string } {
    const spent = this.dynamicBytes.get(skill.entry.uri) ?? 0;
    const left = SKILL_LIMITS.bytes - spent;
    const encoded =
      typeof content.text === 'string' ? content.text : typeof content.blob === 'string' ? content.blob : undefined;
    if (encoded === undefined) throw this.protocol('resources/read', `returned neither text nor blob for ${uri}`);
    // Bounded before decoding: text is never fewer bytes than units, base64 never fewer characters than 4/3 bytes.
    const atLeast = typeof content.text === 'string' ? encoded.length : Math.floor((encoded.length * 3) / 4) - 2;
    if (atLeast > left)
      throw this.reject('limit', `${skill.entry.uri} passed the ${SKILL_LIMITS.bytes} bytes a skill may have`, uri);
    const bytes = typeof content.text === 'string' ? new TextEncoder().encode(content.text) : bytesFromBase64(encoded);
    if (!bytes) throw this.protocol('resources/read', `returned a blob for ${uri} that is not base64`);
    if (bytes.length > left)
      throw this.reject('limit', `${skill.entry.uri} passed the ${SKILL_LIMITS.bytes} bytes a skill may have`, uri);
    this.dynamicBytes.set(skill.entry.uri, spent + bytes.length);
    return typeof content.text === 'string' ? { bytes, text: content.text } : { bytes };
  }

  /** A `SKILL.md`'s frontmatter must equal its entry's; a difference refuses it and, from then on, its skill. */
  private async checkSkillMd(skill: CheckedSkill, file: SkillFile): Promise<void> {
    const text = file.text ?? new TextDecoder().decode(file.bytes);
    const { frontmatter, body } = await splitSkillMd(text);
    const differences = frontmatterDifferences(skill.entry.frontmatter, frontmatter);
    if (differences.length > 0) {
      const error = new SkillVerificationError(
        'frontmatter',
        `${file.uri}: its frontmatter differs from its entry in ${differences.map((d) => `"${d}"`).join(', ')}`,
        { server: this.host.name, method: 'resources/read', uri: file.uri, differences },
      );
      this.refused.set(skill.entry.uri, error);
      throw error;
    }
    file.frontmatter = frontmatter;
    file.body = body;
  }

  private reject(rejection: SkillRejection, reason: string, uri: string): SkillVerificationError {
    return new SkillVerificationError(rejection, reason, { server: this.host.name, method: 'resources/read', uri });
  }

  private protocol(method: string, reason: string): McpError {
    return new McpError('PROTOCOL', reason, { server: this.host.name, method });
  }
}
