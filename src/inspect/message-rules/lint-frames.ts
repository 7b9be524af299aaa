/**
 * mcpwire's own linter for recorded MCP traffic: walks frames in wire order, keeps per-server
 * session facts (negotiated revision, the client's declared capabilities, open request ids each
 * way) and reports every message that breaks a rule of {@link MESSAGE_RULES} under the revision
 * in force for it. Pure: no I/O, no clock; the input is not mutated.
 *
 * The revision of a message is, in order: what the message itself says (a 2026 request's
 * `_meta` protocolVersion; the version an `initialize` offers), for a response the revision of
 * the request it answers (an initialize result: the version it settles on), the server's
 * negotiated revision (initialize result, or a successful answer to a 2026-style request), and
 * last the revision the recorder noted on the frame. Where it stays unknown, only the
 * revision-independent rules apply.
 */
import { classifyMessage, type Classified, type JsonRpcId } from '../../protocol/jsonrpc.js';
import { hasFeature, isSupportedRevision, LEGACY_REVISIONS } from '../../protocol/revisions.js';
import { missingClientCapability } from './client-capabilities.js';
import { isObject } from './field-checks.js';
import { judgeMethod, type Sender } from './method-table.js';
import { resultProblems } from './result-shapes.js';
import type { RuleId } from './rules.js';
import { META_KEYS } from '../../protocol/meta-keys.js';
import type {
  FrameContext,
  FrameDirection,
  LintOutcome,
  MessageContext,
  RuleFrame,
  RuleViolation,
} from './lint-types.js';

export type {
  FrameContext,
  FrameDirection,
  LintOutcome,
  MessageContext,
  RuleFrame,
  RuleViolation,
} from './lint-types.js';

interface OpenRequest {
  method: string;
  revision?: string;
  params?: unknown;
  /** The request named its revision itself (2026 `_meta`). */
  modern: boolean;
}

interface Session {
  revision?: string;
  offered?: unknown;
  clientCapabilities?: Record<string, unknown>;
  open: Record<FrameDirection, Map<string, OpenRequest>>;
  /** Requests their sender cancelled: a late answer to one is allowed (cancellation.mdx). */
  cancelled: Record<FrameDirection, Map<string, OpenRequest>>;
}

/** Events after which request ids start over (a new process or connection). */
const RESET_EVENTS = new Set(['spawn', 'exit', 'close', 'connect', 'restart', 'reconnect']);
const CANCELLED_KEPT = 1_000;
const VERSION_KEY = META_KEYS.protocolVersion;
const CAPABILITIES_KEY = META_KEYS.clientCapabilities;

function idKey(id: JsonRpcId): string {
  return typeof id === 'string' ? `s:${id}` : `n:${id}`;
}

const senderOf = (dir: FrameDirection): Sender => (dir === 'out' ? 'client' : 'server');
const otherDir = (dir: FrameDirection): FrameDirection => (dir === 'out' ? 'in' : 'out');
/**
 * The era probe's ping: a client `ping` carrying the 2026 envelope while its `server/discover`
 * probe is still open and no revision is settled. It is read by either era (a legacy server takes
 * `_meta` as request metadata; a 2026 one answers -32601), so it is checked by no revision's rules.
 */
function isProbePing(session: Session, frame: RuleFrame, method: string): boolean {
  if (method !== 'ping' || frame.dir !== 'out' || session.revision !== undefined) return false;
  return [...session.open.out.values()].some((open) => open.method === 'server/discover');
}

/** 2026-07-28 and later known revisions: per-request `_meta`, resultType. */
const isModern = (revision: string | undefined): boolean =>
  revision !== undefined && isSupportedRevision(revision) && hasFeature(revision, 'resultType');

function metaOf(params: unknown): Record<string, unknown> | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/** The rule a `classifyMessage` failure breaks. */
function envelopeRule(reason: string): RuleId {
  if (reason.includes('"jsonrpc"')) return 'jsonrpc.version';
  if (reason.includes('"id"')) return 'jsonrpc.id-type';
  return 'jsonrpc.shape';
}

class Linter {
  private readonly sessions = new Map<string, Session>();
  readonly violations: RuleViolation[] = [];
  readonly contexts: FrameContext[] = [];

