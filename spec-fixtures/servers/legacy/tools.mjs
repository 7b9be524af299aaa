// tools/call for the scripted legacy server. Each tool answers through `wire`; the ones that
// ask the client something send a server→client request and return its answer as text JSON.

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const answered = (outcome) =>
  'error' in outcome ? { ...text(JSON.stringify(outcome.error)), isError: true } : text(JSON.stringify(outcome.result));

/** True when `level` passes the threshold set by logging/setLevel (everything passes before). */
export function passesLevel(level, threshold) {
  return threshold === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);
}

/** A valid logging level name. */
export const isLevel = (level) => LEVELS.includes(level);

/**
 * Runs tool `name` for request `id`. `server` holds what tools read and change: `wire`,
 * `catalog`, `version`, `capabilities`, `logLevel`, `subscribed` (Set of URIs), `inflight`
 * (request id → cancel function) and `die(why)`.
 */
export function callTool(server, id, name, args, meta) {
  const { wire, catalog, version, capabilities } = server;
  const reply = (result) => {
    server.inflight.delete(id);
    wire.reply(id, result);
  };
  const structured = version >= '2025-06-18';

  switch (name) {
    case 'echo':
      return reply(text(String(args.text ?? '')));
    case 'add': {
      const sum = Number(args.a) + Number(args.b);
      return reply(structured ? { ...text(JSON.stringify({ sum })), structuredContent: { sum } } : text(String(sum)));
    }
    case 'bad-structured':
      return reply(
        structured
          ? { ...text('{"sum":"not a number"}'), structuredContent: { sum: 'not a number' } }
          : text('not a number'),
      );
    case 'fails':
      // {repeat}: the message said that many times (a server that floods its error text).
      return reply({ ...text('this tool always fails'.repeat(Math.max(1, Number(args.repeat ?? 1)))), isError: true });
    case 'never-answer':
      // Cancelling it only logs (in the server's cancel handler); there is nothing to stop.
      server.inflight.set(id, () => {});
      return;
    case 'slow': {
      const steps = Number(args.steps ?? 3);
      const token = meta?.progressToken;
      if (!(steps > 0)) return reply(text(`done after ${steps} steps`));
      let done = 0;
      const timer = setInterval(
        () => {
          done++;
          if (token !== undefined)
            wire.notify('notifications/progress', { progressToken: token, progress: done, total: steps });
          if (done >= steps) {
            clearInterval(timer);
            reply(text(`done after ${steps} steps`));
          }
        },
        Number(args.ms ?? 300) / Math.max(1, steps),
      );
      server.inflight.set(id, () => clearInterval(timer));
      return;
    }
    case 'ask-sampling':
      return ask(server, id, 'sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt ?? 'Say hello') } }],
        maxTokens: 100,
      });
    case 'ask-elicitation':
      return ask(server, id, 'elicitation/create', {
        ...(version >= '2025-11-25' ? { mode: 'form' } : {}),
        message: String(args.message ?? 'What is your name?'),
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
    case 'ask-elicitation-url': {
      const elicitationId = `elicitation-${id}`;
      return ask(
        server,
        id,
        'elicitation/create',
        {
          mode: 'url',
          message: 'Please sign in',
          url: String(args.url ?? 'https://example.com/sign-in'),
          elicitationId,
        },
        (outcome) => {
          // The out-of-band step "finishes" at once: tell the client, as 2025-11-25 servers do.
          if (outcome.result?.action === 'accept') wire.notify('notifications/elicitation/complete', { elicitationId });
        },
      );
    }
    case 'ask-roots':
      return ask(server, id, 'roots/list', undefined);
    case 'ask-ping':
      return ask(server, id, 'ping', undefined);
    case 'log': {
      if (!capabilities.logging) return reply(text('no logging capability'));
      if (!passesLevel(args.level, server.logLevel)) return reply(text('filtered'));
      wire.notify('notifications/message', { level: args.level, logger: 'fixture', data: args.message });
      return reply(text('sent'));
    }
    case 'change-tools':
      return change(server, id, 'extraTool', capabilities.tools?.listChanged, 'notifications/tools/list_changed');
    case 'change-prompts':
      return change(server, id, 'extraPrompt', capabilities.prompts?.listChanged, 'notifications/prompts/list_changed');
    case 'change-resources':
      return change(
        server,
        id,
        'extraResource',
        capabilities.resources?.listChanged,
        'notifications/resources/list_changed',
      );
    case 'big':
      return reply(text('x'.repeat(Math.max(0, Number(args.bytes) || 0))));
    case 'touch': {
      const uri = String(args.uri);
      if (!server.subscribed.has(uri)) return reply(text(`not subscribed ${uri}`));
      wire.notify('notifications/resources/updated', { uri });
      return reply(text(`notified ${uri}`));
    }
    case 'extra':
      if (catalog.state.extraTool) return reply(text('extra'));
  }
  return wire.fail(id, -32602, `Unknown tool: ${name}`);
}

/** Sends a server→client request; answers tool call `id` with what came back. */
function ask(server, id, method, params, after) {
  let cancelled = false;
  server.inflight.set(id, () => (cancelled = true));
  void server.wire.request(method, params).then((outcome) => {
    after?.(outcome);
    if (cancelled) return;
    server.inflight.delete(id);
    server.wire.reply(id, answered(outcome));
  });
}

/** Adds the extra item behind `flag`, announcing the change only if the capability says so. */
function change(server, id, flag, announced, notification) {
  server.catalog.state[flag] = true;
  if (announced) server.wire.notify(notification);
  server.wire.reply(id, text(announced ? 'changed' : 'changed (not announced: no listChanged capability)'));
}
