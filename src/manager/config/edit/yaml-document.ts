/**
 * YAML files (Goose's `config.yaml`, mcpwire's own `config.yaml` / `mcp.yaml`) edited through
 * `yaml`'s Document API, which keeps comments, key order and blank lines; the change is then
 * carried onto the original text line by line ({@link spliceLineChanges}) so the untouched lines
 * keep their exact spacing too. A container that is a list (Continue's `mcpServers:`) holds
 * entries by their `name`.
 */
import { isMap, isSeq, parseDocument, type Document, type YAMLSeq } from 'yaml';
import { ConfigError } from '../../../protocol/errors.js';
import {
  assertOneChange,
  assertSameDocument,
  entriesIn,
  isObject,
  valueAt,
  type ConfigDocument,
  type ConfigFormat,
  type Entry,
} from './config-document.js';
import { spliceLineChanges } from './line-splice.js';

/** Parses `text` of `file`; throws `CONFIG_INVALID` with the line and column of the first error. */
export function openYamlDocument(file: string, text: string): ConfigDocument {
  const document = parseYaml(file, text);
  const value = toValue(file, document);
  const listAt = (container: readonly string[]) => Array.isArray(valueAt(value, container));
  const edited = (
    change: (copy: Document) => void,
    container: readonly string[],
    name: string,
    entry: Entry | undefined,
    list: boolean,
  ) => {
    const copy = document.clone();
    change(copy);
    const printed = copy.toString();
    const after = spliceLineChanges(text, document.toString(), printed) ?? printed;
    const parsed = toValue(file, parseYaml(file, after));
    if (list) assertOneListChange(file, value, parsed, container, name, entry);
    else assertOneChange(file, value, parsed, container, name, entry);
    return after;
  };
  return {
    file,
    format: 'yaml' satisfies ConfigFormat,
    text,
    value,
    entries: (container) => {
      const found = valueAt(value, container);
      if (!Array.isArray(found)) return entriesIn(value)(container);
      return Object.fromEntries(found.filter(isNamed).map((item) => [item.name, item]));
    },
    withEntry: (container, name, entry, list = false) => {
      const asList = listAt(container) || (list && valueAt(value, container) == null);
      return edited(
        (copy) => {
          if (asList) {
            const named = { ...entry, name };
            if (!isSeq(copy.getIn(container))) copy.setIn(container, copy.createNode([]));
            const seq = copy.getIn(container) as YAMLSeq;
            const at = seq.items.findIndex((item) => isMap(item) && item.get('name') === name);
            if (at >= 0) seq.set(at, copy.createNode(named));
            else seq.add(copy.createNode(named));
            return;
          }
          // `extensions:` with nothing under it is a null: make it a map first.
          if (!isMap(copy.getIn(container))) copy.setIn(container, copy.createNode({}));
          copy.setIn([...container, name], copy.createNode(entry));
        },
        container,
        name,
        asList ? { ...entry, name } : entry,
        asList,
      );
    },
    withoutEntry: (container, name) => {
      const asList = listAt(container);
      return edited(
        (copy) => {
          if (!asList) return void copy.deleteIn([...container, name]);
          const seq = copy.getIn(container) as YAMLSeq;
          seq.delete(seq.items.findIndex((item) => isMap(item) && item.get('name') === name));
        },
        container,
        name,
        undefined,
        asList,
      );
    },
  };
}

function isNamed(item: unknown): item is { name: string } {
  return isObject(item) && typeof item.name === 'string';
}

/** {@link assertOneChange} for a list container: the item named `name` added, replaced or removed. */
function assertOneListChange(
  file: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  container: readonly string[],
  name: string,
  entry: Entry | undefined,
): void {
  const list = [...((valueAt(before, container) as unknown[] | null | undefined) ?? [])];
  const at = list.findIndex((item) => isNamed(item) && item.name === name);
  if (entry === undefined) list.splice(at, 1);
  else if (at >= 0) list[at] = entry;
  else list.push(entry);
  const expected = structuredClone(before);
  let into: Record<string, unknown> = expected;
  for (const key of container.slice(0, -1)) into = (into[key] ??= {}) as Record<string, unknown>;
  into[container.at(-1)!] = list;
  assertSameDocument(file, name, after, expected);
}

function parseYaml(file: string, text: string): Document {
  const document = parseDocument(text, { prettyErrors: true });
  const first = document.errors[0];
  if (first) {
    const at = first.linePos?.[0];
    throw new ConfigError(`invalid YAML: ${first.message.split('\n')[0]}; not edited`, {
      file,
      ...(at ? { line: at.line, column: at.col } : {}),
    });
  }
  return document;
}

function toValue(file: string, document: Document): Record<string, unknown> {
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return {};
  if (!isObject(value)) throw new ConfigError('the top level must be a mapping; not edited', { file });
  return value;
}
