/**
 * An options object with a key nobody reads is an `INVALID_ARGUMENT` error naming the key (and
 * what was probably meant): the client's connect options and their nested objects, the connect
 * target, per-call options and the transports' options (the manager's and the workflow step's:
 * `manager-options-are-checked.test.ts`). Nothing is started or sent when options are refused.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError, type McpError } from '../src/protocol/errors.js';
import { checkOptions, optionKeys } from '../src/protocol/option-keys.js';
import { LegacySseTransport } from '../src/transport/http/legacy-sse.js';
import { StreamableHttpTransport } from '../src/transport/http/streamable-http.js';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { startHttpFixture, type HttpFixture } from './support/http-fixture.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const node = process.execPath;

/** The refusal `run` produces (thrown or rejected), checked to be `INVALID_ARGUMENT`. */
async function refusal(run: () => unknown): Promise<McpError> {
  let error: unknown;
  try {
    await run();
  } catch (caught) {
    error = caught;
  }
  expect(isMcpError(error, 'INVALID_ARGUMENT'), String(error)).toBe(true);
  return error as McpError;
}

let client: McpClient | undefined;
let fixture: HttpFixture | undefined;
afterEach(async () => void ([client, fixture] = await endAll([client, 'close'], [fixture, 'close'])));

describe('the option key check', () => {
  const keys = optionKeys<{ timeoutMs?: number; signal?: AbortSignal }>(
    'thing options',
    { timeoutMs: true, signal: true },
    { abort: 'signal' },
  );

  it('accepts known keys, undefined and null; refuses other keys, naming the key, the object and what was meant', async () => {
    expect(() => checkOptions({ timeoutMs: 1, signal: undefined }, keys)).not.toThrow();
    expect(() => checkOptions(undefined, keys)).not.toThrow();
    expect((await refusal(() => checkOptions({ timeout: 1 }, keys))).message).toBe(
      'thing options: unknown option "timeout" (did you mean "timeoutMs"?); accepted: timeoutMs, signal',
    );
    expect((await refusal(() => checkOptions({ abort: 1 }, keys))).message).toContain(
      'unknown option "abort" (did you mean "signal"?)',
    );
    expect((await refusal(() => checkOptions({ Signal: 1 }, keys))).message).toContain('(did you mean "signal"?)');
    expect((await refusal(() => checkOptions({ zebra: 1 }, keys))).message).toBe(
      'thing options: unknown option "zebra"; accepted: timeoutMs, signal',
    );
    expect((await refusal(() => checkOptions('fast', keys))).message).toBe(
      'thing options must be an object, got string',
    );
  });
});

describe('the client', () => {
  it('McpClient.connect refuses unknown keys in its options and their nested objects, before spawning', async () => {
    const target = { command: node, args: [SCRIPTED] };
    expect((await refusal(() => McpClient.connect(target, { requestTimeout: 5 } as never))).message).toContain(
      'McpClient.connect options: unknown option "requestTimeout" (did you mean "requestTimeoutMs"?)',
    );
    expect((await refusal(() => McpClient.connect(target, { cwd: '/tmp' } as never))).message).toContain(
      '(did you mean "the target: connect({ command, args, cwd })"?)',
    );
    expect(
      (await refusal(() => McpClient.connect(target, { handlers: { elicit: () => ({ action: 'decline' }) } } as never)))
        .message,
    ).toContain('McpClient.connect options.handlers: unknown option "elicit" (did you mean "elicitation"?)');
    expect(
      (await refusal(() => McpClient.connect(target, { stdio: { inheritEnvironment: true } } as never))).message,
    ).toContain('options.stdio: unknown option "inheritEnvironment"');
  });

  it('refuses an unknown key in a stdio target or an HTTP target', async () => {
    expect((await refusal(() => McpClient.connect({ cmd: node } as never))).message).toContain(
      'stdio server spec: unknown option "cmd" (did you mean "command"?)',
    );
    expect(
      (await refusal(() => McpClient.connect({ command: node, arguments: [SCRIPTED] } as never))).message,
    ).toContain('unknown option "arguments" (did you mean "args"?)');
    expect(
      (await refusal(() => McpClient.connect({ url: 'http://127.0.0.1:9/mcp', header: {} } as never))).message,
    ).toContain('HTTP server spec: unknown option "header" (did you mean "headers"?)');
  });

  it('refuses unknown per-call options before sending, and keeps working after', async () => {
    client = await McpClient.connect({ command: node, args: [SCRIPTED] });
    const call = await refusal(() => client!.callTool('echo', { text: 'x' }, { timeout: 10 } as never));
    expect(call.message).toContain('tools/call request options: unknown option "timeout" (did you mean "timeoutMs"?)');
    expect(
      (await refusal(() => client!.listTools({ refresh: true, signl: AbortSignal.timeout(5_000) } as never))).message,
    ).toContain('tools/list request options: unknown option "signl" (did you mean "signal"?)');
    expect((await refusal(() => client!.ping({ abortSignal: undefined } as never))).message).toContain(
      'unknown option "abortSignal" (did you mean "signal"?)',
    );
    expect((await client.callTool('echo', { text: 'still fine' }, { timeoutMs: 5_000 })).content).toEqual([
      { type: 'text', text: 'still fine' },
    ]);
  });
});

describe('the transports', () => {
  it('StdioTransport.spawn, StreamableHttpTransport and LegacySseTransport.connect refuse unknown keys', async () => {
    expect(
      (await refusal(() => StdioTransport.spawn({ command: node, args: [SCRIPTED] }, { maxMessageByte: 10 } as never)))
        .message,
    ).toContain('StdioTransport options: unknown option "maxMessageByte" (did you mean "maxMessageBytes"?)');
    expect(
      (await refusal(() => new StreamableHttpTransport('http://127.0.0.1:9/mcp', { header: { a: 'b' } } as never)))
        .message,
    ).toContain('StreamableHttpTransport options: unknown option "header"');
    fixture = await startHttpFixture(() => false);
    expect(
      (await refusal(() => LegacySseTransport.connect(fixture!.url, { timeoutMs: 10 } as never))).message,
    ).toContain('LegacySseTransport options: unknown option "timeoutMs"');
    expect(fixture.requests).toEqual([]);
  });
});
