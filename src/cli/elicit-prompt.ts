/**
 * Answers a server's elicitation on a terminal: shows the message, asks for each field of the
 * requested schema (with its type, default and enum choices), reads the answers and coerces them
 * to the field's type. An empty answer to the first question or Ctrl-D declines; `!cancel`
 * cancels. Off a terminal the CLI declines without asking (see `session.ts`).
 */
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { ElicitParams, ElicitResult } from '../protocol/types.js';

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
}

/** Asks the user; resolves with the elicitation result. */
export async function promptElicitation(
  params: ElicitParams,
  input: Readable,
  output: Writable,
): Promise<ElicitResult> {
  const rl = createInterface({ input, output, terminal: (output as { isTTY?: boolean }).isTTY === true });
  const closed = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
  const ask = async (question: string): Promise<string | null> => Promise.race([rl.question(question), closed]);
  try {
    const p = params as unknown as {
      message: string;
      mode?: string;
      url?: string;
      requestedSchema?: { properties?: Record<string, FieldSchema>; required?: string[] };
    };
    output.write(`\nThe server asks: ${p.message}\n`);
    if (p.mode === 'url') {
      output.write(`Open this URL to continue: ${p.url}\n`);
      const answer = await ask('Accept? [y/N] ');
      return { action: answer !== null && /^y(es)?$/i.test(answer.trim()) ? 'accept' : 'decline' };
    }
    const properties = p.requestedSchema?.properties ?? {};
    const required = new Set(p.requestedSchema?.required ?? []);
    output.write('(empty first answer or Ctrl-D declines, !cancel cancels)\n');
    const content: Record<string, unknown> = {};
    let first = true;
    for (const [name, field] of Object.entries(properties)) {
      const choices = field.enum ?? field.oneOf?.map((o) => o.const);
      const hint = [
        field.type ?? 'string',
        choices ? `one of ${choices.map(String).join('|')}` : '',
        field.default !== undefined ? `default ${JSON.stringify(field.default)}` : '',
        required.has(name) ? 'required' : '',
      ]
        .filter(Boolean)
        .join(', ');
      const answer = await ask(`${field.title ?? name} (${hint}): `);
      if (answer === null) return { action: 'decline' };
      const text = answer.trim();
      if (text === '!cancel') return { action: 'cancel' };
      if (first && text === '' && field.default === undefined) return { action: 'decline' };
      first = false;
      if (text === '') {
        if (field.default !== undefined) content[name] = field.default;
        continue;
      }
      content[name] = coerce(text, field.type);
    }
    return { action: 'accept', content: content as ElicitResult['content'] };
  } finally {
    rl.close();
  }
}

function coerce(text: string, type: string | undefined): unknown {
  if (type === 'boolean') return /^(y|yes|true|1)$/i.test(text);
  if (type === 'number' || type === 'integer') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}
