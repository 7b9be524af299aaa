/**
 * The names an emitted module derives from tool names: PascalCase stems the type generator keeps
 * as they are, unique per module and never a name the module itself uses; keys quoted when they
 * are not identifiers; doc-comment lines that cannot close their comment.
 */
import { describe, expect, it } from 'vitest';
import { docLines, propertyKey, RESERVED_TYPE_NAMES, toolTypeNames, typeStem } from '../src/codegen/type-names.js';

describe('type names from tool names', () => {
  it.each([
    ['get_weather', 'GetWeather'],
    ['get-weather', 'GetWeather'],
    ['getWeather', 'GetWeather'],
    ['fs.read_file', 'FsReadFile'],
    ['3d-render', 'Tool3DRender'],
    ['v2x_sync', 'V2XSync'],
    ['', 'Tool'],
    ['ünïcödé', 'Unicode'],
    ['日本', 'Tool'],
    ['weird */ name', 'WeirdName'],
  ])('%j has the stem %s', (name, stem) => {
    expect(typeStem(name)).toBe(stem);
  });

  it('tells apart tools with the same stem, in listing order, and never takes a reserved name', () => {
    const names = toolTypeNames(['get-sum', 'get_sum', 'getSum', 'promise', 'mcp-client', 'typed_tools']);
    expect([...names.values()]).toEqual([
      { input: 'GetSumInput', output: 'GetSumOutput' },
      { input: 'GetSum2Input', output: 'GetSum2Output' },
      { input: 'GetSum3Input', output: 'GetSum3Output' },
      { input: 'PromiseInput', output: 'PromiseOutput' },
      { input: 'McpClientInput', output: 'McpClientOutput' },
      { input: 'TypedToolsInput', output: 'TypedToolsOutput' },
    ]);
    for (const { input, output } of names.values()) {
      expect(RESERVED_TYPE_NAMES.has(input)).toBe(false);
      expect(RESERVED_TYPE_NAMES.has(output)).toBe(false);
    }
  });

  it('keeps identifiers bare as keys and quotes the rest', () => {
    expect(propertyKey('get_weather')).toBe('get_weather');
    expect(propertyKey('class')).toBe('class');
    expect(propertyKey('get-weather')).toBe('"get-weather"');
    expect(propertyKey('a"b')).toBe('"a\\"b"');
  });

  it('breaks up */ and starts a comment line at every line break JavaScript knows', () => {
    expect(docLines('ends */ here\r\nnext\rthird\u2028fourth\u2029fifth\n\nlast  ', '  ')).toEqual([
      '   * ends * / here',
      '   * next',
      '   * third',
      '   * fourth',
      '   * fifth',
      '   *',
      '   * last',
    ]);
  });
});
