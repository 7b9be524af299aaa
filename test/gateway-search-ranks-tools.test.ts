/**
 * The gateway's search mode (WP-7): the tokenizer, the BM25F tool index over a realistic
 * catalogue (github, filesystem, slack, postgres, and a jira tool whose own name holds `__`),
 * and the `search_tools` result a model reads.
 */
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/protocol/errors.js';
import type { JsonSchema, Tool } from '../src/protocol/types.js';
import { splitWords, stem, tokenize } from '../src/gateway/search/tokenize.js';
import { ToolSearchIndex, type SearchableTool } from '../src/gateway/search/tool-index.js';
import {
  CALL_TOOL,
  SEARCH_TOOLS,
  parseCallToolArgs,
  parseSearchToolsArgs,
  searchResult,
} from '../src/gateway/search/search-tools.js';
import { compileSchema } from '../src/server/schema-validator.js';

type CatalogueTool = Tool & { server: string };

function schema(properties: Record<string, string>, required: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, description]) => [name, { type: 'string', description }]),
    ),
    required,
  };
}

function tool(server: string, name: string, description: string, inputSchema: JsonSchema = schema({})): CatalogueTool {
  return { server, name: `${server}__${name}`, description, inputSchema };
}

const OWNER_REPO = { owner: 'Repository owner (user or organization)', repo: 'Repository name' };

/** Tools as the reference servers describe them, namespaced the gateway's way. */
const CATALOGUE: CatalogueTool[] = [
  tool(
    'github',
    'create_issue',
    'Create a new issue in a GitHub repository.\nUse labels and assignees to triage it.',
    schema({ ...OWNER_REPO, title: 'Issue title', body: 'Issue body (Markdown)', labels: 'Labels to apply' }, [
      'owner',
      'repo',
      'title',
    ]),
  ),
  tool(
    'github',
    'list_issues',
    'List issues in a GitHub repository with filtering options (state, labels, sort).',
    schema({ ...OWNER_REPO, state: 'open, closed or all' }, ['owner', 'repo']),
  ),
  tool(
    'github',
    'add_issue_comment',
    'Add a comment to an existing issue or pull request.',
    schema({ ...OWNER_REPO, issue_number: 'Issue number', body: 'Comment text' }, [
      'owner',
      'repo',
      'issue_number',
      'body',
    ]),
  ),
  tool(
    'github',
    'create_pull_request',
    'Create a new pull request in a GitHub repository.',
    schema(
      { ...OWNER_REPO, title: 'PR title', head: 'The branch with your changes', base: 'The branch to merge into' },
      ['owner', 'repo', 'title', 'head', 'base'],
    ),
  ),
  tool(
    'github',
    'get_file_contents',
    'Get the contents of a file or directory from a GitHub repository.',
    schema({ ...OWNER_REPO, path: 'Path to the file or directory', branch: 'Branch to get contents from' }, [
      'owner',
      'repo',
      'path',
    ]),
  ),
  tool(
    'github',
    'create_branch',
    'Create a new branch in a GitHub repository.',
    schema({ ...OWNER_REPO, branch: 'Name for the new branch', from_branch: 'Source branch' }, [
      'owner',
      'repo',
      'branch',
    ]),
  ),
  tool(
    'github',
    'search_repositories',
    'Search for GitHub repositories.',
    schema({ query: 'Search query', page: 'Page number' }, ['query']),
  ),
  tool(
    'filesystem',
    'read_file',
    'Read the complete contents of a file from the file system. Handles various text encodings.',
    schema({ path: 'Path of the file to read' }, ['path']),
  ),
  tool(
    'filesystem',
    'read_multiple_files',
    'Read the contents of multiple files simultaneously. Failed reads for individual files will not stop the operation.',
    schema({ paths: 'Paths of the files' }, ['paths']),
  ),
  tool(
    'filesystem',
    'write_file',
    'Create a new file or completely overwrite an existing file with new content.',
    schema({ path: 'Path of the file', content: 'Text to write' }, ['path', 'content']),
  ),
  tool(
    'filesystem',
    'create_directory',
    'Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation.',
    schema({ path: 'Directory path' }, ['path']),
  ),
  tool(
    'filesystem',
    'list_directory',
    'Get a detailed listing of all files and directories in a specified path.',
    schema({ path: 'Directory path' }, ['path']),
  ),
  tool(
    'filesystem',
    'search_files',
    'Recursively search for files and directories matching a pattern.',
    schema({ path: 'Where to start', pattern: 'Glob pattern', excludePatterns: 'Patterns to leave out' }, [
      'path',
      'pattern',
    ]),
  ),
  tool(
    'slack',
    'post_message',
    'Post a new message to a Slack channel.',
    schema({ channel_id: 'The ID of the channel to post to', text: 'The message text to post' }, [
      'channel_id',
      'text',
    ]),
  ),
  tool(
    'slack',
    'list_channels',
    'List public channels in the workspace with pagination.',
    schema({ limit: 'Maximum number of channels to return', cursor: 'Pagination cursor' }),
  ),
  tool(
    'slack',
    'reply_to_thread',
    'Reply to a specific message thread in Slack.',
    schema({ channel_id: 'Channel', thread_ts: 'Timestamp of the parent message', text: 'The reply text' }, [
      'channel_id',
      'thread_ts',
      'text',
    ]),
  ),
  tool('slack', 'get_users', 'Get a list of all users in the workspace with their basic profile information.'),
  tool(
    'postgres',
    'query',
    'Run a read-only SQL query against the database.',
    schema({ sql: 'The SQL to run' }, ['sql']),
  ),
  tool('postgres', 'list_tables', 'List the tables of the connected database and their schemas.'),
  // An upstream tool whose own name holds the separator: the gateway serves it as jira__issue__create.
  tool(
    'jira',
    'issue__create',
    'Open a ticket in a Jira project.',
    schema({ project: 'Project key', summary: 'One-line summary' }, ['project', 'summary']),
  ),
];