  run(frames: readonly RuleFrame[]): void {
    frames.forEach((frame, index) => this.contexts.push({ messages: this.frame(frame, index) }));
  }

  private session(server: string): Session {
    let session = this.sessions.get(server);
    if (!session) {
      session = { open: { out: new Map(), in: new Map() }, cancelled: { out: new Map(), in: new Map() } };
      this.sessions.set(server, session);
    }
    return session;
  }

  private frame(frame: RuleFrame, index: number): MessageContext[] {
    const session = this.session(frame.server);
    if (frame.event !== undefined) {
      if (RESET_EVENTS.has(frame.event)) this.forgetRequests(session);
      return [];
    }
    if (frame.unparsed) {
      this.report(index, frame, { rule: 'jsonrpc.parse', message: 'the frame is not JSON' });
      return [];
    }
    if (frame.message === undefined) return [];
    if (!Array.isArray(frame.message)) return [this.message(frame, index, session, frame.message, '')];
    const revision = session.revision ?? frame.notedRevision;
    if (frame.message.length === 0) {
      this.report(index, frame, { rule: 'jsonrpc.shape', message: 'an empty batch is not a valid message', revision });
      return [];
    }
    if (revision !== undefined && isSupportedRevision(revision) && !hasFeature(revision, 'batching')) {
      this.report(index, frame, {
        rule: 'jsonrpc.batch-not-allowed',
        message: `a batch of ${frame.message.length} messages, but ${revision} has no JSON-RPC batching (only 2025-03-26 has)`,
        revision,
      });
    }
    return frame.message.map((item, i) => this.message(frame, index, session, item, `[${i}]`));
  }

  private message(frame: RuleFrame, index: number, session: Session, value: unknown, prefix: string): MessageContext {
    const sender = senderOf(frame.dir);
    const c = classifyMessage(value);
    switch (c.kind) {
      case 'request':
        return this.request(frame, index, session, c.message, prefix);
      case 'notification':
        return this.notification(frame, index, session, c.message, prefix);
      case 'response':
      case 'error':
        return this.response(frame, index, session, c, prefix);
      default: {
        const revision = session.revision ?? frame.notedRevision;
        const item = prefix ? ` (batch item ${prefix})` : '';
        this.report(index, frame, {
          rule: envelopeRule(c.reason),
          message: c.reason + item,
          id: c.id,
          revision,
          path: prefix || undefined,
        });
        // A malformed answer still ends its request: do not blame later traffic for it.
        if (c.id !== undefined && isObject(value) && !('method' in value))
          session.open[otherDir(frame.dir)].delete(idKey(c.id));
        return { sender, revision };
      }
    }
  }

  private request(
    frame: RuleFrame,
    index: number,
    session: Session,
    message: { id: JsonRpcId; method: string; params?: unknown },
    prefix: string,
  ): MessageContext {
    const { id, method, params } = message;
    const sender = senderOf(frame.dir);
    const meta = metaOf(params);
    const stated = meta?.[VERSION_KEY];
    let revision: string | undefined;
    if (typeof stated === 'string' && isProbePing(session, frame, method)) revision = undefined;
    else if (typeof stated === 'string') revision = stated;
    else if (method === 'initialize' && frame.dir === 'out') {
      // A new legacy session: what came before (a 2026 probe, an earlier process) no longer counts.
      const offered = isObject(params) ? params.protocolVersion : undefined;
      this.giveUpRequests(session);
      session.revision = undefined;
      session.offered = offered;
      session.clientCapabilities = isObject(params) && isObject(params.capabilities) ? params.capabilities : undefined;
      revision = typeof offered === 'string' && isSupportedRevision(offered) ? offered : undefined;
    } else revision = session.revision ?? frame.notedRevision;

    const facts = { id, method, revision };
    const key = idKey(id);
    if (session.open[frame.dir].has(key)) {
      // 2026-07-28/basic/index.mdx "Requests": no id of a request still awaiting its response.
      this.report(index, frame, {
        ...facts,
        rule: 'jsonrpc.duplicate-id',
        path: `${prefix}id`,
        message: `request id ${JSON.stringify(id)} is already in use by an open ${session.open[frame.dir].get(key)!.method} request from the ${sender}`,
      });
    }
    session.open[frame.dir].set(key, {
      method,
      revision,
      params,
      modern: revision !== undefined && typeof stated === 'string',
    });

    if (revision !== undefined && this.methodBroken(frame, index, { id, method, revision }, sender, 'request', prefix))
      return { sender, revision };

    if (sender === 'client' && isModern(revision)) {
      // 2026-07-28/basic/index.mdx "_meta": both keys are required on every request.
      if (typeof stated !== 'string') {
        this.report(index, frame, {
          ...facts,
          rule: 'modern.protocol-version-missing',
          path: `${prefix}params._meta`,
          message: `${method} request in ${revision} has no params._meta["${VERSION_KEY}"]`,
        });
      }
      if (!isObject(meta?.[CAPABILITIES_KEY])) {
        this.report(index, frame, {
          ...facts,
          rule: 'modern.client-capabilities-missing',
          path: `${prefix}params._meta`,
          message: `${method} request in ${revision} has no params._meta["${CAPABILITIES_KEY}"] object`,
        });
      }
    }
    if (sender === 'server' && session.clientCapabilities) {
      const lacking = missingClientCapability(method, params, session.clientCapabilities);
      if (lacking) {
        this.report(index, frame, {
          ...facts,
          rule: 'capability.client-undeclared',
          path: `${prefix}method`,
          message: `the server sent ${method}, but the client declared no ${lacking} capability in initialize`,
        });
      }
    }
    return { sender, revision };
  }

