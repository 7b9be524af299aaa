/**
 * Every line of every golden wire transcript in spec-fixtures/transcripts is valid for its
 * revision's official schema, in its direction (results checked against the method they answer).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasSchema, missingSchemaMessage, validateMessage } from './kit/spec-schemas.js';
import { type Transcript, loadTranscript, loadTranscripts, requestMethodsBefore, senderOf } from './kit/transcripts.js';

const transcripts = loadTranscripts();

function problemsIn(transcript: Transcript): string[] {
  return transcript.lines.flatMap((entry, index) => {
    const outcome = validateMessage(transcript.revision, entry.msg, senderOf(entry.dir), {
      requestMethods: requestMethodsBefore(transcript, index),
    });
    return outcome.ok ? [] : [`${transcript.name}.jsonl:${entry.line} (${entry.dir}):\n${outcome.errors}`];
  });
}

it('has a transcript for every revision, including a batch and a modern flow', () => {
  const revisions = new Set(transcripts.map((t) => t.revision));
  expect([...revisions].sort()).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
  expect(transcripts.map((t) => t.name)).toEqual(
    expect.arrayContaining([
      '2024-11-05-initialize',
      '2025-03-26-batch',
      '2025-11-25-initialize-and-list',
      '2026-07-28-discover-and-call',
    ]),
  );
});

describe('each transcript is valid for its revision', () => {
  for (const transcript of transcripts) {
    it.skipIf(!hasSchema(transcript.revision))(
      hasSchema(transcript.revision) ? transcript.name : missingSchemaMessage(transcript.revision),
      () => {
        expect(transcript.lines.length).toBeGreaterThan(0);
        const problems = problemsIn(transcript);
        expect(problems, problems.join('\n\n')).toEqual([]);
      },
    );
  }
});

describe('each transcript follows its era', () => {
  for (const transcript of transcripts) {
    it(transcript.name, () => {
      const messages = transcript.lines.flatMap((l) => (Array.isArray(l.msg) ? l.msg : [l.msg])) as Array<
        Record<string, unknown>
      >;
      const first = transcript.lines[0]?.msg as Record<string, unknown>;
      if (transcript.revision >= '2026-07-28') {
        // No handshake; every client request carries the per-request envelope with this revision.
        expect(messages.some((m) => m.method === 'initialize')).toBe(false);
        for (const line of transcript.lines.filter((l) => l.dir === 'c2s')) {
          const m = line.msg as { id?: unknown; params?: { _meta?: Record<string, unknown> } };
          if (m.id === undefined) continue;
          expect(m.params?._meta?.['io.modelcontextprotocol/protocolVersion'], `line ${line.line}`).toBeTypeOf(
            'string',
          );
        }
      } else {
        // The handshake comes first and offers (and is answered with) the transcript's revision.
        expect(first.method).toBe('initialize');
        expect((first.params as { protocolVersion: string }).protocolVersion).toBe(transcript.revision);
        const answer = messages.find((m) => m.id === first.id && 'result' in m) as {
          result: { protocolVersion: string };
        };
        expect(answer.result.protocolVersion).toBe(transcript.revision);
        expect(transcript.lines[2]?.msg).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      // Request ids are never reused by the same sender within a transcript.
      for (const dir of ['c2s', 's2c'] as const) {
        const ids = transcript.lines
          .filter((l) => l.dir === dir)
          .flatMap((l) => (Array.isArray(l.msg) ? l.msg : [l.msg]) as Array<Record<string, unknown>>)
          .filter((m) => typeof m.method === 'string' && 'id' in m)
          .map((m) => m.id);
        expect(new Set(ids).size, `${dir} ids ${JSON.stringify(ids)}`).toBe(ids.length);
      }
    });
  }
});

describe.skipIf(!hasSchema('2025-03-26') || !hasSchema('2026-07-28'))(
  'the transcript check catches broken lines',
  () => {
    it('a batch response element checked against the method it answers', () => {
      const batch = transcripts.find((t) => t.name === '2025-03-26-batch')!;
      const index = batch.lines.findIndex((l) => l.dir === 's2c' && Array.isArray(l.msg));
      const broken = structuredClone(batch);
      delete (broken.lines[index]!.msg as Array<{ result: Record<string, unknown> }>)[0]!.result.tools;
      expect(problemsIn(broken).join('\n')).toContain("ListToolsResult: /0/result must have required property 'tools'");
    });

    it('a modern result checked against its method, and a client request without _meta', () => {
      const modern = transcripts.find((t) => t.name === '2026-07-28-discover-and-call')!;
      const broken = structuredClone(modern);
      delete (broken.lines[1]!.msg as { result: Record<string, unknown> }).result.supportedVersions;
      delete (broken.lines[2]!.msg as { params: Record<string, unknown> }).params._meta;
      const problems = problemsIn(broken).join('\n');
      expect(problems).toContain("DiscoverResult: /result must have required property 'supportedVersions'");
      expect(problems).toContain("ListToolsRequest: /params must have required property '_meta'");
    });
  },
);

describe('the transcript loader', () => {
  it('names the file and line of a malformed line, and rejects a badly named file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-transcripts-'));
    try {
      const good = path.join(dir, '2025-11-25-demo.jsonl');
      writeFileSync(good, '{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}\n\n');
      expect(loadTranscript(good)).toMatchObject({
        name: '2025-11-25-demo',
        revision: '2025-11-25',
        flow: 'demo',
        lines: [{ dir: 'c2s', line: 1 }],
      });
      const bad = path.join(dir, '2025-11-25-bad.jsonl');
      writeFileSync(bad, '{"dir":"c2s","msg":{}}\n{"dir":"up","msg":{}}\n');
      expect(() => loadTranscript(bad)).toThrow('2025-11-25-bad.jsonl:2: a line is {"dir":"c2s"|"s2c","msg":…}');
      writeFileSync(bad, '{"dir":"c2s","msg":{}}\nnot json\n');
      expect(() => loadTranscript(bad)).toThrow(/2025-11-25-bad\.jsonl:2: not JSON/);
      writeFileSync(bad, '{"dir":"c2s","msg":{},"note":"x"}\n');
      expect(() => loadTranscript(bad)).toThrow('2025-11-25-bad.jsonl:1: unexpected field(s) note');
      const misnamed = path.join(dir, 'initialize.jsonl');
      writeFileSync(misnamed, '');
      expect(() => loadTranscript(misnamed)).toThrow(/named <YYYY-MM-DD>-<flow>\.jsonl/);
      rmSync(bad);
      expect(() => loadTranscripts(dir)).toThrow(/initialize\.jsonl: a transcript is named/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
