// The conformance kit: the server the official suite's server scenarios run against, with the
// tool, resource and prompt names the suite expects, built on the kit from dist/ (`npm run build`
// first). One per process; served by server.mjs (node:http) and fetch-app.mjs (a fetch handler
// under node, deno and bun). Imports nothing but `mcpwire/server`.
import { McpServer, ToolError } from 'mcpwire/server';

// A 1×1 red PNG and a tiny silent WAV.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const wait = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
const NO_ARGS = { type: 'object', properties: {} };
const server = new McpServer({ name: 'mcpwire-conformance-server', version: '1.0.0' });
// The text the suite's elicitation scenarios expect back: the action and the content as JSON.
const elicitationReply = (prefix, result) => ({
  content: [
    { type: 'text', text: `${prefix}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}` },
  ],
});
// The one-boolean form the requestState scenarios ask for, under the key they expect.
const askToConfirm = (context) =>
  context.elicit(
    {
      message: 'Please confirm',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    },
    { key: 'confirm' },
  );
// A tool without arguments that asks the user for one form of the given properties.
const registerFormTool = (name, description, message, properties) =>
  server.registerTool({
    name,
    description,
    inputSchema: NO_ARGS,
    handler: async (_args, context) =>
      elicitationReply(
        'Elicitation completed',
        await context.elicit({ message, requestedSchema: { type: 'object', properties } }),
      ),
  });
server.registerTool({
  name: 'test_simple_text',
  description: 'Returns simple text',
  inputSchema: NO_ARGS,
  handler: () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
});
server.registerTool({
  name: 'test_image_content',
  description: 'Returns an image',
  inputSchema: NO_ARGS,
  handler: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
});
server.registerTool({
  name: 'test_audio_content',
  description: 'Returns audio',
  inputSchema: NO_ARGS,
  handler: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
});
server.registerTool({
  name: 'test_embedded_resource',
  description: 'Returns an embedded resource',
  inputSchema: NO_ARGS,
  handler: () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }),
});
server.registerTool({
  name: 'test_multiple_content_types',
  description: 'Returns text, an image and a resource',
  inputSchema: NO_ARGS,
  handler: () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ],
  }),
});
server.registerTool({
  name: 'test_tool_with_logging',
  description: 'Sends three log messages while it runs',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    context.log('info', 'Tool execution started');
    await wait(50, context.signal);
    context.log('info', 'Tool processing data');
    await wait(50, context.signal);
    context.log('info', 'Tool execution completed');
    return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
  },
});
server.registerTool({
  name: 'test_tool_with_progress',
  description: 'Reports progress 0, 50, 100 of 100',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    context.progress(0, 100);
    await wait(50, context.signal);
    context.progress(50, 100);
    await wait(50, context.signal);
    context.progress(100, 100);
    return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] };
  },
});
server.registerTool({
  name: 'test_error_handling',
  description: 'Always fails',
  inputSchema: NO_ARGS,
  handler: () => {
    throw new ToolError('TEST_ERROR', 'This tool intentionally returns an error for testing');
  },
});
server.registerTool({
  name: 'json_schema_2020_12_tool',
  description: 'A tool whose inputSchema uses JSON Schema 2020-12 keywords',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'address',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contact: {
        anyOf: [
          { type: 'string', format: 'email' },
          { type: 'string', pattern: '^\\+?[0-9 ]+$' },
        ],
      },
      kind: { type: 'string', enum: ['person', 'company'] },
      vat: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }] }],
    if: { properties: { kind: { const: 'company' } }, required: ['kind'] },
    then: { required: ['vat'] },
    else: { not: { required: ['vat'] } },
    additionalProperties: false,
  },
  handler: (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
});

