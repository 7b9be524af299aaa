/**
 * Schema conformance against the reference servers: each connection runs through a recording
 * decorator around a real stdio transport, a workload touches every kind of message the client
 * can send to that server (requests, notifications, answers to server requests, an error answer,
 * cancel notices), and every message on the wire — both ways — is validated against the official
 * JSON Schema of the negotiated revision (the dual-era `server/discover` probe against 2026-07-28).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { RecordingTransport } from '../kit/recording-transport.js';
import { hasSchema, missingSchemaMessage } from '../kit/spec-schemas.js';
import { eventually, waitUntilGone } from '../support/processes.js';
import { type EverythingHarness, startEverything } from './support/everything-harness.js';
import { everything, filesystem, memory } from './support/reference-servers.js';
import { invalidReceived, invalidSent, PROBE_REVISION, sentKinds } from './support/wire-conformance.js';

const REVISION = '2025-11-25';
const schemasPresent = hasSchema(REVISION) && hasSchema(PROBE_REVISION);
const skipReason = hasSchema(REVISION) ? missingSchemaMessage(PROBE_REVISION) : missingSchemaMessage(REVISION);

async function record(spec: Parameters<typeof StdioTransport.spawn>[0], name: string): Promise<RecordingTransport> {
  return new RecordingTransport(await StdioTransport.spawn(spec, { name }));
}

/** The two schema checks every server's recording gets, on the revision the client negotiated. */
function itSentAndReceivedOnlyValid(recording: () => RecordingTransport, revision: () => string): void {
  it(`sent only messages valid under ${REVISION}`, () => {
    expect(invalidSent(recording(), revision())).toEqual([]);
  });

  it(`received only messages valid under ${REVISION}`, () => {
    expect(invalidReceived(recording(), revision())).toEqual([]);
  });
}

/** Closes `client`, sees its server process `pid` gone, and removes the server's directory `dir`. */
async function closeAndRemove(client: McpClient | undefined, pid: number | undefined, dir: string): Promise<void> {
  await client?.close();
  if (pid) expect(await waitUntilGone(pid)).toBe(true);
  rmSync(dir, { recursive: true, force: true });
}

