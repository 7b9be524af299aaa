// What the scripted legacy server offers: tool, resource, template and prompt definitions, their
// reads, completions, and opaque-cursor pagination over every list.

const object = (properties = {}, required) => ({ type: 'object', properties, ...(required ? { required } : {}) });
const SUM_SCHEMA = object({ sum: { type: 'number' } }, ['sum']);

/** Tool definitions; `structured` marks tools that declare an outputSchema (2025-06-18 on). */
const TOOLS = [
  { name: 'echo', description: 'Echoes text', inputSchema: object({ text: { type: 'string' } }) },
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    structured: true,
  },
  {
    name: 'bad-structured',
    description: 'Returns structuredContent that breaks its outputSchema',
    inputSchema: object(),
    structured: true,
  },
  { name: 'fails', description: 'Always fails (isError)', inputSchema: object({ repeat: { type: 'integer' } }) },
  {
    name: 'slow',
    description: 'Reports progress, then answers',
    inputSchema: object({ ms: { type: 'number' }, steps: { type: 'number' } }),
  },
  { name: 'never-answer', description: 'Never answers', inputSchema: object() },
  { name: 'crash', description: 'Exits with code 1', inputSchema: object() },
  {
    name: 'ask-sampling',
    description: 'Sends sampling/createMessage',
    inputSchema: object({ prompt: { type: 'string' } }),
  },
  {
    name: 'ask-elicitation',
    description: 'Sends a form elicitation/create',
    inputSchema: object({ message: { type: 'string' } }),
  },
  {
    name: 'ask-elicitation-url',
    description: 'Sends a URL-mode elicitation/create',
    inputSchema: object({ url: { type: 'string' } }),
  },
  { name: 'ask-roots', description: 'Sends roots/list', inputSchema: object() },
  { name: 'ask-ping', description: 'Sends ping', inputSchema: object() },
  {
    name: 'log',
    description: 'Sends notifications/message',
    inputSchema: object({ level: { type: 'string' }, message: { type: 'string' } }, ['level', 'message']),
  },
  { name: 'change-tools', description: 'Adds tool extra, announces tools/list_changed', inputSchema: object() },
  { name: 'change-prompts', description: 'Adds prompt extra, announces prompts/list_changed', inputSchema: object() },
  {
    name: 'change-resources',
    description: 'Adds resource test://static/extra, announces resources/list_changed',
    inputSchema: object(),
  },
  {
    name: 'big',
    description: 'Returns a text of `bytes` bytes',
    inputSchema: object({ bytes: { type: 'number' } }, ['bytes']),
  },
  {
    name: 'touch',
    description: 'Sends resources/updated for a subscribed URI',
    inputSchema: object({ uri: { type: 'string' } }, ['uri']),
  },
];
const EXTRA_TOOL = { name: 'extra', description: 'Added by change-tools', inputSchema: object() };

const NAMES = ['Ada', 'Alan', 'Alice', 'Bob', 'Grace'];
const IDS = Array.from({ length: 12 }, (_, i) => String(i + 1));
const BLOB = Buffer.from(Array.from({ length: 16 }, (_, i) => i)).toString('base64');
const TEMPLATE = { uriTemplate: 'test://dynamic/{id}', name: 'dynamic', description: 'Any id', mimeType: 'text/plain' };

