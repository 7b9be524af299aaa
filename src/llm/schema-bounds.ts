/**
 * `exclusiveMinimum` / `exclusiveMaximum` into inclusive bounds, for every profile. Gemini
 * rejects the keywords outright (`Unknown name "exclusiveMinimum"`), and Zod's `.positive()` or
 * Pydantic's `gt=` put them in many MCP tool schemas.
 *
 * - Integer-only nodes: `> n` becomes `>= n + 1` (`< n`: `<= n - 1`), which is exact.
 * - Other nodes: the inclusive bound `n` is used (admitting `n` itself) and `must be > n` is added
 *   to `description`, so the model still reads the exact rule.
 * - An exclusive bound the inclusive one already implies is just removed.
 * - Draft 4's boolean form (`exclusiveMinimum: true` beside `minimum`) is read the same way.
 */
import { addNote, type CleanContext, type JsonObject, record, show } from './schema-support.js';

const SIDES = [
  { exclusive: 'exclusiveMinimum', inclusive: 'minimum', operator: '>', step: 1 },
  { exclusive: 'exclusiveMaximum', inclusive: 'maximum', operator: '<', step: -1 },
] as const;

/** Rewrites both exclusive bounds of `node` (a fresh copy) in place. */
export function applyExclusiveBounds(node: JsonObject, path: string, ctx: CleanContext): void {
  for (const side of SIDES) {
    if (!Object.hasOwn(node, side.exclusive)) continue;
    const value = node[side.exclusive];
    delete node[side.exclusive];
    const inclusive = node[side.inclusive];
    let bound: number;
    if (typeof value === 'number' && Number.isFinite(value)) {
      bound = value;
    } else if (value === true && typeof inclusive === 'number') {
      bound = inclusive; // draft 4: the inclusive keyword holds the bound, the flag makes it strict
    } else {
      const why =
        value === false
          ? 'false has no effect'
          : value === true
            ? `true without ${side.inclusive} has no effect`
            : `${show(value)} is not a number`;
      record(ctx, path, side.exclusive, 'removed', why);
      continue;
    }
    const stricter = side.step > 0 ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
    if (value !== true && typeof inclusive === 'number' && stricter(inclusive, bound)) {
      record(
        ctx,
        path,
        side.exclusive,
        'removed',
        `${side.exclusive} ${bound} is implied by ${side.inclusive} ${inclusive}`,
      );
    } else if (isIntegerOnly(node.type) && Number.isInteger(bound)) {
      node[side.inclusive] = bound + side.step;
      record(
        ctx,
        path,
        side.exclusive,
        'rewritten',
        `${side.exclusive} ${bound} ⇒ ${side.inclusive} ${bound + side.step} (exact for integers)`,
      );
    } else {
      node[side.inclusive] = bound;
      addNote(node, `must be ${side.operator} ${bound}`);
      record(
        ctx,
        path,
        side.exclusive,
        'rewritten',
        `${side.exclusive} ${bound} ⇒ ${side.inclusive} ${bound}; "must be ${side.operator} ${bound}" added to description`,
      );
    }
  }
}

/** True when `type` allows integers (and maybe null) but no other kind of value. */
function isIntegerOnly(type: unknown): boolean {
  if (type === 'integer') return true;
  if (!Array.isArray(type)) return false;
  const kinds = type.filter((kind) => kind !== 'null');
  return kinds.length > 0 && kinds.every((kind) => kind === 'integer');
}
