/**
 * How the user typed this command, for the commands its messages tell them to run: `npx mcpwire`
 * when npm started it (`npx mcpwire …` or `npm exec mcpwire …` set `npm_command=exec`: a project
 * install, where a bare `mcpwire` is not on PATH), else `mcpwire`.
 */
export function selfCommand(env: Record<string, string | undefined> = process.env): readonly string[] {
  return env.npm_command === 'exec' ? ['npx', 'mcpwire'] : ['mcpwire'];
}