  private notification(
    frame: RuleFrame,
    index: number,
    session: Session,
    message: { method: string; params?: unknown },
    prefix: string,
  ): MessageContext {
    const { method, params } = message;
    const sender = senderOf(frame.dir);
    const revision = session.revision ?? frame.notedRevision;
    if (revision !== undefined) this.methodBroken(frame, index, { method, revision }, sender, 'notification', prefix);
    if (
      method === 'notifications/cancelled' &&
      isObject(params) &&
      (typeof params.requestId === 'string' || typeof params.requestId === 'number')
    ) {
      // The sender gives up on its own request; the answer may still come (cancellation.mdx).
      const key = idKey(params.requestId);
      const open = session.open[frame.dir].get(key);
      if (open) {
        session.open[frame.dir].delete(key);
        const cancelled = session.cancelled[frame.dir];
        cancelled.set(key, open);
        if (cancelled.size > CANCELLED_KEPT) cancelled.delete(cancelled.keys().next().value!);
      }
    }
    return { sender, revision };
  }

  private response(
    frame: RuleFrame,
    index: number,
    session: Session,
    c: Extract<Classified, { kind: 'response' | 'error' }>,
    prefix: string,
  ): MessageContext {
    const sender = senderOf(frame.dir);
    const id = c.message.id;
    if (id === null) return { sender, revision: session.revision ?? frame.notedRevision };
    const key = idKey(id);
    const asked = otherDir(frame.dir);
    const request = session.open[asked].get(key) ?? session.cancelled[asked].get(key);
    if (!request) {
      const revision = session.revision ?? frame.notedRevision;
      this.report(index, frame, {
        id,
        revision,
        rule: 'jsonrpc.unknown-id',
        path: `${prefix}id`,
        message: `${c.kind === 'error' ? 'error' : 'response'} for id ${JSON.stringify(id)}, but the ${senderOf(asked)} has no open request with that id`,
      });
      return { sender, revision };
    }
    session.open[asked].delete(key);
    session.cancelled[asked].delete(key);
    let revision = request.revision ?? session.revision ?? frame.notedRevision;
    const context: MessageContext = { sender, revision, answers: request.method, requestParams: request.params };
    if (c.kind !== 'response') return context;
    const result = c.message.result;

    if (request.method === 'initialize' && sender === 'server') {
      const version = result.protocolVersion;
      if (typeof version === 'string') {
        // <rev>/basic/lifecycle.mdx "Version Negotiation": the offered version, or another the server supports.
        if (version !== session.offered && !(LEGACY_REVISIONS as readonly string[]).includes(version)) {
          const offered = typeof session.offered === 'string' ? `"${session.offered}"` : 'no version';
          this.report(index, frame, {
            id,
            method: 'initialize',
            revision,
            rule: 'initialize.version-unsupported',
            path: `${prefix}result.protocolVersion`,
            message: `result.protocolVersion "${version}" is neither the version the client offered (${offered}) nor a published handshake revision (${LEGACY_REVISIONS.join(', ')})`,
          });
        }
        session.revision = version;
        if (isSupportedRevision(version)) revision = version;
        context.revision = revision;
      }
    } else if (request.modern && request.revision !== undefined) {
      // A successful 2026-style exchange settles the era for the traffic that follows.
      session.revision = request.revision;
    }
    if (sender === 'server') {
      for (const problem of resultProblems(request.method, result, { revision, requestParams: request.params })) {
        this.report(index, frame, {
          id,
          method: request.method,
          revision,
          rule: problem.rule,
          path: prefix + problem.path,
          message: problem.message + (prefix ? ` (batch item ${prefix})` : ''),
        });
      }
    }
    return context;
  }

