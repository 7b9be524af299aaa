/**
 * What upper layers may show: the exact display copy of servers whose values came from
 * variables and an envFile, and errors and warnings of a load that never carry an expanded value.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/manager/config/load-config.js';
import { redactServer } from '../src/manager/config/redact.js';
import { variableOrigins } from '../src/manager/config/variables.js';
import { useTempDir } from './support/temp-dir.js';

const tmp = useTempDir('mcpwire-redact-');

const env = { TOKEN: 'tok-7f3a9c1e', API_KEY: 'key-0b8d2e44', USER_NAME: 'alice', PASS: 'pw-5566778899' };
const SECRETS = ['tok-7f3a9c1e', 'key-0b8d2e44', 'pw-5566778899', 'file-secret-1234'];

/** Loads `file` alone (no user or project layer) with {@link env}. */
const loadOnly = (file: string) =>
  loadConfig({ cwd: tmp.dir, homeDir: tmp.dir, userConfigPath: false, project: false, configPaths: [file], env });

describe('redaction of expanded values', () => {
  it('the display copy is exact: variable values and secret-looking env and headers are ***', async () => {
    writeFileSync(
      path.join(tmp.dir, 'svc.env'),
      '# comment\nDB_PASSWORD=file-secret-1234\nexport REGION="eu-west-1"\n',
    );
    const file = path.join(tmp.dir, 'servers.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          web: {
            url: 'https://${USER_NAME}:${PASS}@api.example/mcp?key=${API_KEY}',
            headers: { Authorization: 'Bearer ${TOKEN}', 'X-Request-Source': 'mcpwire' },
          },
          local: {
            command: 'node',
            args: ['server.js', '--token', '${TOKEN}'],
            envFile: 'svc.env',
            env: { MODE: 'dev' },
          },
        },
      }),
    );
    const loaded = await loadOnly(file);
    expect(loaded.errors).toEqual([]);
    const shown = loaded.servers.map(redactServer);
    expect(shown).toEqual([
      {
        name: 'web',
        transport: 'http',
        url: 'https://***:***@api.example/mcp?key=***',
        headers: { Authorization: 'Bearer ***', 'X-Request-Source': 'mcpwire' },
        provenance: { file, scope: 'explicit' },
        trusted: true,
        origins: { url: '${USER_NAME} ${PASS} ${API_KEY}', 'headers.Authorization': '${TOKEN}' },
      },
      {
        name: 'local',
        transport: 'stdio',
        command: 'node',
        args: ['server.js', '--token', '***'],
        env: { DB_PASSWORD: '***', REGION: '***', MODE: 'dev' },
        provenance: { file, scope: 'explicit' },
        trusted: true,
        origins: {
          'args[2]': '${TOKEN}',
          'env.DB_PASSWORD': `envFile ${path.join(path.dirname(file), 'svc.env')}`,
          'env.REGION': `envFile ${path.join(path.dirname(file), 'svc.env')}`,
        },
      },
    ]);
    const text = JSON.stringify(shown);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it('errors and warnings of a load never contain an expanded value', async () => {
    const file = path.join(tmp.dir, 'servers.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          // expanded headers, then a missing variable in a later field
          a: { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${TOKEN}', 'X-Other': '${MISSING}' } },
          // expanded, then rejected by the schema
          b: { command: '${API_KEY}', args: ['${PASS}', 3] },
          c: { command: 'x', surprise: '${TOKEN}' },
        },
      }),
    );
    const loaded = await loadOnly(file);
    expect(loaded.errors.map((e) => e.message)).toEqual([
      `${file}: server "a": headers.X-Other: variable MISSING is not set (write \${MISSING:-default} for a default)`,
      `${file}: server "b": args[1] must be a string, got 3`,
    ]);
    expect(loaded.warnings).toEqual([`${file}: server "c": unknown key "surprise" (ignored)`]);
    const text = JSON.stringify([loaded.errors.map((e) => [e.message, e.toJSON()]), loaded.warnings]);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});

describe('variableOrigins', () => {
  it('names the variables behind each field, never the literal text around them', () => {
    expect(
      variableOrigins({
        command: 'node',
        args: ['--port', '${PORT:-8080}', 'plain'],
        url: 'https://${env:HOST}/mcp',
        headers: { Authorization: 'Bearer sk-literal-${SUFFIX}', Accept: 'x' },
        env: { A: '${A}${B}' },
        cwd: 42,
      }),
    ).toEqual({
      'args[1]': '${PORT:-8080}',
      url: '${env:HOST}',
      'headers.Authorization': '${SUFFIX}',
      'env.A': '${A} ${B}',
    });
  });
});