const index = new ToolSearchIndex(CATALOGUE);
const names = (query: string, options?: Parameters<ToolSearchIndex['search']>[1]): string[] =>
  index.search(query, options).map((hit) => hit.name);

function invalidArgument(run: () => unknown): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(isMcpError(thrown, 'INVALID_ARGUMENT'), String(thrown)).toBe(true);
}

describe('tokenize splits names and texts into search terms', () => {
  it.each([
    ['snake_case', 'create_pull_request', ['create', 'pull', 'request']],
    ['kebab-case', 'list-pull-requests', ['list', 'pull', 'requests']],
    ['camelCase', 'readFileSync', ['read', 'file', 'sync']],
    ['PascalCase with an acronym', 'HTTPServerError', ['http', 'server', 'error']],
    ['digits', 'getS3Object v2Api ec2', ['get', 's', '3', 'object', 'v', '2', 'api', 'ec', '2']],
    ['the SERVER__TOOL separator', 'github__create_issue', ['github', 'create', 'issue']],
    ['a separator inside the tool name', 'jira__issue__create', ['jira', 'issue', 'create']],
    [
      'punctuation',
      'Read a file (UTF-8), e.g. "notes.txt"!',
      ['read', 'a', 'file', 'utf', '8', 'e', 'g', 'notes', 'txt'],
    ],
    ['apostrophes', "the user's repo, don't", ['the', 'users', 'repo', 'dont']],
    ['letters beyond ASCII', 'Créer un fichier — übersicht', ['créer', 'un', 'fichier', 'übersicht']],
    ['nothing but separators', '  __--..  ', []],
  ])('%s', (_case, text, words) => {
    expect(splitWords(text)).toEqual(words);
  });

  it('drops stop words and stems what is left', () => {
    expect(tokenize('Create an issue in the repository')).toEqual(['creat', 'issu', 'repository']);
    expect(tokenize('the of and to')).toEqual([]);
    expect(tokenize('')).toEqual([]);
  });

  it.each([
    ['plurals', ['issue', 'issues']],
    ['-ies plurals', ['query', 'queries']],
    ['-es after ch and ss', ['branch', 'branches']],
    ['-es after ss', ['address', 'addresses']],
    ['-ing, -ed and a final e', ['create', 'creates', 'created', 'creating']],
    ['a doubled consonant', ['run', 'running']],
    ['a doubled consonant before -ed', ['commit', 'commits', 'committed']],
    ['settings', ['set', 'setting', 'settings']],
  ])('the stemmer joins %s', (_case, forms) => {
    expect(new Set(forms.map(stem)).size).toBe(1);
  });

  it.each([['ping'], ['thing'], ['status'], ['class'], ['add'], ['pull'], ['need'], ['http'], ['créé'], ['3']])(
    'the stemmer leaves %s whole',
    (word) => {
      expect(stem(word)).toBe(word);
    },
  );

  it('the stemmer keeps a doubled l or s, and a three-letter stem, whole', () => {
    expect(stem('pulled')).toBe('pull');
    expect(stem('passed')).toBe('pass');
    expect(stem('added')).toBe('add');
  });
});

