#!/usr/bin/env node
// The todo server: `node examples/todo-server/server.mjs --db tasks.db` serves stdio;
// `--http 127.0.0.1:8080` serves Streamable HTTP at /mcp. See README.md.
import { StdioServerTransport } from 'mcpwire/server';
import { createTodoServer, stderrLine } from './app.mjs';
import { ConfigProblem, readConfig, USAGE } from './config.mjs';
import { openSqliteStore } from './sqlite-store.mjs';

let config;
try {
  config = readConfig(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof ConfigProblem)) throw error;
  process.stderr.write(`todo-server: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
if (config.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
let repository;
try {
  if (config.databaseUrl) {
    const { openPgStore } = await import('./pg-store.mjs');
    repository = await openPgStore(config.databaseUrl);
  } else {
    repository = openSqliteStore(config.db);
  }
} catch (error) {
  // The URL may hold a password: name the store, not the URL.
  stderrLine({
    level: 'error',
    msg: 'cannot open the database',
    store: config.databaseUrl ? 'postgresql (DATABASE_URL)' : config.db,
    error: error instanceof Error ? error.message : String(error),
  });
  process.exit(1);
}
if (config.http) {
  const { openKitState } = await import('./state.mjs');
  let kitState;
  try {
    kitState = await openKitState(config.state, stderrLine);
  } catch (error) {
    // The URL may hold a password: name the variable, not the URL.
    stderrLine({
      level: 'error',
      msg: 'cannot open the server state',
      store: `${config.state.store} (${config.state.store === 'redis' ? 'REDIS_URL' : 'DATABASE_URL'})`,
      error: error instanceof Error ? error.message : String(error),
    });
    await repository.close();
    process.exit(1);
  }
  const server = createTodoServer(config, repository, stderrLine, kitState.state);
  const { serveHttp } = await import('./http.mjs');
  await serveHttp(server, config, repository, kitState);
} else {
  const server = createTodoServer(config, repository);
  stderrLine({
    level: 'info',
    msg: 'serving stdio',
    name: config.name,
    version: config.version,
    store: config.databaseUrl ? 'postgresql' : config.db,
  });
  const session = server.connect(new StdioServerTransport());
  const stop = () => void session.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await session.closed;
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  await repository.close();
  stderrLine({ level: 'info', msg: 'stopped' });
}
