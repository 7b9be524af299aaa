/**
 * JSON that can sit inside an HTML `<script type="application/json">` element and be read back
 * with `JSON.parse(element.textContent)` unchanged, whatever the strings in it hold.
 */

const UNSAFE: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * `JSON.stringify(value)` with `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX` escapes.
 * Those characters can only occur inside JSON strings, where the escapes mean the same
 * character, so the text parses back to the same value; and without a literal `<` the text can
 * never close the script element (`</script>`) or open a comment (`<!--`) that changes how the
 * HTML parser reads it. Throws what `JSON.stringify` throws (a cycle, a BigInt).
 */
export function embedJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => UNSAFE[c]!);
}