describe('ToolSearchIndex ranks a catalogue', () => {
  it.each([
    ['create an issue', 'github__create_issue'],
    ['read file', 'filesystem__read_file'],
    ['send a message to a slack channel', 'slack__post_message'],
    ['run a sql query', 'postgres__query'],
    ['open a pull request', 'github__create_pull_request'],
    ['Creating branches', 'github__create_branch'],
    ['what tables are in the database', 'postgres__list_tables'],
  ])('%j finds its tool first', (query, first) => {
    expect(names(query)[0]).toBe(first);
  });

  it('a word in the name outweighs the same word as a parameter', () => {
    // get_file_contents has a `branch` parameter; create_branch has it in its name.
    const hits = names('branch');
    expect(hits[0]).toBe('github__create_branch');
    expect(hits).toContain('github__get_file_contents');
  });

  it('parameter names and descriptions are searched', () => {
    expect(names('exclude patterns')[0]).toBe('filesystem__search_files');
    expect(names('thread timestamp')[0]).toBe('slack__reply_to_thread');
  });

  it('titles are searched, and weigh more than descriptions', () => {
    const titled = new ToolSearchIndex([
      { server: 'ops', name: 'ops__run', title: 'Deploy to production' },
      { server: 'ops', name: 'ops__notes', description: 'Notes on how to deploy to production and staging.' },
    ]);
    const hits = titled.search('deploy production');
    expect(hits.map((hit) => hit.name)).toEqual(['ops__run', 'ops__notes']);
    expect(hits.every((hit) => Number.isFinite(hit.score) && hit.score > 0)).toBe(true);
  });

  it('a word matches the start of longer terms', () => {
    expect(names('repo')).toContain('github__search_repositories');
    expect(names('dir')[0]).toMatch(/^filesystem__/);
  });

  it('the server option keeps one upstream server, taken from `server`, never from the name', () => {
    const hits = index.search('create', { server: 'filesystem' });
    expect(hits.map((hit) => hit.name).sort()).toEqual(['filesystem__create_directory', 'filesystem__write_file']);
    expect(names('create issue', { server: 'jira' })).toEqual(['jira__issue__create']);
    expect(names('create issue', { server: 'jira__issue' })).toEqual([]);
    expect(names('create issue', { server: 'nobody' })).toEqual([]);
  });

  it('limit caps the hits (10 by default) and keeps the best ones', () => {
    const all = index.search('file directory repository issue message', { limit: 100 });
    expect(all.length).toBeGreaterThan(10);
    expect(index.search('file directory repository issue message')).toEqual(all.slice(0, 10));
    expect(index.search('file directory repository issue message', { limit: 2 })).toEqual(all.slice(0, 2));
    for (const limit of [0, -1, 1.5, Number.NaN]) invalidArgument(() => index.search('file', { limit }));
  });

  it('an exact tool name comes first, whatever its case and spacing', () => {
    expect(names('slack__get_users')[0]).toBe('slack__get_users');
    expect(names('  FILESYSTEM__READ_FILE \n')[0]).toBe('filesystem__read_file');
    expect(names('jira__issue__create')[0]).toBe('jira__issue__create');
    expect(names('issue__create')[0]).toBe('jira__issue__create');
  });

  it('the exact-name rule lifts a tool the words alone rank lower, and keeps scores descending', () => {
    const small = new ToolSearchIndex([
      { server: 'notes', name: 'notes__find', description: '' },
      { server: 'notes', name: 'notes__find_notes', description: 'Find notes. Find notes by text; find notes by tag.' },
      { server: 'other', name: 'other__find', description: 'Find.' },
      { server: 'other', name: 'other__list', description: 'List things.' },
    ]);
    expect(small.search('notes find').map((hit) => hit.name)[0]).toBe('notes__find_notes');
    const exact = small.search('notes__find');
    expect(exact.map((hit) => hit.name)[0]).toBe('notes__find');
    // A name without its SERVER__ prefix comes next: both `find` tools before the notes one.
    const bare = small.search('find').map((hit) => hit.name);
    expect(bare.slice(0, 2).sort()).toEqual(['notes__find', 'other__find']);
    expect(bare.slice(2)).toEqual(['notes__find_notes']);
    for (const hits of [exact, small.search('find')]) {
      const scores = hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('an exact name is found even when its words are all stop words', () => {
    const small = new ToolSearchIndex([
      { server: 'the', name: 'the__a' },
      { server: 'x', name: 'x__other' },
    ]);
    expect(small.search('the__a').map((hit) => hit.name)).toEqual(['the__a']);
  });

  it('a query that matches nothing gives no hits', () => {
    expect(index.search('zzqx blorp')).toEqual([]);
    expect(index.search('the of and')).toEqual([]);
    expect(new ToolSearchIndex([]).search('anything')).toEqual([]);
  });

  it('an empty or blank query is refused', () => {
    invalidArgument(() => index.search(''));
    invalidArgument(() => index.search('  \n\t'));
    invalidArgument(() => index.search(undefined as unknown as string));
  });

  it('tools that tie are ordered by name, the same way for every catalogue order', () => {
    const twins: SearchableTool[] = [
      { server: 'beta', name: 'beta__health', description: 'Check the health of the service.' },
      { server: 'alpha', name: 'alpha__health', description: 'Check the health of the service.' },
    ];
    const hits = new ToolSearchIndex(twins).search('check service health');
    expect(hits.map((hit) => hit.name)).toEqual(['alpha__health', 'beta__health']);
    expect(hits[0]!.score).toBe(hits[1]!.score);
    expect(new ToolSearchIndex([...twins].reverse()).search('check service health')).toEqual(hits);

    const reversed = new ToolSearchIndex([...CATALOGUE].reverse());
    for (const query of ['create an issue', 'file', 'list', 'message channel', 'github']) {
      expect(reversed.search(query, { limit: 50 })).toEqual(index.search(query, { limit: 50 }));
    }
  });

  it('refuses two tools of one name and skips fields of the wrong type', () => {
    invalidArgument(() => new ToolSearchIndex([CATALOGUE[0]!, CATALOGUE[0]!]));
    const odd = new ToolSearchIndex([
      {
        server: 'odd',
        name: 'odd__thing',
        description: 42 as unknown as string,
        inputSchema: { properties: ['not', 'a', 'map'] },
      },
      { server: 'odd', name: 'odd__other', inputSchema: { properties: { widget: 'not a schema' } } },
    ]);
    expect(odd.size).toBe(2);
    expect(odd.search('widget').map((hit) => hit.name)).toEqual(['odd__other']);
  });
});

describe('search_tools and call_tool', () => {
  it('searchResult gives a short text and the full schemas as structuredContent', () => {
    const result = searchResult(index, CATALOGUE, { query: 'create an issue', limit: 3 });
    const structured = result.structuredContent as {
      tools: Array<{ name: string; description?: string; inputSchema: JsonSchema }>;
    };
    expect(structured.tools.map((found) => found.name)).toEqual(names('create an issue', { limit: 3 }));
    const first = CATALOGUE.find((entry) => entry.name === 'github__create_issue')!;
    expect(structured.tools[0]).toEqual({
      name: first.name,
      description: first.description,
      inputSchema: first.inputSchema,
    });
    expect(compileSchema(SEARCH_TOOLS.outputSchema!, 'search_tools output')(structured)).toEqual([]);

    expect(result.isError).toBeUndefined();
    expect(result.content).toHaveLength(1);
    const text = (result.content[0] as { type: 'text'; text: string }).text;
    const lines = text.split('\n');
    expect(lines[0]).toBe('3 tools match "create an issue", best first:');
    expect(lines[1]).toBe(
      '- github__create_issue: Create a new issue in a GitHub repository. (required: owner, repo, title; optional: body, labels)',
    );
    expect(lines).toHaveLength(5);
    expect(lines[4]).toContain('call_tool');
    expect(text).not.toContain('triage');
  });

  it('searchResult takes the catalogue as a map too, passes the server filter and skips stale hits', () => {
    const byName = new Map(
      CATALOGUE.filter((entry) => entry.name !== 'slack__post_message').map((entry) => [entry.name, entry]),
    );
    const result = searchResult(index, byName, { query: 'message', server: 'slack' });
    const found = (result.structuredContent as { tools: Array<{ name: string }> }).tools.map((entry) => entry.name);
    expect(found).toEqual(names('message', { server: 'slack' }).filter((name) => name !== 'slack__post_message'));
    expect(found).toContain('slack__reply_to_thread');
    expect((result.content[0] as { text: string }).text).toContain('on server "slack"');
  });

  it('a search without matches is a result, not an error', () => {
    const result = searchResult(index, CATALOGUE, { query: 'zzqx' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ tools: [] });
    expect((result.content[0] as { text: string }).text).toBe(
      'No tools match "zzqx". Try other words, fewer words, or no server filter.',
    );
  });

  it('a tool without description or parameters is listed by name alone', () => {
    const bare: CatalogueTool[] = [{ server: 'x', name: 'x__ping', inputSchema: { type: 'object' } }];
    const result = searchResult(new ToolSearchIndex(bare), bare, { query: 'ping' });
    expect((result.content[0] as { text: string }).text.split('\n')[1]).toBe('- x__ping');
    expect(result.structuredContent).toEqual({ tools: [{ name: 'x__ping', inputSchema: { type: 'object' } }] });
  });

  it('long descriptions and queries are cut in the text, never inside a character', () => {
    const long: CatalogueTool[] = [
      { server: 'x', name: 'x__emoji', description: `Emoji ${'😀'.repeat(200)}`, inputSchema: { type: 'object' } },
    ];
    const result = searchResult(new ToolSearchIndex(long), long, { query: `emoji ${'😀'.repeat(120)}` });
    const text = (result.content[0] as { text: string }).text;
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    const [head, line] = text.split('\n');
    expect(head!.length).toBeLessThan(140);
    expect(line!.endsWith('…')).toBe(true);
    expect(line!.length).toBeLessThanOrEqual('- x__emoji: '.length + 160);
    // The structured result keeps the description whole.
    expect((result.structuredContent as { tools: Array<{ description: string }> }).tools[0]!.description).toBe(
      long[0]!.description,
    );
  });

  it('the arguments are checked, by the schemas and by the helpers alike', () => {
    const checkSearch = compileSchema(SEARCH_TOOLS.inputSchema, 'search_tools input');
    const checkCall = compileSchema(CALL_TOOL.inputSchema, 'call_tool input');
    for (const bad of [
      {},
      { query: '' },
      { query: '   ' },
      { query: 'x'.repeat(501) },
      { query: 'x', limit: 0 },
      { query: 'x', limit: 51 },
      { query: 'x', limit: 2.5 },
      { query: 'x', server: 3 },
    ]) {
      expect(checkSearch(bad), JSON.stringify(bad)).not.toEqual([]);
      invalidArgument(() => parseSearchToolsArgs(bad));
      invalidArgument(() => searchResult(index, CATALOGUE, bad));
    }
    for (const good of [
      { query: 'x' },
      { query: 'x'.repeat(500) },
      { query: '😀'.repeat(500) },
      { query: 'x', limit: 50, server: 'github' },
    ]) {
      expect(checkSearch(good)).toEqual([]);
      expect(parseSearchToolsArgs(good)).toEqual(good);
    }
    for (const bad of [{}, { name: '' }, { name: 'a', arguments: [] }, { name: 1 }]) {
      expect(checkCall(bad), JSON.stringify(bad)).not.toEqual([]);
      invalidArgument(() => parseCallToolArgs(bad));
    }
    invalidArgument(() => parseCallToolArgs(null));
    expect(parseCallToolArgs({ name: 'github__create_issue' })).toEqual({ name: 'github__create_issue' });
    expect(parseCallToolArgs({ name: 'a', arguments: { x: 1 } })).toEqual({ name: 'a', arguments: { x: 1 } });
  });

  it('the two tools are plain data with the promised names, required fields and hints', () => {
    expect(SEARCH_TOOLS.name).toBe('search_tools');
    expect(SEARCH_TOOLS.inputSchema.required).toEqual(['query']);
    expect(SEARCH_TOOLS.annotations?.readOnlyHint).toBe(true);
    expect(CALL_TOOL.name).toBe('call_tool');
    expect(CALL_TOOL.inputSchema.required).toEqual(['name']);
    expect(CALL_TOOL.annotations?.readOnlyHint).toBe(false);
    expect(JSON.parse(JSON.stringify([SEARCH_TOOLS, CALL_TOOL]))).toEqual([SEARCH_TOOLS, CALL_TOOL]);
  });
});
