/**
 * A live progress line on a terminal: `⠿ 40% (4/10) message`, redrawn in place on stderr and
 * erased when the call ends. Off a terminal it prints nothing.
 */
import type { Writable } from 'node:stream';
import type { ProgressParams } from '../protocol/types.js';

export interface ProgressLine {
  update(progress: ProgressParams): void;
  /** Erases the line. Idempotent. */
  done(): void;
}

export function progressLine(out: Writable, enabled: boolean, width = 30): ProgressLine {
  let shown = false;
  return {
    update(p) {
      if (!enabled) return;
      const total = typeof p.total === 'number' && p.total > 0 ? p.total : undefined;
      const ratio = total ? Math.min(1, p.progress / total) : undefined;
      const bar =
        ratio === undefined
          ? ''
          : `[${'#'.repeat(Math.round(ratio * width)).padEnd(width, '.')}] ${Math.round(ratio * 100)}% `;
      const count = total ? `(${p.progress}/${total})` : `(${p.progress})`;
      out.write(`\r\u001b[2K${bar}${count}${p.message ? ` ${p.message}` : ''}`);
      shown = true;
    },
    done() {
      if (shown) out.write('\r\u001b[2K');
      shown = false;
    },
  };
}