/** The live catalog of one server process. `structured`: the revision has outputSchema. */
export function createCatalog({ resourceCount, structured }) {
  const state = { extraTool: false, extraPrompt: false, extraResource: false };

  const tools = () =>
    [...TOOLS, ...(state.extraTool ? [EXTRA_TOOL] : [])].map(({ structured: hasOutput, ...tool }) =>
      hasOutput && structured ? { ...tool, outputSchema: SUM_SCHEMA } : tool,
    );

  const resources = () => {
    const list = Array.from({ length: resourceCount }, (_, i) => {
      const blob = i === resourceCount - 1;
      return {
        uri: `test://static/${i + 1}`,
        name: `static-${i + 1}`,
        mimeType: blob ? 'application/octet-stream' : 'text/plain',
      };
    });
    return state.extraResource
      ? [...list, { uri: 'test://static/extra', name: 'extra', mimeType: 'text/plain' }]
      : list;
  };

  const prompts = () => [
    {
      name: 'greet',
      description: 'Greets someone',
      arguments: [{ name: 'name', description: 'Who to greet', required: true }],
    },
    { name: 'plain', description: 'No arguments' },
    ...(state.extraPrompt ? [{ name: 'extra', description: 'Added by change-prompts' }] : []),
  ];

  return {
    state,
    lists: { tools, resources, resourceTemplates: () => [TEMPLATE], prompts },

    /** Contents of `uri`, or undefined when there is no such resource. */
    read(uri) {
      const found = resources().find((r) => r.uri === uri);
      if (found?.mimeType === 'application/octet-stream') return [{ uri, mimeType: found.mimeType, blob: BLOB }];
      if (found)
        return [{ uri, mimeType: 'text/plain', text: `static resource ${uri.slice('test://static/'.length)}` }];
      const dynamic = /^test:\/\/dynamic\/([^/]+)$/.exec(uri);
      return dynamic ? [{ uri, mimeType: 'text/plain', text: `dynamic resource ${dynamic[1]}` }] : undefined;
    },

    /** A prompts/get result, or an error message string. */
    prompt(name, args = {}) {
      if (name === 'greet') {
        if (typeof args.name !== 'string') return 'Missing required argument: name';
        return {
          description: 'Greets someone',
          messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${args.name}!` } }],
        };
      }
      if (name === 'plain' || (name === 'extra' && state.extraPrompt))
        return { messages: [{ role: 'user', content: { type: 'text', text: `A ${name} prompt.` } }] };
      return `Unknown prompt: ${name}`;
    },

    /** completion/complete values for the greet prompt's `name` and the template's `id`. */
    complete(ref, argument) {
      const value = String(argument?.value ?? '').toLowerCase();
      let pool = [];
      if (ref?.type === 'ref/prompt' && ref.name === 'greet' && argument?.name === 'name') pool = NAMES;
      if (ref?.type === 'ref/resource' && ref.uri === TEMPLATE.uriTemplate && argument?.name === 'id') pool = IDS;
      const values = pool.filter((v) => v.toLowerCase().startsWith(value));
      return { values, total: values.length, hasMore: false };
    },
  };
}

/** Synthetic items past the real end of a list, for --endless-pages. */
const SYNTHETIC = {
  tools: (i) => ({ name: `endless-${i}`, inputSchema: { type: 'object' } }),
  resources: (i) => ({ uri: `test://endless/${i}`, name: `endless-${i}` }),
  resourceTemplates: (i) => ({ uriTemplate: `test://endless/${i}/{id}`, name: `endless-${i}` }),
  prompts: (i) => ({ name: `endless-${i}` }),
};

/**
 * One page of list `key`. Cursors are opaque base64url strings; one the server never minted
 * yields `{ error }`. `endless`: every page has a nextCursor, past the end with synthetic items.
 */
export function page(items, key, cursor, { pageSize, endless }) {
  let offset = 0;
  if (cursor !== undefined) {
    try {
      const decoded = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
      if (decoded.list !== key || !Number.isInteger(decoded.offset) || decoded.offset < 0)
        throw new Error('foreign cursor');
      offset = decoded.offset;
    } catch {
      return { error: `Invalid cursor: ${cursor}` };
    }
  }
  const size = Number.isFinite(pageSize) ? pageSize : endless ? Math.max(1, items.length) : Infinity;
  const end = offset + size;
  const slice = [];
  for (let i = offset; i < end && (endless || i < items.length); i++)
    slice.push(i < items.length ? items[i] : SYNTHETIC[key](i));
  const more = endless || end < items.length;
  return {
    [key]: slice,
    ...(more ? { nextCursor: Buffer.from(JSON.stringify({ list: key, offset: end })).toString('base64url') } : {}),
  };
}