server.registerTool({
  name: 'test_sampling',
  description: "Asks the client's model",
  inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  handler: async ({ prompt }, context) => {
    const result = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens: 100,
    });
    const text = result.content?.type === 'text' ? result.content.text : JSON.stringify(result.content);
    return { content: [{ type: 'text', text: `LLM response: ${text}` }] };
  },
});
server.registerTool({
  name: 'test_elicitation',
  description: 'Asks the user',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  handler: async ({ message }, context) => {
    const result = await context.elicit({
      message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return elicitationReply('User response', result);
  },
});
registerFormTool(
  'test_elicitation_sep1034_defaults',
  'Elicitation with defaults for every primitive type',
  'Please review and update the form fields with defaults',
  {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
);
registerFormTool(
  'test_elicitation_sep1330_enums',
  'Elicitation with the five enum forms',
  'Please select options from the enum fields',
  {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
);

// Diagnostic tools of the 2026-07-28 scenarios.
server.registerTool({
  name: 'test_missing_capability',
  description: 'Needs the sampling capability (refused with -32021 without it)',
  inputSchema: NO_ARGS,
  requiredClientCapabilities: { sampling: {} },
  handler: () => ({ content: [{ type: 'text', text: 'The client declared sampling.' }] }),
});
server.registerTool({
  name: 'test_logging_tool',
  description: 'Logs at info (sent only when the request asks for a log level)',
  inputSchema: NO_ARGS,
  handler: (_args, context) => {
    context.log('info', 'test_logging_tool ran');
    return { content: [{ type: 'text', text: 'logged' }] };
  },
});
server.registerTool({
  name: 'test_custom_header',
  description: 'Mirrors its region argument into the Mcp-Param-Region header',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
    required: ['region'],
  },
  handler: ({ region }) => ({ content: [{ type: 'text', text: `region: ${region}` }] }),
});

// 2026-07-28 multi-round-trip input (the kit re-runs the handler with the answers; keys as the suite names them).
const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const said = (answer, field) => String(answer?.content?.[field] ?? '');
server.registerTool({
  name: 'test_input_required_result_elicitation',
  description: 'Asks for a name through input_required',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const answer = await context.elicit(
      { message: 'What is your name?', requestedSchema: NAME_FORM },
      { key: 'user_name' },
    );
    return { content: [{ type: 'text', text: `Hello, ${said(answer, 'name')}!` }] };
  },
});
server.registerTool({
  name: 'test_input_required_result_sampling',
  description: 'Asks the model through input_required',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const answer = await context.sample(
      {
        messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
        maxTokens: 100,
      },
      { key: 'capital_question' },
    );
    return {
      content: [{ type: 'text', text: `The model said: ${answer?.content?.text ?? JSON.stringify(answer?.content)}` }],
    };
  },
});
server.registerTool({
  name: 'test_input_required_result_list_roots',
  description: 'Asks for roots through input_required',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const answer = await context.listRoots({ key: 'client_roots' });
    return { content: [{ type: 'text', text: `Roots: ${(answer?.roots ?? []).map((r) => r.uri).join(', ')}` }] };
  },
});
server.registerTool({
  name: 'test_input_required_result_request_state',
  description: 'Round-trips requestState',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const answer = await askToConfirm(context);
    return {
      content: [
        { type: 'text', text: `${context.resumed ? 'state-ok' : 'state-missing'}: confirmed=${said(answer, 'ok')}` },
      ],
    };
  },
});
server.registerTool({
  name: 'test_input_required_result_multiple_inputs',
  description: 'Asks three things at once',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const [name, greeting, roots] = await Promise.all([
      context.elicit({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' }),
      context.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
        { key: 'greeting' },
      ),
      context.listRoots({ key: 'client_roots' }),
    ]);
    return {
      content: [
        {
          type: 'text',
          text: `name=${said(name, 'name')} greeting=${greeting?.content?.text ?? ''} roots=${(roots?.roots ?? []).length}`,
        },
      ],
    };
  },
});
server.registerTool({
  name: 'test_input_required_result_multi_round',
  description: 'Asks in two rounds',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const name = await context.elicit(
      { message: 'Step 1: What is your name?', requestedSchema: NAME_FORM },
      { key: 'step1' },
    );
    const color = await context.elicit(
      {
        message: 'Step 2: What is your favorite color?',
        requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      },
      { key: 'step2' },
    );
    return { content: [{ type: 'text', text: `${said(name, 'name')} likes ${said(color, 'color')}` }] };
  },
});
server.registerTool({
  name: 'test_input_required_result_tampered_state',
  description: 'Refuses an altered requestState',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const answer = await askToConfirm(context);
    return { content: [{ type: 'text', text: `confirmed=${said(answer, 'ok')}` }] };
  },
});
server.registerTool({
  name: 'test_input_required_result_capabilities',
  description: 'Asks only for what the client declared',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    const caps = context.clientCapabilities;
    const asks = [];
    if (caps.elicitation)
      asks.push(context.elicit({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' }));
    if (caps.sampling)
      asks.push(
        context.sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 },
          { key: 'greeting' },
        ),
      );
    if (caps.roots) asks.push(context.listRoots({ key: 'client_roots' }));
    const answers = await Promise.all(asks);
    return { content: [{ type: 'text', text: `answered ${answers.length}` }] };
  },
});
server.registerTool({
  name: 'test_reconnection',
  description:
    'Closes its SSE stream mid-call (SSE polling); the result comes on the stream the client resumes with Last-Event-ID',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    context.closeStream();
    await wait(100, context.signal);
    return { content: [{ type: 'text', text: 'Reconnection test completed' }] };
  },
});
server.registerTool({
  name: 'test_streaming_elicitation',
  description:
    'Asks the user while its response streams (2026: an input_required result, never a request on the stream)',
  inputSchema: NO_ARGS,
  handler: async (_args, context) => {
    context.progress(0, 1);
    const answer = await context.elicit(
      { message: 'What is your name?', requestedSchema: NAME_FORM },
      { key: 'user_name' },
    );
    return { content: [{ type: 'text', text: `Hello, ${said(answer, 'name')}!` }] };
  },
});

// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663): the fixtures its scenarios name.
server.registerTool({
  name: 'greet',
  description: 'Greets by name (never a task)',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  handler: ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
});
server.registerTool({
  name: 'slow_compute',
  description: 'Sleeps `seconds` seconds, then answers (a task when the client takes tasks)',
  inputSchema: {
    type: 'object',
    properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
    required: ['seconds'],
  },
  taskSupport: 'optional',
  handler: async ({ seconds, label }, context) => {
    await wait(seconds * 1000, context.signal);
    return { content: [{ type: 'text', text: `computed ${label ?? ''} after ${seconds} s` }] };
  },
});
server.registerTool({
  name: 'failing_job',
  description: 'Fails with a tool error after about a second (tasks only)',
  inputSchema: NO_ARGS,
  taskSupport: 'required',
  handler: async (_args, context) => {
    await wait(1000, context.signal);
    throw new ToolError('JOB_FAILED', 'The job failed, as it always does.');
  },
});
server.registerTool({
  name: 'protocol_error_job',
  description: 'Crashes (the task fails with a JSON-RPC error)',
  inputSchema: NO_ARGS,
  taskSupport: 'required',
  handler: async () => {
    throw new Error('protocol_error_job crashes on purpose');
  },
});
server.registerTool({
  name: 'confirm_delete',
  description: 'Asks for confirmation, then pretends to delete the file',
  inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
  taskSupport: 'optional',
  handler: async ({ filename }, context) => {
    const answer = await context.elicit(
      {
        message: `Delete ${filename}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      },
      { key: 'confirm' },
    );
    return {
      content: [
        {
          type: 'text',
          text: answer?.action === 'accept' && answer.content?.confirm ? `deleted ${filename}` : `kept ${filename}`,
        },
      ],
    };
  },
});
server.registerTool({
  name: 'multi_input',
  description: 'Asks two things at once',
  inputSchema: NO_ARGS,
  taskSupport: 'optional',
  handler: async (_args, context) => {
    const [first, second] = await Promise.all([
      context.elicit({ message: 'First name?', requestedSchema: NAME_FORM }, { key: 'first' }),
      context.elicit({ message: 'Second name?', requestedSchema: NAME_FORM }, { key: 'second' }),
    ]);
    return { content: [{ type: 'text', text: `${said(first, 'name')} and ${said(second, 'name')}` }] };
  },
});
server.registerTool({
  name: 'test_tool_with_task',
  description: 'Asks for a name in the request, then goes on as a task',
  inputSchema: NO_ARGS,
  taskSupport: 'required',
  taskStart: 'handler',
  handler: async (_args, context) => {
    const answer = await context.elicit(
      { message: 'What is your name?', requestedSchema: NAME_FORM },
      { key: 'user_name' },
    );
    context.startTask();
    await wait(100, context.signal);
    return { content: [{ type: 'text', text: `Hello from the task, ${said(answer, 'name')}!` }] };
  },
});

// The suite's hooks for the 2026 change feed (server-stateless): each offers a short-lived tool
// or prompt and withdraws it in the same tick, so open listens hear one list_changed and the
// lists other scenarios read stay as they are.
server.registerTool({
  name: 'test_trigger_tool_change',
  description: 'Changes the tool list (listen streams hear notifications/tools/list_changed)',
  inputSchema: NO_ARGS,
  handler: () => {
    server.registerTool({ name: 'test_transient_tool', inputSchema: NO_ARGS, handler: () => ({ content: [] }) })();
    return { content: [{ type: 'text', text: 'The tool list changed.' }] };
  },
});
server.registerTool({
  name: 'test_trigger_prompt_change',
  description: 'Changes the prompt list (listen streams hear notifications/prompts/list_changed)',
  inputSchema: NO_ARGS,
  handler: () => {
    server.registerPrompt({ name: 'test_transient_prompt', get: () => ({ messages: [] }) })();
    return { content: [{ type: 'text', text: 'The prompt list changed.' }] };
  },
});

server.registerPrompt({
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks for context first',
  get: async (_args, context) => {
    const answer = await context.elicit(
      {
        message: 'What context should the prompt use?',
        requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
      },
      { key: 'user_context' },
    );
    return {
      messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${said(answer, 'context')}` } }],
    };
  },
});

