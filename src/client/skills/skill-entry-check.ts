/**
 * The checks of one skill entry (SEP-2640) a host makes before reading anything of it: its URI
 * (`skill://<skill-path>/SKILL.md`), its frontmatter's name (the skill path's last segment), every
 * listed file under the skill's root with a `sha256:` digest and a size, `SKILL.md` among them,
 * and the per-skill limits. Pure.
 */
import { SKILL_LIMITS, type Skill, type SkillResourceEntry } from '../../protocol/extensions/skills-types.js';

const NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const SKILL_MD = '/SKILL.md';

/** The skill's root: its `SKILL.md` URI without `/SKILL.md` (`skill://acme/pdf`). */
export function skillRoot(entry: Pick<Skill, 'uri'>): string {
  return entry.uri.slice(0, -SKILL_MD.length);
}

/** An entry that passed {@link checkSkillEntry}: its listed files by URI (none when `dynamic`). */
export interface CheckedSkill {
  entry: Skill;
  root: string;
  files: ReadonlyMap<string, SkillResourceEntry> | undefined;
}

/** The entry checked, or the first rule it breaks (a sentence naming the field) and whether it is a limit. */
export function checkSkillEntry(value: unknown): CheckedSkill | { problem: string; limit?: true; uri?: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'an entry is not an object' };
  const entry = value as Skill;
  const uri = entry.uri;
  if (typeof uri !== 'string' || !uri.startsWith('skill://') || !uri.endsWith(SKILL_MD))
    return { problem: `"uri" must be skill://<skill-path>/SKILL.md` };
  const fm = entry.frontmatter;
  if (fm === null || typeof fm !== 'object' || Array.isArray(fm)) return { problem: '"frontmatter" is missing', uri };
  if (typeof fm.name !== 'string' || !NAME.test(fm.name))
    return { problem: `frontmatter "name" is not a skill name (lowercase letters, digits, single hyphens)`, uri };
  if (typeof fm.description !== 'string' || fm.description === '')
    return { problem: 'frontmatter "description" is missing', uri };
  const root = skillRoot(entry);
  if (root.slice(root.lastIndexOf('/') + 1) !== fm.name)
    return { problem: `the skill path must end in its name "${fm.name}"`, uri };
  if (entry.resources === 'dynamic') return { entry, root, files: undefined };
  if (!Array.isArray(entry.resources)) return { problem: '"resources" must be an array or "dynamic"', uri };
  if (entry.resources.length > SKILL_LIMITS.files)
    return {
      problem: `${entry.resources.length} files, more than the ${SKILL_LIMITS.files} a skill may have`,
      limit: true,
      uri,
    };
  const files = new Map<string, SkillResourceEntry>();
  let bytes = 0;
  for (const file of entry.resources) {
    if (file === null || typeof file !== 'object') return { problem: 'a "resources" item is not an object', uri };
    if (typeof file.uri !== 'string' || !file.uri.startsWith(`${root}/`))
      return { problem: `a listed file is not under the skill's root ${root}`, uri };
    if (typeof file.digest !== 'string' || !DIGEST.test(file.digest))
      return { problem: `${file.uri}: "digest" must be sha256: and 64 lowercase hex digits`, uri };
    if (!Number.isSafeInteger(file.size) || file.size < 0)
      return { problem: `${file.uri}: "size" must be a byte count`, uri };
    if (files.has(file.uri)) return { problem: `${file.uri} is listed twice`, uri };
    files.set(file.uri, file);
    bytes += file.size;
  }
  if (bytes > SKILL_LIMITS.bytes)
    return { problem: `${bytes} bytes listed, more than the ${SKILL_LIMITS.bytes} a skill may have`, limit: true, uri };
  if (!files.has(uri)) return { problem: 'its SKILL.md is not among its "resources"', uri };
  return { entry, root, files };
}
