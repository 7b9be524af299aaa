/**
 * Coverage runs only (`npm run coverage`, which runs vitest under c8): hands c8 the coverage of
 * the code vitest ran inside this worker.
 *
 * c8 collects coverage through NODE_V8_COVERAGE, which every process the tests start inherits:
 * the CLI and proxies run from dist/ and map back to src/ through dist's source maps. Code that
 * vitest runs in its workers is different: vitest transforms src/*.ts itself and evaluates the
 * result with `vm`, so Node records no source map for it, and vitest ends its workers with
 * SIGTERM, so Node never writes their coverage at all. This file takes the worker's coverage
 * itself after each test file, with the code V8 actually ran and vitest's inline source map, and
 * writes it into c8's directory in Node's own format (a `source-map-cache` entry with line
 * lengths, as Node writes for code transpiled by a loader): c8 then maps it back to src/ like
 * everything else.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The project's code as the workers run it (tests and fixtures are not measured; dist/ is measured in the processes
 * that run it).
 */
const MEASURED = `${pathToFileURL(path.join(ROOT, 'src')).href}/`;
/** vitest wraps each module in `'use strict';async (<its arguments>)=>{{…}}` before it runs it. */
const WRAPPER_START = "'use strict';async (";
const WRAPPER_END = '=>{{';
const INLINE_MAP = /^data:application\/json;(?:charset=utf-8;)?base64,/;
/**
 * The getter vite adds for each export (`() => { try { return name } catch {} }`, `return __vi_import_0__.name` for a
 * re-export): not project code.
 */
const EXPORT_GETTER = /^\(\) => \{ try \{ return [\w$]+(?:\.[\w$]+)* \} catch \{\} \}$/;

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface FunctionCoverage {
  functionName: string;
  ranges: Range[];
  isBlockCoverage: boolean;
}
interface ScriptCoverage {
  scriptId: string;
  url: string;
  functions: FunctionCoverage[];
}
interface ParsedScript {
  scriptId: string;
  url: string;
  sourceMapURL?: string;
}

const directory = process.env.NODE_V8_COVERAGE;
if (directory) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

  afterAll(async () => {
    const { result } = await session.post('Profiler.takePreciseCoverage');
    const parsed = new Map<string, ParsedScript>();
    const onParsed = (message: { params: ParsedScript }) => parsed.set(message.params.scriptId, message.params);
    // Enabling the debugger reports every script already parsed (synchronously, in process).
    session.on('Debugger.scriptParsed', onParsed);
    await session.post('Debugger.enable');
    session.off('Debugger.scriptParsed', onParsed);

    const scripts: ScriptCoverage[] = [];
    const sourceMaps: Record<string, { lineLengths: number[]; data: unknown }> = {};
    for (const script of result) {
      if (!script.url.startsWith(MEASURED)) continue;
      const mapUrl = parsed.get(script.scriptId)?.sourceMapURL;
      if (!mapUrl || !INLINE_MAP.test(mapUrl)) continue;
      const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId });
      if (!scriptSource.startsWith(WRAPPER_START)) continue;
      // Offsets count from the start of the wrapped code; the source map describes the code inside.
      const skip = scriptSource.indexOf(WRAPPER_END) + WRAPPER_END.length;
      const code = scriptSource.slice(skip);
      const shift = (offset: number) => Math.min(code.length, Math.max(0, offset - skip));
      scripts.push({
        ...script,
        functions: script.functions
          .filter((fn) => !EXPORT_GETTER.test(scriptSource.slice(fn.ranges[0]!.startOffset, fn.ranges[0]!.endOffset)))
          .map((fn) => ({
            ...fn,
            ranges: fn.ranges.map((r) => ({ ...r, startOffset: shift(r.startOffset), endOffset: shift(r.endOffset) })),
          })),
      });
      sourceMaps[script.url] = {
        lineLengths: code.split(/\n|\u2028|\u2029/).map((line) => line.length),
        data: JSON.parse(Buffer.from(mapUrl.replace(INLINE_MAP, ''), 'base64').toString('utf8')) as unknown,
      };
    }
    await session.post('Debugger.disable');
    session.disconnect();
    if (scripts.length === 0) return;
    const file = path.join(
      directory,
      `coverage-worker-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`,
    );
    writeFileSync(file, JSON.stringify({ result: scripts, 'source-map-cache': sourceMaps }));
  });
}