server.registerResource({
  uri: 'test://static-text',
  name: 'static-text',
  description: 'A static text resource',
  mimeType: 'text/plain',
  read: (uri) => [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
});
server.registerResource({
  uri: 'test://static-binary',
  name: 'static-binary',
  description: 'A static binary resource',
  mimeType: 'image/png',
  read: (uri) => [{ uri, mimeType: 'image/png', blob: PNG }],
});
server.registerResource({
  uri: 'test://watched-resource',
  name: 'watched-resource',
  description: 'A resource to subscribe to',
  mimeType: 'text/plain',
  read: (uri) => [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }],
});
// Skills (SEP-2640, the sep-2640-skills-* server scenarios): the first listed skill has a
// subdirectory with a nested one, so the directory scenario finds a child directory to descend.
server.registerSkill({
  name: 'pdf-processing',
  description: 'Extract, fill, and assemble PDF documents',
  instructions: '# PDF processing\n\nChoose the matching template from `templates/`.\n',
  frontmatter: { license: 'Apache-2.0', metadata: { version: '2.1.0' } },
  files: {
    'references/FORMS.md': '# Forms\n\nFields are named `field_<n>`.\n',
    'templates/invoice.md': '# Invoice\n\nTotal: {{total}}\n',
    'templates/regional/eu-invoice.md': '# EU invoice\n\nVAT: {{vat}}\n',
  },
});
server.registerSkill({
  name: 'refunds',
  prefix: 'acme/billing',
  description: 'Process customer refund requests per company policy',
  instructions: '# Refunds\n\nSee `examples/email.md`.\n',
  files: { 'examples/email.md': 'Dear customer,\n\nYour refund is on its way.\n' },
});
server.registerSkill({
  name: 'git-workflow',
  description: "Follow this team's Git conventions for branching and commits",
  files: {
    'SKILL.md':
      "---\nname: git-workflow\ndescription: Follow this team's Git conventions for branching and commits\n---\n\n# Git workflow\n",
  },
});
server.registerResourceTemplate({
  uriTemplate: 'test://template/{id}/data',
  name: 'template-data',
  description: 'Data for an id',
  mimeType: 'application/json',
  read: (uri, { id }) => [
    { uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
  ],
  complete: { id: (value) => ['123', '456', '789'].filter((v) => v.startsWith(value)) },
});
server.registerPrompt({
  name: 'test_simple_prompt',
  description: 'A simple prompt',
  get: () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }),
});
server.registerPrompt({
  name: 'test_prompt_with_arguments',
  description: 'A prompt with arguments',
  arguments: [
    { name: 'arg1', description: 'First test argument', required: true },
    { name: 'arg2', description: 'Second test argument', required: true },
  ],
  get: ({ arg1, arg2 }) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
    ],
  }),
  complete: { arg1: (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value)) },
});
server.registerPrompt({
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt embedding a resource',
  arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  get: ({ resourceUri }) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
});
server.registerPrompt({
  name: 'test_prompt_with_image',
  description: 'A prompt with an image',
  get: () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
});

export { server };
