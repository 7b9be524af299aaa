/**
 * A `SKILL.md`'s YAML frontmatter, and its comparison with the entry's (SEP-2640: field by field;
 * the file wins nothing, a difference refuses it). The YAML parser loads on first use.
 */
import { sameJson } from '../../util/same-json.js';

/** The frontmatter as JSON and the Markdown after it; `undefined` frontmatter when there is none. */
export interface SplitSkillMd {
  frontmatter: Record<string, unknown> | undefined;
  body: string;
}

/** Splits `text` (a BOM and CRLF line ends tolerated) into its parsed frontmatter and body. */
export async function splitSkillMd(text: string): Promise<SplitSkillMd> {
  const normal = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(normal);
  if (!match) return { frontmatter: undefined, body: normal };
  const { parse } = await import('yaml');
  const parsed: unknown = parse(match[1]!, { schema: 'core' });
  const frontmatter =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { frontmatter, body: normal.slice(match[0].length) };
}

/** The top-level fields whose values differ between `listed` and `found` (JSON deep equality), sorted. */
export function frontmatterDifferences(
  listed: Record<string, unknown>,
  found: Record<string, unknown> | undefined,
): string[] {
  const keys = new Set([...Object.keys(listed), ...Object.keys(found ?? {})]);
  return [...keys].filter((key) => !sameJson(listed[key], found?.[key])).sort();
}
