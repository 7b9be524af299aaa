/**
 * A mixed load of real MCP clients on one endpoint (kit nodes of `bench/server/kit-node.mjs`
 * behind the round-robin proxy), each client counting what it must receive:
 * - `modern`: mcpwire's client, 2026-07-28 (stateless): an `echo` call and a `progress` call
 *   whose progress must be 1, 2, 3 exactly;
 * - `legacy`: mcpwire's client, a 2025 session (initialize, a GET stream): a `touch` of the
 *   resource it subscribed to, whose `resources/updated` must reach its GET stream exactly once
 *   (whichever node holds the stream), and a `progress` call;
 * - `sdk-v1`: the official SDK v1 client, the same as `legacy`;
 * - `tasks`: raw 2026-07-28 requests with the tasks extension: a `job` run as a task, polled with
 *   `tasks/get` (any node) until completed with its result.
 * A round is one of those sequences. {@link runLoad} runs rounds on every client until a deadline;
 * each client's `settle()` then waits (bounded) for what it is still owed and reports a miss or
 * a duplicate as a problem.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../src/client/mcp-client.js';
import { modernRequest } from './kit-wire.js';
import { eventually, until } from './wait.js';

export type LoadKind = 'modern' | 'legacy' | 'sdk-v1' | 'tasks';

/** One client of the load. */
export interface LoadClient {
  readonly kind: LoadKind;
  readonly index: number;
  /** Rounds finished. */
  rounds: number;
  /** Events it must receive (progress, resource updates) and did, so far. */
  readonly events: { expected: number; received: number };
  /** What went wrong: a wrong answer, a missing, extra or out-of-order event. */
  readonly problems: string[];
  /** One round; rejects on an error (which the runner records). */
  round(): Promise<void>;
  /** Waits (bounded) until every event it is owed arrived; records a problem otherwise. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const TASKS = 'io.modelcontextprotocol/tasks';
const STEPS = 3;
/** Bound of one wait for something owed (an update on a GET stream, a task to complete). */
const OWED_MS = 30_000;

interface Tally {
  events: { expected: number; received: number };
  problems: string[];
}

function progressCheck(tally: Tally, who: string, seen: number[]): void {
  tally.events.expected += STEPS;
  tally.events.received += seen.length;
  const want = Array.from({ length: STEPS }, (_, i) => i + 1);
  if (seen.join() !== want.join()) tally.problems.push(`${who}: progress ${JSON.stringify(seen)}, not ${want.join()}`);
}

function textOf(result: unknown): string | undefined {
  return (result as { content?: Array<{ text?: string }> }).content?.[0]?.text;
}

/**
 * Counts the `resources/updated` of `uri` a session's GET stream delivers: `settle` waits until
 * every touch was heard; one heard more often is a duplicate. The probe URI proves the stream is
 * open (on whatever node) before counting starts: a touch before that would reach no stream.
 */
function updateCounter(tally: Tally, who: string, uri: string) {
  let touched = 0;
  let heard = 0;
  let probed = 0;
  return {
    uri,
    probe: `${uri}/probe`,
    heardUri(updated: string): void {
      if (updated === `${uri}/probe`) return void probed++;
      if (updated !== uri) return void tally.problems.push(`${who}: an update of ${updated}, not subscribed`);
      heard++;
      tally.events.received++;
      if (heard > touched) tally.problems.push(`${who}: update ${heard} heard after ${touched} touches (a duplicate)`);
    },
    touched(): void {
      touched++;
      tally.events.expected++;
    },
    /** Touches the probe until an update of it arrives (the GET stream is open and knows the subscriptions). */
    async openStream(touch: (uri: string) => Promise<unknown>): Promise<void> {
      await eventually(
        async () => {
          if (probed > 0) return true;
          await touch(`${uri}/probe`);
          return probed > 0 ? true : undefined;
        },
        { timeoutMs: OWED_MS, what: `${who}: its GET stream to hear a probe update` },
      );
    },
    async settle(): Promise<void> {
      await until(() => heard >= touched, { timeoutMs: OWED_MS, what: `${who}: ${touched} updates` }).catch(
        (error: Error) => void tally.problems.push(error.message),
      );
    },
  };
}

async function modernClient(url: string, who: string, tally: Tally): Promise<Omit<LoadClient, 'kind' | 'index'>> {
  const client = await McpClient.connect({ url }, { era: 'modern', requestTimeoutMs: OWED_MS });
  let sent = 0;
  return {
    rounds: 0,
    ...tally,
    async round() {
      const text = `${who} ${++sent}`;
      const echoed = textOf(await client.callTool('echo', { text }));
      if (echoed !== text) tally.problems.push(`${who}: echo answered ${echoed}`);
      const seen: number[] = [];
      await client.callTool('progress', { steps: STEPS }, { onProgress: (p) => seen.push(p.progress) });
      progressCheck(tally, who, seen);
    },
    settle: async () => undefined,
    close: () => client.close(),
  };
}

async function legacyClient(url: string, who: string, tally: Tally): Promise<Omit<LoadClient, 'kind' | 'index'>> {
  const updates = updateCounter(tally, who, `bench://client/${who}`);
  const client = await McpClient.connect({ url }, { era: 'legacy', requestTimeoutMs: OWED_MS });
  client.on('resourceUpdated', ({ uri }) => updates.heardUri(uri));
  await client.subscribeResource(updates.uri);
  await client.subscribeResource(updates.probe);
  await updates.openStream((uri) => client.callTool('touch', { uri }));
  return {
    rounds: 0,
    ...tally,
    async round() {
      updates.touched();
      await client.callTool('touch', { uri: updates.uri });
      const seen: number[] = [];
      await client.callTool('progress', { steps: STEPS }, { onProgress: (p) => seen.push(p.progress) });
      progressCheck(tally, who, seen);
    },
    settle: () => updates.settle(),
    close: () => client.close(),
  };
}

async function sdkClient(url: string, who: string, tally: Tally): Promise<Omit<LoadClient, 'kind' | 'index'>> {
  const updates = updateCounter(tally, who, `bench://client/${who}`);
  const client = new ClientV1({ name: who, version: '1.0.0' });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.heardUri(n.params.uri));
  await client.connect(new TransportV1(new URL(url)));
  const touch = (uri: string) =>
    client.callTool({ name: 'touch', arguments: { uri } }, undefined, { timeout: OWED_MS });
  await client.subscribeResource({ uri: updates.uri });
  await client.subscribeResource({ uri: updates.probe });
  await updates.openStream(touch);
  return {
    rounds: 0,
    ...tally,
    async round() {
      updates.touched();
      await touch(updates.uri);
      const seen: number[] = [];
      await client.callTool({ name: 'progress', arguments: { steps: STEPS } }, undefined, {
        timeout: OWED_MS,
        onprogress: (p) => void seen.push(p.progress),
      });
      progressCheck(tally, who, seen);
    },
    settle: () => updates.settle(),
    close: () => client.close(),
  };
}

