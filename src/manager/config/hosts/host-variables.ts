/**
 * Each host's variable syntax in mcpwire's own `${VAR}` (see `transport/variables.ts`), or named
 * as a reference mcpwire cannot honour. Never is a host's reference passed on as literal text:
 * it becomes an environment variable reference, a value known here (VS Code's `${userHome}`,
 * `${workspaceFolder}`), or a refusal that names it.
 *
 * - `dollar` (Claude Desktop and Code, Windsurf, Cline, Zed): `${VAR}`, `${VAR:-default}`,
 *   `${env:VAR}`.
 * - `vscode` (VS Code, Cursor, Roo Code): the same, with `${userHome}`, `${workspaceFolder}`,
 *   `${workspaceFolderBasename}`, `${pathSeparator}`, `${/}` substituted and `${input:id}`,
 *   `${command:…}`, `${config:…}` refused (they need the editor).
 * - `gemini` (Gemini CLI): `$VAR` and `${VAR}`.
 * - `opencode`: `{env:VAR}`; `{file:path}` is refused; a `${` is literal there.
 * - `continue`: `${{ secrets.NAME }}` (a local secret: the environment variable NAME);
 *   `${{ inputs.NAME }}` is refused.
 * - `literal` (Codex, Goose): values are never expanded, so a `${` in them stays literal.
 */
import path from 'node:path';
import { escapeVariables } from '../../../transport/variables.js';

/** How a host writes references in its values (see the file comment). */
export type VariableSyntax = 'dollar' | 'vscode' | 'gemini' | 'opencode' | 'continue' | 'literal';

/** The values `vscode`-style references stand for. */
export interface VariableContext {
  homeDir: string;
  cwd: string;
}

/** A reference mcpwire cannot honour: as written, and why. */
export interface RefusedReference {
  reference: string;
  reason: string;
}

/** A string in mcpwire's syntax, and the references it had that mcpwire cannot honour. */
export interface TranslatedText {
  text: string;
  refused: RefusedReference[];
  /** Names of the environment variables the text now refers to. */
  variables: string[];
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const DOLLAR = /\$\$\{[^}]*\}|\$\{([^}]*)\}/g;
const OWN = new RegExp(`^(?:env:)?(${NAME})(?::-[^}]*)?$`);

/** `text` (written for a host using `syntax`) in mcpwire's syntax. Pure. */
export function translateText(text: string, syntax: VariableSyntax, context: VariableContext): TranslatedText {
  const refused: RefusedReference[] = [];
  const variables: string[] = [];
  // A refused reference is held out of the later passes by a placeholder, and put back at the end.
  const refuse = (reference: string, reason: string) => {
    refused.push({ reference, reason });
    return `\u0000${refused.length - 1}\u0000`;
  };
  const restore = (out: string) => out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => refused[Number(i)]!.reference);
  if (syntax === 'literal') return { text: escapeVariables(text), refused, variables };
  if (syntax === 'opencode') {
    const out = escapeVariables(text).replace(/\{(env|file):([^}]*)\}/g, (match, kind: string, value: string) => {
      if (kind === 'file') return refuse(match, 'an OpenCode file reference (its contents are read by OpenCode)');
      if (!new RegExp(`^${NAME}$`).test(value)) return refuse(match, 'not a variable name');
      variables.push(value);
      return `\${${value}}`;
    });
    return { text: restore(out), refused, variables };
  }
  let source = text;
  if (syntax === 'continue') {
    source = source.replace(/\$\{\{\s*(secrets|inputs)\.([^}\s]+)\s*\}\}/g, (match, kind: string, name: string) => {
      if (kind === 'inputs' || !new RegExp(`^${NAME}$`).test(name))
        return refuse(match, 'a Continue input (answered by Continue itself)');
      return `\${${name}}`;
    });
  }
  if (syntax === 'gemini') source = source.replace(new RegExp(`\\$(${NAME})`, 'g'), '${$1}');
  const out = source.replace(DOLLAR, (match: string, body: string | undefined) => {
    if (body === undefined) return match; // `$${…}`: literal, already in our syntax
    if (syntax === 'vscode') {
      const known = editorValue(body, context);
      if (known !== undefined) return escapeVariables(known);
    }
    const own = OWN.exec(body);
    if (own) {
      variables.push(own[1]!);
      return body.startsWith('env:') ? match.replace('env:', '') : match;
    }
    if (syntax === 'vscode') {
      if (body.startsWith('input:')) return refuse(match, `a VS Code input prompt ("${body.slice(6)}")`);
      return refuse(match, 'an editor variable mcpwire does not know');
    }
    return refuse(match, 'not a variable reference mcpwire knows');
  });
  return { text: restore(out), refused, variables };
}

/** The value of a VS Code / Cursor predefined variable, or undefined for one that is not known here. */
function editorValue(body: string, context: VariableContext): string | undefined {
  switch (body) {
    case 'userHome':
      return context.homeDir;
    case 'workspaceFolder':
    case 'workspaceRoot':
      return context.cwd;
    case 'workspaceFolderBasename':
      return path.basename(context.cwd);
    case 'pathSeparator':
    case '/':
      return path.sep;
    default:
      return undefined;
  }
}
