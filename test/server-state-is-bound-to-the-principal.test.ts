/**
 * On a protected kit (a bearer token per request, over a real loopback listener), what the kit
 * keeps for a principal is not another's: a task made with Alice's token is unknown (-32602) to
 * Bob's `tasks/get`, `tasks/update` and `tasks/cancel` (and keeps running), and a `requestState`
 * minted for Alice is refused (-32602) when Bob sends it back, accepted when Alice does.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { BearerTokenError, McpServer, type AuthInfo } from '../src/server/index.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { modernRequest } from './support/kit-wire.js';
import { greetAnsweredAda, registerGreetTool } from './support/kit-tools.js';

const SUBJECTS: Record<string, string> = { 'token-alice': 'alice', 'token-bob': 'bob' };
const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: {} };

function verifyToken(token: string): Promise<AuthInfo> {
  const subject = SUBJECTS[token];
  if (!subject) return Promise.reject(new BearerTokenError('invalid_token', 'unknown token'));
  return Promise.resolve({ subject, clientId: 'one-client', scopes: [] });
}

async function protectedKit(): Promise<{ kit: KitHttp; aborted: () => number }> {
  const server = new McpServer({ name: 'bound', version: '1', logger: () => undefined });
  let aborted = 0;
  server.registerTool({
    name: 'gate',
    inputSchema: { type: 'object' },
    taskSupport: 'optional',
    handler: (_args, context) =>
      new Promise((resolve) =>
        context.signal.addEventListener('abort', () => {
          aborted++;
          resolve({ content: [] });
        }),
      ),
  });
  registerGreetTool(server);
  onTestFinished(() => server.close());
  const kit = await listenKitAt(server, (url) => ({
    auth: { resource: url, authorizationServers: ['https://as.example'], verifyToken },
  }));
  onTestFinished(() => kit.close());
  return { kit, aborted: () => aborted };
}

let nextId = 1;
async function call(kit: KitHttp, token: string, method: string, params: Record<string, unknown>): Promise<any> {
  const answer = await modernRequest(kit.url, method, params, {
    id: nextId++,
    capabilities: WITH_TASKS,
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  return answer.json;
}

describe('state bound to the principal', () => {
  it('keeps a task of one principal unknown to another, who cannot cancel it', async () => {
    const { kit, aborted } = await protectedKit();
    const { taskId } = (await call(kit, 'token-alice', 'tools/call', { name: 'gate', arguments: {} })).result;
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const)
      expect((await call(kit, 'token-bob', method, params)).error).toMatchObject({
        code: -32602,
        message: `Unknown task: ${taskId}`,
      });
    expect((await call(kit, 'token-alice', 'tasks/get', { taskId })).result.status).toBe('working');
    expect(aborted()).toBe(0);
  });

  it('refuses a requestState minted for another principal', async () => {
    const { kit } = await protectedKit();
    const round1 = (await call(kit, 'token-alice', 'tools/call', { name: 'greet', arguments: {} })).result;
    expect(round1.resultType).toBe('input_required');
    const again = greetAnsweredAda(round1.requestState);
    expect((await call(kit, 'token-bob', 'tools/call', again)).error.code).toBe(-32602);
    expect((await call(kit, 'token-alice', 'tools/call', again)).result.content).toEqual([
      { type: 'text', text: 'hello Ada' },
    ]);
  });
});