async function tasksClient(url: string, who: string, tally: Tally): Promise<Omit<LoadClient, 'kind' | 'index'>> {
  const withTasks = { extensions: { [TASKS]: {} } };
  let id = 1;
  let sent = 0;
  const call = async (method: string, params: Record<string, unknown>) => {
    const answer = await modernRequest(url, method, params, { id: id++, capabilities: withTasks });
    if (!answer.json?.result) throw new Error(`${who}: ${method} answered HTTP ${answer.status} ${answer.text}`);
    return answer.json.result;
  };
  return {
    rounds: 0,
    ...tally,
    async round() {
      const text = `${who} ${++sent}`;
      const created = await call('tools/call', { name: 'job', arguments: { text } });
      if (created.resultType !== 'task')
        throw new Error(`${who}: job was not run as a task: ${JSON.stringify(created)}`);
      tally.events.expected++;
      const done = await eventually(
        async () => {
          const task = await call('tasks/get', { taskId: created.taskId });
          if (task.status === 'working') return undefined;
          return task;
        },
        { timeoutMs: OWED_MS, what: `${who}: task ${created.taskId} to end` },
      );
      tally.events.received++;
      if (done.status !== 'completed' || textOf(done.result) !== text)
        tally.problems.push(`${who}: task ended ${JSON.stringify(done)}`);
    },
    settle: async () => undefined,
    close: async () => undefined,
  };
}

const OPENERS = { modern: modernClient, legacy: legacyClient, 'sdk-v1': sdkClient, tasks: tasksClient };

/** Connects one client of `kind` to `url` (the proxy's `/mcp`). */
export async function openLoadClient(kind: LoadKind, index: number, url: string): Promise<LoadClient> {
  const tally: Tally = { events: { expected: 0, received: 0 }, problems: [] };
  const client = await OPENERS[kind](url, `${kind}-${index}`, tally);
  return Object.assign(client, { kind, index });
}

/** What {@link runLoad} does. */
export interface LoadOptions {
  /** How long rounds keep starting (each client finishes the round it is in). */
  durationMs: number;
  /** A client's pause between its rounds, on average (jittered ±50 %): keeps each client's rate modest. */
  paceMs: number;
  /** Told after every finished round: whose, and the rounds finished by all clients so far. */
  onRound?: (client: LoadClient, total: number) => void;
}

/**
 * Runs rounds on every client until `durationMs` has passed, then lets each finish its round.
 * Resolves with the errors the rounds threw (a client stops at its first).
 */
export async function runLoad(clients: readonly LoadClient[], options: LoadOptions): Promise<string[]> {
  const deadline = Date.now() + options.durationMs;
  const errors: string[] = [];
  let total = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < deadline) {
        try {
          await client.round();
        } catch (error) {
          errors.push(`${client.kind}-${client.index} round ${client.rounds}: ${(error as Error).message}`);
          return;
        }
        client.rounds++;
        options.onRound?.(client, ++total);
        const pause = options.paceMs * (0.5 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(deadline - Date.now(), 0))));
      }
    }),
  );
  return errors;
}
