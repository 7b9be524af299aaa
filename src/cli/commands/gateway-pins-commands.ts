/**
 * `mcpwire gateway approve NAME… | --all [--pins FILE]` and `mcpwire gateway pins [--pins FILE]`:
 * the person's side of gateway pinning (issue 29, WP-6). `pins` lists how many tools are approved
 * and each change waiting for approval with its diff; `approve` approves changes, so a running
 * gateway (watching the same file) serves those tools again. `--pins` defaults to
 * `~/.mcpwire/gateway-pins.json` (`HOME` of the run). Both expect `words` as
 * `['gateway', 'approve' | 'pins', …]`.
 */
import os from 'node:os';
import path from 'node:path';
import { pinDiff } from '../../gateway/pins/pin-diff.js';
import { defaultPinsFile } from '../../gateway/pins/pin-file.js';
import { PinStore, type PendingPin } from '../../gateway/pins/pin-store.js';
import { changedFields } from '../../gateway/pins/tool-fingerprint.js';
import { isMcpError } from '../../protocol/errors.js';
import { flag, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { Outcome } from '../outcome.js';

/**
 * Runs `gateway approve NAME… | --all`: approves the pending definition of each name, all or
 * nothing. A name with no pending change is exit 2 (`INVALID_ARGUMENT`, naming it and the pending
 * ones); a broken pins file is exit 2 (`CONFIG_INVALID`, naming the file); neither names nor
 * `--all`, or both, is a usage error (exit 1).
 */
export async function gatewayApproveCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const names = args.words.slice(2);
  const all = flag(args, 'all');
  if (all && names.length) throw new UsageError('gateway approve takes NAME… or --all, not both');
  if (!all && !names.length) throw new UsageError('gateway approve needs NAME… (see mcpwire gateway pins) or --all');
  const store = await PinStore.open(pinsFileOf(args, io));
  let approved: string[];
  try {
    approved = await store.approve(all ? 'all' : names);
  } catch (error) {
    if (!isMcpError(error, 'INVALID_ARGUMENT')) throw error;
    throw new CliError('INVALID_ARGUMENT', `gateway approve: ${printable(error.reason)}`, EXIT.config, {
      cause: error,
    });
  }
  return {
    json: { file: store.file, approved },
    text: approved.length
      ? `approved ${approved.map(printable).join(', ')} (${store.file})`
      : `nothing is pending in ${store.file}`,
  };
}

/**
 * Runs `gateway pins`: the file, how many tools are approved as they are now, and each pending
 * one (changed, or new without trust on first use) with the fields that changed, when it was
 * seen, the command that approves it and its diff. Exit 0 whether or not something is pending; a
 * broken pins file is exit 2.
 */
export async function gatewayPinsCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  if (args.words.length > 2)
    throw new UsageError(`gateway pins takes no operand, got: ${args.words.slice(2).join(' ')}`);
  const store = await PinStore.open(pinsFileOf(args, io));
  const entries = store.list();
  const approved = entries.filter((e) => e.approved && !e.pending).length;
  const pending = store.pending().map(describe);
  const lines = [`${store.file}: ${approved} approved, ${pending.length} pending`];
  for (const p of pending) {
    const what = p.state === 'unapproved' ? 'new, never approved' : `changed (${p.fields.join(', ') || 'fingerprint'})`;
    lines.push(
      '',
      `${printable(p.name)}  ${printable(p.server)}: ${printable(p.tool)}  ${what}, seen ${p.seenAt}`,
      `  approve: mcpwire gateway approve ${printable(p.name)}`,
      ...p.diff.split('\n').map((line) => `    ${printable(line)}`),
    );
  }
  return { json: { file: store.file, approved, pending }, text: lines.join('\n') };
}

/** One pending pin for output: what changed, the two fingerprints, and the diff. */
function describe(p: PendingPin) {
  const before = p.approved?.definition;
  return {
    name: p.name,
    server: p.server,
    tool: p.tool,
    state: before ? ('changed' as const) : ('unapproved' as const),
    fields: before ? changedFields(before, p.pending.definition) : [],
    approvedFingerprint: p.approved?.fingerprint ?? null,
    approvedAt: p.approved?.approvedAt ?? null,
    fingerprint: p.pending.fingerprint,
    seenAt: p.pending.seenAt,
    diff: pinDiff(before, p.pending.definition),
  };
}

/** `--pins FILE` (against the run's working directory), else `~/.mcpwire/gateway-pins.json`. */
function pinsFileOf(args: ParsedArgs, io: CliIO): string {
  const given = stringOption(args, 'pins');
  return given !== undefined ? path.resolve(io.cwd, given) : defaultPinsFile(io.env.HOME ?? os.homedir());
}

/**
 * `text` safe on a terminal: the control characters JSON leaves as they are (DEL, C1 such as CSI)
 * and bidirectional overrides, which tool names and definitions from a server may hold, written
 * as `\uXXXX` escapes.
 */
function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