  /** Reports a method the revision lacks (for this sender and kind); true when it did. */
  private methodBroken(
    frame: RuleFrame,
    index: number,
    facts: { id?: JsonRpcId; method: string; revision: string },
    sender: Sender,
    kind: 'request' | 'notification',
    prefix: string,
  ): boolean {
    const verdict = judgeMethod(facts.revision, sender, kind, facts.method);
    if (verdict === 'ok') return false;
    const path = `${prefix}method`;
    const other = sender === 'client' ? 'server' : 'client';
    const messages: Record<Exclude<typeof verdict, 'ok'>, { rule: RuleId; message: string }> = {
      'not-in-revision': {
        rule: 'method.not-in-revision',
        message: `${facts.revision} has no ${sender} ${kind} "${facts.method}"`,
      },
      'wrong-direction': {
        rule: 'method.wrong-direction',
        message: `"${facts.method}" is sent by the ${other} in ${facts.revision}, never by the ${sender}`,
      },
      'wrong-kind':
        kind === 'request'
          ? {
              rule: 'method.wrong-kind',
              message: `"${facts.method}" is a notification in ${facts.revision}: it must not carry an id`,
            }
          : {
              rule: 'method.wrong-kind',
              message: `"${facts.method}" is a request in ${facts.revision}: it needs an id`,
            },
    };
    this.report(index, frame, { ...facts, ...messages[verdict], path });
    return true;
  }

  /**
   * A new `initialize` on the same connection: the requests still open were given up by their
   * sender (a 2026 probe that timed out on a slow server), but the same process may still answer
   * them, so a late answer is no violation; they are kept as cancelled ones are.
   */
  private giveUpRequests(session: Session): void {
    for (const dir of ['out', 'in'] as const) {
      const cancelled = session.cancelled[dir];
      for (const [key, open] of session.open[dir]) {
        cancelled.set(key, open);
        if (cancelled.size > CANCELLED_KEPT) cancelled.delete(cancelled.keys().next().value!);
      }
      session.open[dir].clear();
    }
  }

  /** A process started, ended or was reconnected: nothing open before can be answered any more. */
  private forgetRequests(session: Session): void {
    for (const dir of ['out', 'in'] as const) {
      session.open[dir].clear();
      session.cancelled[dir].clear();
    }
  }

  private report(index: number, frame: RuleFrame, v: Omit<RuleViolation, 'frame' | 'server' | 'dir'>): void {
    const violation: RuleViolation = {
      frame: index,
      server: frame.server,
      dir: frame.dir,
      rule: v.rule,
      message: v.message,
    };
    if (v.id !== undefined) violation.id = v.id;
    if (v.method !== undefined) violation.method = v.method;
    if (v.path !== undefined) violation.path = v.path;
    if (v.revision !== undefined) violation.revision = v.revision;
    this.violations.push(violation);
  }
}

/**
 * Lints `frames` (wire order; several servers may interleave, each keeps its own session) with
 * mcpwire's own rules. Never throws on any input. Returns the violations and, per frame, what was
 * settled about each message (revision, method answered) for further checks such as the
 * official JSON Schemas.
 */
export function lintFrames(frames: readonly RuleFrame[]): LintOutcome {
  const linter = new Linter();
  linter.run(frames);
  return { violations: linter.violations, contexts: linter.contexts };
}
