/**
 * The shape of one content block (tool results, prompt messages) per revision: its `type` must
 * be one the revision has and the fields that type requires must be there.
 * Spec: `<rev>/server/tools.mdx` "Tool Result" (Text/Image/Audio Content, Resource Links,
 * Embedded Resources); schema.ts `ContentBlock` (2025-06-18+) or the inline unions before it.
 */
import { hasFeature, isSupportedRevision } from '../../protocol/revisions.js';
import { at, firstMissingString, isObject, mustBe } from './field-checks.js';

/** The block types of `revision` (all of them for a revision mcpwire does not know). */
export function contentTypesOf(revision: string | undefined): string[] {
  const known = revision !== undefined && isSupportedRevision(revision);
  const types = ['text', 'image', 'resource'];
  // audio: 2025-03-26/changelog.mdx; resource_link: 2025-06-18/changelog.mdx.
  if (!known || hasFeature(revision, 'audioContent')) types.push('audio');
  if (!known || hasFeature(revision, 'resourceLinks')) types.push('resource_link');
  return types;
}

/**
 * The first problem with the content block `block` at `path`, or undefined when it is well
 * formed for `revision`. One problem per block: a broken block is reported once.
 */
export function contentBlockProblem(block: unknown, path: string, revision: string | undefined): string | undefined {
  if (!isObject(block)) return mustBe(path, 'a content block object', block);
  const types = contentTypesOf(revision);
  if (typeof block.type !== 'string' || !types.includes(block.type)) {
    const where = revision ? ` in ${revision}` : '';
    return mustBe(at(path, 'type'), `one of ${types.map((t) => `"${t}"`).join(', ')}${where}`, block.type);
  }
  switch (block.type) {
    case 'text':
      return firstMissingString(block, path, ['text']);
    case 'image':
    case 'audio':
      return firstMissingString(block, path, ['data', 'mimeType']);
    case 'resource_link':
      return firstMissingString(block, path, ['uri', 'name']);
    default:
      return resourceContentsProblem(block.resource, at(path, 'resource'));
  }
}

/**
 * The first problem with one resource contents object (`resources/read` contents, embedded
 * resources): a `uri` string and a `text` or `blob` string. Spec: `<rev>/server/resources.mdx`
 * "Resource Contents".
 */
export function resourceContentsProblem(contents: unknown, path: string): string | undefined {
  if (!isObject(contents)) return mustBe(path, 'a resource contents object', contents);
  if (typeof contents.uri !== 'string') return mustBe(at(path, 'uri'), 'a string', contents.uri);
  if (typeof contents.text === 'string' || typeof contents.blob === 'string') return undefined;
  return `${path} must carry a "text" or a "blob" string (it has neither)`;
}
