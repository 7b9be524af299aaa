/**
 * translateText: each host's variable syntax in mcpwire's `${VAR}`, values known here substituted,
 * and every reference mcpwire cannot honour named with its reason, never passed on as literal text.
 */
import { describe, expect, it } from 'vitest';
import { translateText, type VariableSyntax } from '../src/manager/config/hosts/host-variables.js';
import { expandVariables } from '../src/transport/variables.js';

const context = { homeDir: '/home/u', cwd: '/work/app' };

describe('translateText', () => {
  it.each<[VariableSyntax, string, string, string[]]>([
    ['dollar', 'Bearer ${TOKEN}', 'Bearer ${TOKEN}', ['TOKEN']],
    ['dollar', '${env:HOST}:${PORT:-80}', '${HOST}:${PORT:-80}', ['HOST', 'PORT']],
    ['dollar', '$${LITERAL} stays', '$${LITERAL} stays', []],
    ['vscode', '${workspaceFolder}/x ${userHome} ${workspaceFolderBasename}', '/work/app/x /home/u app', []],
    ['vscode', '${env:API_KEY}', '${API_KEY}', ['API_KEY']],
    ['gemini', 'Bearer $API_TOKEN and ${OTHER}', 'Bearer ${API_TOKEN} and ${OTHER}', ['API_TOKEN', 'OTHER']],
    ['opencode', '{env:KEY} and a literal ${NOT}', '${KEY} and a literal $${NOT}', ['KEY']],
    ['continue', 'Bearer ${{ secrets.REMOTE_KEY }}', 'Bearer ${REMOTE_KEY}', ['REMOTE_KEY']],
    ['literal', 'a ${literal} value', 'a $${literal} value', []],
  ])('%s: %s → %s', (syntax, text, out, variables) => {
    const translated = translateText(text, syntax, context);
    expect(translated).toEqual({ text: out, refused: [], variables });
  });

  it.each<[VariableSyntax, string, string]>([
    ['vscode', 'Bearer ${input:api-key}', 'a VS Code input prompt ("api-key")'],
    ['vscode', '${command:pickFile}', 'an editor variable mcpwire does not know'],
    ['opencode', 'Bearer {file:~/.token}', 'an OpenCode file reference (its contents are read by OpenCode)'],
    ['continue', '${{ inputs.workspace }}', 'a Continue input (answered by Continue itself)'],
    ['dollar', '${not a name}', 'not a variable reference mcpwire knows'],
  ])('%s refuses %s by name', (syntax, text, reason) => {
    const translated = translateText(text, syntax, context);
    expect(translated.refused).toEqual([{ reference: text.replace(/^Bearer /, ''), reason }]);
  });

  it("what it gives is what mcpwire's expander reads: literals stay literal, references expand", () => {
    const env = { TOKEN: 't', KEY: 'k' };
    const expand = (text: string, syntax: VariableSyntax) => {
      const result = expandVariables(translateText(text, syntax, context).text, env);
      return result.ok ? result.text : `unset ${result.unset}`;
    };
    expect(expand('Bearer ${env:TOKEN}', 'vscode')).toBe('Bearer t');
    expect(expand('{env:KEY} ${KEY}', 'opencode')).toBe('k ${KEY}');
    expect(expand('${TOKEN}', 'literal')).toBe('${TOKEN}');
    expect(expand('$TOKEN', 'gemini')).toBe('t');
    expect(expand('${{ secrets.MISSING }}', 'continue')).toBe('unset MISSING');
  });
});