describe.skipIf(!schemasPresent)(
  schemasPresent ? 'server-everything: every message is schema-valid' : `server-everything: ${skipReason}`,
  () => {
    let recording: RecordingTransport;
    let harness: EverythingHarness;

    beforeAll(async () => {
      recording = await record(everything(), 'everything');
      harness = await startEverything({ transport: recording });
      const { client, answers } = harness;

      await client.listTools();
      await client.listResources();
      await client.listResourceTemplates();
      await client.listPrompts();
      await client.callTool('echo', { message: 'valid?' });
      await client.callTool('get-structured-content', { location: 'Chicago' });
      await client.callTool(
        'trigger-long-running-operation',
        { duration: 0.2, steps: 2 },
        { onProgress: () => undefined },
      );
      await client.callTool('trigger-sampling-request', { prompt: 'hi', maxTokens: 5 });
      answers.samplingFailure = 'refused by the test';
      await client.callTool('trigger-sampling-request', { prompt: 'refuse me' });
      delete answers.samplingFailure;
      await client.callTool('trigger-elicitation-request', {});
      answers.elicitation = 'decline';
      await client.callTool('trigger-elicitation-request', {});
      answers.elicitation = 'accept';
      await client.callTool('trigger-url-elicitation', { url: 'https://example.com/consent' });
      await client.callTool('get-roots-list', {});
      await client.readResource('demo://resource/static/document/features.md');
      await client.readResource('demo://resource/dynamic/blob/2');
      await client.getPrompt('args-prompt', { city: 'Oslo' });
      await client.getPrompt('simple-prompt');
      await client.complete(
        { type: 'ref/prompt', name: 'completable-prompt' },
        { name: 'name', value: 'A' },
        { context: { arguments: { department: 'Engineering' } } },
      );
      await client.complete(
        { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        { name: 'resourceId', value: '3' },
      );
      await client.setLoggingLevel('warning');
      const unsubscribe = await client.subscribeResource('demo://resource/static/document/features.md');
      await unsubscribe();
      await client.ping();
      const controller = new AbortController();
      const cancelled = client.callTool(
        'trigger-long-running-operation',
        { duration: 1, steps: 5 },
        { signal: controller.signal, onProgress: () => controller.abort() },
      );
      await cancelled.catch(() => undefined);
      await client
        .callTool('trigger-long-running-operation', { duration: 1, steps: 1 }, { timeoutMs: 100, trackProgress: false })
        .catch(() => undefined);
      const rootsAsked = harness.seen.roots.length;
      await client.notifyRootsChanged();
      await eventually(() => (harness.seen.roots.length > rootsAsked ? true : undefined));
      await client.ping();
    });
    afterAll(async () => {
      await harness?.stop();
    });

    it('exercised every kind of client message', () => {
      expect([...sentKinds(recording)].sort()).toEqual(
        [
          'completion/complete',
          'error-response',
          'initialize',
          'logging/setLevel',
          'notifications/cancelled',
          'notifications/initialized',
          'notifications/roots/list_changed',
          'ping',
          'prompts/get',
          'prompts/list',
          'resources/list',
          'resources/read',
          'resources/subscribe',
          'resources/templates/list',
          'resources/unsubscribe',
          'result:elicitation/create',
          'result:roots/list',
          'result:sampling/createMessage',
          'server/discover',
          'tools/call',
          'tools/list',
        ].sort(),
      );
      expect(harness.client.protocolVersion).toBe(REVISION);
    });

    itSentAndReceivedOnlyValid(
      () => recording,
      () => harness.client.protocolVersion,
    );
  },
);

describe.skipIf(!schemasPresent)(
  schemasPresent ? 'server-filesystem: every message is schema-valid' : `server-filesystem: ${skipReason}`,
  () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-fs-wire-')));
    let recording: RecordingTransport;
    let client: McpClient;
    let pid: number;
    let rootsAsked = 0;

    beforeAll(async () => {
      writeFileSync(path.join(root, 'a.txt'), 'alpha\n');
      recording = await record(filesystem(root), 'fs');
      client = await McpClient.connect(recording, {
        name: 'fs',
        handlers: {
          roots: () => {
            rootsAsked++;
            return [{ uri: pathToFileURL(root).href, name: 'wire root' }];
          },
        },
      });
      pid = (recording.inner as StdioTransport).pid;
      await eventually(() => (rootsAsked === 1 ? true : undefined));
      await client.listTools();
      await client.callTool('read_text_file', { path: path.join(root, 'a.txt') });
      await client.callTool('write_file', { path: path.join(root, 'b.txt'), content: 'beta' });
      await client.callTool('list_directory', { path: root });
      await client.callTool('read_text_file', { path: '/etc/hostname' });
      await client.notifyRootsChanged();
      await eventually(() => (rootsAsked === 2 ? true : undefined));
      await client.ping();
    });
    afterAll(() => closeAndRemove(client, pid, root));

    it('exercised requests, notifications and an answer to roots/list', () => {
      expect(sentKinds(recording)).toEqual(
        new Set([
          'server/discover',
          'initialize',
          'notifications/initialized',
          'result:roots/list',
          'tools/list',
          'tools/call',
          'notifications/roots/list_changed',
          'ping',
        ]),
      );
    });

    itSentAndReceivedOnlyValid(
      () => recording,
      () => client.protocolVersion,
    );
  },
);

describe.skipIf(!schemasPresent)(
  schemasPresent ? 'server-memory: every message is schema-valid' : `server-memory: ${skipReason}`,
  () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-memory-wire-'));
    let recording: RecordingTransport;
    let client: McpClient;
    let pid: number;

    beforeAll(async () => {
      recording = await record(memory(path.join(dir, 'graph.jsonl')), 'memory');
      client = await McpClient.connect(recording, { name: 'memory' });
      pid = (recording.inner as StdioTransport).pid;
      await client.listTools();
      await client.listResources();
      const unsubscribe = await client.subscribeResource('memory://knowledge-graph');
      await client.callTool('create_entities', {
        entities: [{ name: 'Wire', entityType: 'test', observations: ['valid'] }],
      });
      await client.callTool('read_graph', {});
      await client.readResource('memory://knowledge-graph');
      await unsubscribe();
      await client.ping();
    });
    afterAll(() => closeAndRemove(client, pid, dir));

    it('exercised requests and notifications', () => {
      expect(sentKinds(recording)).toEqual(
        new Set([
          'server/discover',
          'initialize',
          'notifications/initialized',
          'tools/list',
          'resources/list',
          'resources/subscribe',
          'tools/call',
          'resources/read',
          'resources/unsubscribe',
          'ping',
        ]),
      );
    });

    itSentAndReceivedOnlyValid(
      () => recording,
      () => client.protocolVersion,
    );
  },
);
