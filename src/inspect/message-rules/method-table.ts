/**
 * Which methods each revision has, by sender and kind: the members of the `ClientRequest`,
 * `ClientNotification`, `ServerRequest` and `ServerNotification` unions of
 * `schema/<revision>/schema.ts`. A test compares this table with the official JSON Schemas.
 */

/** Who sent a message: `client` (a record going `out`) or `server` (`in`). */
export type Sender = 'client' | 'server';

/** A method-bearing message: with an id (request) or without (notification). */
export type MethodKind = 'request' | 'notification';

/** The methods of one revision. */
export type RevisionMethods = Record<Sender, Record<MethodKind, ReadonlySet<string>>>;

const CLIENT_REQUESTS_2024 = [
  'initialize',
  'ping',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'tools/list',
  'tools/call',
  'logging/setLevel',
  'completion/complete',
];
const CLIENT_NOTIFICATIONS_2024 = [
  'notifications/cancelled',
  'notifications/initialized',
  'notifications/progress',
  'notifications/roots/list_changed',
];
const SERVER_REQUESTS_2024 = ['ping', 'sampling/createMessage', 'roots/list'];
const LIST_CHANGED = [
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/tools/list_changed',
];
const SERVER_NOTIFICATIONS_2024 = [
  'notifications/cancelled',
  'notifications/progress',
  'notifications/resources/updated',
  'notifications/message',
  ...LIST_CHANGED,
];
// 2025-11-25 (basic/utilities/tasks.mdx, experimental): either side may run the other's requests as tasks.
const TASK_REQUESTS = ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'];

function revision(
  clientRequests: string[],
  clientNotifications: string[],
  serverRequests: string[],
  serverNotifications: string[],
): RevisionMethods {
  return {
    client: { request: new Set(clientRequests), notification: new Set(clientNotifications) },
    server: { request: new Set(serverRequests), notification: new Set(serverNotifications) },
  };
}

const TABLE: Record<string, RevisionMethods> = {
  '2024-11-05': revision(
    CLIENT_REQUESTS_2024,
    CLIENT_NOTIFICATIONS_2024,
    SERVER_REQUESTS_2024,
    SERVER_NOTIFICATIONS_2024,
  ),
  // 2025-03-26 changed shapes, not methods.
  '2025-03-26': revision(
    CLIENT_REQUESTS_2024,
    CLIENT_NOTIFICATIONS_2024,
    SERVER_REQUESTS_2024,
    SERVER_NOTIFICATIONS_2024,
  ),
  // 2025-06-18/client/elicitation.mdx: elicitation/create is new.
  '2025-06-18': revision(
    CLIENT_REQUESTS_2024,
    CLIENT_NOTIFICATIONS_2024,
    [...SERVER_REQUESTS_2024, 'elicitation/create'],
    SERVER_NOTIFICATIONS_2024,
  ),
  // 2025-11-25/changelog.mdx: tasks (experimental) and URL-mode elicitation's completion notice.
  '2025-11-25': revision(
    [...CLIENT_REQUESTS_2024, ...TASK_REQUESTS],
    [...CLIENT_NOTIFICATIONS_2024, 'notifications/tasks/status'],
    [...SERVER_REQUESTS_2024, 'elicitation/create', ...TASK_REQUESTS],
    [...SERVER_NOTIFICATIONS_2024, 'notifications/tasks/status', 'notifications/elicitation/complete'],
  ),
  // 2026-07-28/changelog.mdx: no handshake, no ping or logging/setLevel, no resources/(un)subscribe,
  // no server → client requests (MRTR instead), no elicitation/complete; discover and listen are new.
  '2026-07-28': revision(
    [
      'server/discover',
      'resources/list',
      'resources/templates/list',
      'resources/read',
      'subscriptions/listen',
      'prompts/list',
      'prompts/get',
      'tools/list',
      'tools/call',
      'completion/complete',
    ],
    ['notifications/cancelled'],
    [],
    ['notifications/subscriptions/acknowledged', ...SERVER_NOTIFICATIONS_2024],
  ),
};

/** The methods of `revision`, or undefined for a revision this table does not know. */
export function methodsOf(revision: string): RevisionMethods | undefined {
  return TABLE[revision];
}

/** The revisions this table knows, oldest first. */
export function revisionsWithMethodTable(): string[] {
  return Object.keys(TABLE).sort();
}

/** What is wrong with `sender` sending `method` as a `kind` in `revision`, if anything. */
export type MethodVerdict = 'ok' | 'not-in-revision' | 'wrong-direction' | 'wrong-kind';

/** Judges one method-bearing message against the table. An unknown revision is always `ok`. */
export function judgeMethod(revision: string, sender: Sender, kind: MethodKind, method: string): MethodVerdict {
  const table = TABLE[revision];
  if (!table) return 'ok';
  if (table[sender][kind].has(method)) return 'ok';
  const otherKind: MethodKind = kind === 'request' ? 'notification' : 'request';
  if (table[sender][otherKind].has(method)) return 'wrong-kind';
  const other: Sender = sender === 'client' ? 'server' : 'client';
  if (table[other].request.has(method) || table[other].notification.has(method)) return 'wrong-direction';
  return 'not-in-revision';
}
