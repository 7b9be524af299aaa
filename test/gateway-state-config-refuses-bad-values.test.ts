/**
 * `gateway.state` of a config file (`src/cli/gateway-state.ts`): a bad section or value is a
 * `CONFIG_INVALID` error naming the file and the key, and never the value — a store URL may carry
 * a password, and neither a refused value nor a store that cannot be reached shows it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatewayFileOptions } from '../src/cli/gateway-config.js';
import { openGatewayState, type GatewayStateConfig } from '../src/cli/gateway-state.js';
import { freePort } from './support/ports.js';
import { useTempDir } from './support/temp-dir.js';

const PASSWORD = 'hunter2-not-for-logs';
const SECRET = 'sixteen-or-more-characters';
const tmp = useTempDir('mcpwire-gateway-state-');

/** The file holding `state`, read as `mcpwire gateway` reads it. */
function written(state: unknown): string {
  const file = path.join(tmp.dir, 'gateway.json');
  writeFileSync(file, JSON.stringify({ mcpServers: {}, gateway: { state } }));
  return file;
}

/** What reading and opening `state` fails with. */
async function failure(state: unknown, env: Record<string, string> = {}): Promise<Error> {
  const file = written(state);
  try {
    const { options } = gatewayFileOptions([file]);
    const opened = await openGatewayState(options.state as GatewayStateConfig, file, env, () => undefined);
    await opened.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it was accepted');
}

describe('gateway.state in a config file', () => {
  it.each([
    ['not an object', 'redis://localhost', /"gateway\.state" must be an object/],
    ['no store', { stateSecret: SECRET }, /"gateway\.state" needs one of "postgres".*and "redis"/],
    [
      'both stores',
      { postgres: 'postgres://localhost/db', redis: 'redis://localhost', stateSecret: SECRET },
      /needs one of/,
    ],
    ['an unknown key', { redis: 'redis://localhost', password: PASSWORD }, /"gateway\.state\.password" is unknown/],
    [
      'a value not a string',
      { redis: 'redis://localhost', stateSecret: 12 },
      /"gateway\.state\.stateSecret" must be a string/,
    ],
    [
      'a URL of another scheme',
      { postgres: `mysql://app:${PASSWORD}@db.internal/app`, stateSecret: SECRET },
      /"gateway\.state\.postgres" must be a postgres:\/\/ URL/,
    ],
    [
      'a Redis URL that is not one',
      { redis: `http://app:${PASSWORD}@cache.internal`, stateSecret: SECRET },
      /"gateway\.state\.redis" must be a redis:\/\/ or rediss:\/\/ URL/,
    ],
    [
      'no stateSecret',
      { redis: `redis://app:${PASSWORD}@cache.internal` },
      /"gateway\.state\.stateSecret" must be given, 16\+ characters/,
    ],
    [
      'a bad table prefix',
      { postgres: `postgres://app:${PASSWORD}@db.internal/app`, stateSecret: SECRET, prefix: 'Bad-Prefix' },
      /"gateway\.state": postgresState option "tablePrefix"/,
    ],
  ])('refuses %s, naming the file and the key, never the value', async (_what, state, message) => {
    const error = await failure(state);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect(error.message).toMatch(message);
    expect(error.message).toContain(path.join(tmp.dir, 'gateway.json'));
    expect(error.message).not.toContain(PASSWORD);
  });

  it('expands ${VAR} and names a variable that is not set', async () => {
    const error = await failure({ postgres: '${DATABASE_URL}', stateSecret: SECRET });
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect(error.message).toMatch(/"gateway\.state\.postgres" uses the variable DATABASE_URL, which is not set/);
  });

  it('fails the start when PostgreSQL cannot be reached, without the password', async () => {
    const url = `postgres://app:${PASSWORD}@127.0.0.1:${await freePort()}/app`;
    const error = await failure(
      { postgres: '${DATABASE_URL}', stateSecret: '${SECRET}' },
      { DATABASE_URL: url, SECRET },
    );
    expect(error).toMatchObject({ code: 'TRANSPORT' });
    expect(error.message).not.toContain(PASSWORD);
  });
});
