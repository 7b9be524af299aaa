/**
 * Where the kit finds its YAML reader for a given `SKILL.md`'s frontmatter. The `yaml` package is
 * no Node API, but it names `Buffer` (guarded), which the neutral build must not carry: so neutral
 * code never imports it, not even by a literal `import()` a bundler would follow. The Node entry
 * (`server/index.ts`) registers `() => import('yaml')` here; without one (a Worker, a browser) a
 * given `SKILL.md` is refused, and a generated one (from `instructions` and `frontmatter`) works.
 */
import type { Disposer } from '../../protocol/transport.js';
import { LazyPart } from '../../util/lazy-part.js';

/** What the reader resolves to: a YAML 1.2 `parse` (the `yaml` package's). */
export interface YamlModule {
  parse(text: string): unknown;
}

const reader = new LazyPart<YamlModule>();

/** Registers `load` as the YAML reader, replacing any other; the disposer puts back the one it replaced. */
export function setSkillYamlReader(load: (() => Promise<YamlModule>) | undefined): Disposer {
  const previous = reader.set(load);
  return () => {
    if (reader.loader === load) reader.set(previous);
  };
}

/** The YAML reader, loaded once; undefined where none is registered. */
export function skillYamlReader(): Promise<YamlModule | undefined> {
  return reader.get();
}
