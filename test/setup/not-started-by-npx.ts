/**
 * Every process a test starts sees the environment of a plain shell, not of the npm command that
 * started vitest: `npm_command=exec` (a run under `npx vitest`) would make the CLI name itself
 * `npx mcpwire` in its hints. A test that wants npx's environment sets it on the child.
 */
delete process.env.npm_command;
