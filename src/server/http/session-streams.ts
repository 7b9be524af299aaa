/**
 * GET and DELETE of the server kit's HTTP handler: what a legacy session is asked besides its
 * POSTs (its standalone stream, the resumption of a POST stream, its end), and the notices the
 * standalone streams carry (`list_changed`, `resources/updated`).
 */
import { McpError } from '../../protocol/errors.js';
import { makeNotification, type JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { Disposer } from '../../protocol/transport.js';
import type { ServerCore } from '../router/server-core.js';
import type { HttpRequestIn, ResponseSink } from '../../transport/http-server/http-exchange.js';
import { refuse } from './http-answers.js';
import { writeToStreams, type HttpSession, type HttpSessions } from './http-sessions.js';
import { acceptsSse } from './request-guards.js';

/** The session header (lower-case, as Node gives it). */
export const SESSION_HEADER = 'mcp-session-id';

/** 503: this node holds as many legacy sessions as it may (`maxSessions`). */
export function tooManySessions(res: ResponseSink): void {
  refuse(res, { status: 503, message: 'Service Unavailable: too many sessions' }, { 'retry-after': '5' });
}

/**
 * GET on a legacy session of `principal`: the standalone SSE stream (`list_changed`,
 * `resources/updated`), or with `Last-Event-ID` the resumption of one of its POST streams (an id
 * that resumes nothing — malformed, forged, another session's, trimmed — replays nothing: the GET
 * is the standalone stream). 405 without sessions.
 */
export async function serveGet(
  sessions: HttpSessions | undefined,
  req: HttpRequestIn,
  res: ResponseSink,
  principal: string | undefined,
): Promise<void> {
  if (!sessions)
    return refuse(
      res,
      { status: 405, message: 'Method Not Allowed: this server has no standalone stream' },
      { allow: 'POST' },
    );
  if (!acceptsSse(req))
    return refuse(res, { status: 406, message: 'Not Acceptable: GET needs Accept: text/event-stream' });
  const id = req.header(SESSION_HEADER);
  if (id === undefined)
    return refuse(res, { status: 400, message: 'Bad Request: the Mcp-Session-Id header is required' });
  const session = await sessions.get(id, principal);
  if (session === 'busy') return tooManySessions(res);
  if (!session?.legacy) return refuse(res, { status: 404, message: 'Not Found: no such session' });
  const open = (): void =>
    res.open(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      [SESSION_HEADER]: session.id,
    });
  // A Last-Event-ID of one of the session's POST streams resumes that stream here (what was
  // missed, then the rest, its answer last); any other GET is the standalone stream.
  const resume = req.header('last-event-id');
  if (resume !== undefined && (await session.resumable.resume(res, resume, open))) return;
  open();
  if (res.done) return;
  session.streams.add(res);
  res.onClose(() => session.streams.delete(res));
}

/** DELETE on a legacy session of `principal`: ends it on every node (its requests aborted). 405 without sessions. */
export async function serveDelete(
  sessions: HttpSessions | undefined,
  req: HttpRequestIn,
  res: ResponseSink,
  principal: string | undefined,
): Promise<void> {
  if (!sessions)
    return refuse(res, { status: 405, message: 'Method Not Allowed: this server has no sessions' }, { allow: 'POST' });
  const id = req.header(SESSION_HEADER);
  if (id === undefined)
    return refuse(res, { status: 400, message: 'Bad Request: the Mcp-Session-Id header is required' });
  if (!(await sessions.delete(id, principal)))
    return refuse(res, { status: 404, message: 'Not Found: no such session' });
  res.send(200, {});
}

/**
 * Sends `list_changed` (once per tick of changes) to every initialized session's GET streams, and
 * `resources/updated` to those of the sessions subscribed to the resource; lets go of a session
 * held here that a DELETE on another node ended; re-reads a session whose facts another node
 * stored, and delivers to it what a client POSTed to another node for it. Returns the disposers.
 */
export function followChanges(core: ServerCore, sessions: HttpSessions): Disposer[] {
  const queued = new Set<string>();
  const broadcast = (message: JsonRpcMessage, to: (session: HttpSession) => boolean): void => {
    for (const session of sessions.ready()) if (to(session)) writeToStreams(session.streams, message);
  };
  const listChanged = (list: string): void => {
    if (queued.has(list)) return;
    queued.add(list);
    queueMicrotask(() => {
      queued.delete(list);
      broadcast(makeNotification(`notifications/${list}/list_changed`), () => true);
    });
  };
  return [
    core.changes.add((change) => {
      if (change.type === 'list_changed') listChanged(change.list);
      else if (change.type === 'session_ended')
        sessions.release(change.sessionId, new McpError('CONNECTION_CLOSED', 'the client ended the session'));
      else if (change.type === 'session' || change.type === 'session_message' || change.type === 'session_notice')
        sessions.heard(change);
      else if (change.type === 'resource_updated')
        broadcast(
          makeNotification('notifications/resources/updated', { uri: change.uri }),
          (session) => session.legacy?.subscriptions.has(change.uri) === true,
        );
    }),
  ];
}
