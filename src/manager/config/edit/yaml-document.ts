/**
 * YAML files (Goose's `config.yaml`, mcpwire's own `config.yaml` / `mcp.yaml`) edited through
 * `yaml`'s Document API, which keeps comments, key order and blank lines; the change is then
 * carried onto the original text line by line ({@link spliceLineChanges}) so the untouched lines
 * keep their exact spacing too.
 */
import { isMap, parseDocument, type Document } from 'yaml';
import { ConfigError } from '../../../protocol/errors.js';
import {
  assertOneChange,
  entriesIn,
  isObject,
  type ConfigDocument,
  type ConfigFormat,
  type Entry,
} from './config-document.js';
import { spliceLineChanges } from './line-splice.js';

/** Parses `text` of `file`; throws `CONFIG_INVALID` with the line and column of the first error. */
export function openYamlDocument(file: string, text: string): ConfigDocument {
  const document = parseYaml(file, text);
  const value = toValue(file, document);
  const edited = (change: (copy: Document) => void, container: readonly string[], name: string, entry?: Entry) => {
    const copy = document.clone();
    change(copy);
    const printed = copy.toString();
    const after = spliceLineChanges(text, document.toString(), printed) ?? printed;
    assertOneChange(file, value, toValue(file, parseYaml(file, after)), container, name, entry);
    return after;
  };
  return {
    file,
    format: 'yaml' satisfies ConfigFormat,
    text,
    value,
    entries: entriesIn(value),
    withEntry: (container, name, entry) =>
      edited(
        (copy) => {
          // `extensions:` with nothing under it is a null: make it a map first.
          if (!isMap(copy.getIn(container))) copy.setIn(container, copy.createNode({}));
          copy.setIn([...container, name], copy.createNode(entry));
        },
        container,
        name,
        entry,
      ),
    withoutEntry: (container, name) => edited((copy) => copy.deleteIn([...container, name]), container, name),
  };
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
