// `node --import record-loads.mjs …`: records what the process loads into the file named by
// MCPWIRE_RECORD_LOADS: every ES module's URL as it loads, then at exit the built-in modules
// (`NativeModule …` lines of process.moduleLoadList).
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';

register(new URL('./record-loads-hooks.mjs', import.meta.url));
process.on('exit', () =>
  appendFileSync(
    process.env.MCPWIRE_RECORD_LOADS,
    `${process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).join('\n')}\n`,
  ),
);
