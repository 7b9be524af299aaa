/** The editor for a file's format. */
import type { ConfigDocument, ConfigFormat } from './config-document.js';
import { openJsonDocument } from './json-document.js';
import { openTomlDocument } from './toml-document.js';
import { openYamlDocument } from './yaml-document.js';

/** Opens `text` of `file` as `format`; throws `CONFIG_INVALID` (file, line, column) when it does not parse. */
export function openConfigDocument(file: string, text: string, format: ConfigFormat): ConfigDocument {
  switch (format) {
    case 'json':
    case 'jsonc':
      return openJsonDocument(file, text, format);
    case 'toml':
      return openTomlDocument(file, text);
    case 'yaml':
      return openYamlDocument(file, text);
  }
}

/** The format of one of mcpwire's own files, by its extension (`.yaml`/`.yml` ⇒ YAML, else JSON with comments). */
export function formatOfPath(file: string): ConfigFormat {
  return /\.ya?ml$/i.test(file) ? 'yaml' : /\.toml$/i.test(file) ? 'toml' : 'jsonc';
}
