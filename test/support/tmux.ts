/**
 * A real pseudo-terminal for CLI tests: a detached tmux session running one command, driven with
 * send-keys and read with capture-pane. Every wait is bounded; `kill()` ends the session and
 * whatever runs in it.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';

let counter = 0;

export interface Terminal {
  /** Types `text` (literally), then Enter unless `enter` is false. */
  type(text: string, enter?: boolean): void;
  /** Sends a key by tmux name (`C-d`, `Enter`). */
  key(name: string): void;
  /** The visible screen and scrollback, as text. */
  screen(): string;
  /** Waits until the screen matches; throws with the screen after `ms`. */
  waitFor(pattern: RegExp | string, ms?: number): Promise<string>;
  /** True once the command in the session has exited (the pane is dead). */
  exited(): boolean;

  kill(): void;
}

/** Throws, saying how to install it, when tmux is not on PATH: the terminal tests need it. */
export function requireTmux(): void {
  if (!hasTmux()) throw new Error('these tests need tmux (apt-get install tmux; .ci/run installs it)');
}

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Starts `argv` in a new 200x50 tmux session with `env` added. */
export function startTerminal(
  argv: readonly string[],
  env: Record<string, string> = {},
  cwd = process.cwd(),
): Terminal {
  const name = `mcpwire-test-${process.pid}-${++counter}`;
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const exports = Object.entries({ NO_COLOR: '1', ...env })
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(' ');
  const command = `cd ${quote(cwd)} && env ${exports} ${argv.map(quote).join(' ')}`;
  // A server of its own per terminal (-L): sessions never race a shared server that is exiting.
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', name, ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', name, '-x', '200', '-y', '50', command);
  tmux('set-option', '-t', name, 'remain-on-exit', 'on');
  const socket = tmux('display-message', '-p', '-t', name, '#{socket_path}').trim();
  const terminal: Terminal = {
    type(text, enter = true) {
      tmux('send-keys', '-t', name, '-l', text);
      if (enter) tmux('send-keys', '-t', name, 'Enter');
    },
    key(key) {
      tmux('send-keys', '-t', name, key);
    },
    screen() {
      try {
        return tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', name);
      } catch {
        return '';
      }
    },
    async waitFor(pattern, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const screen = terminal.screen();
        if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
        if (Date.now() > deadline)
          throw new Error(`terminal did not show ${String(pattern)} within ${ms} ms; screen:\n${screen}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    exited() {
      try {
        return tmux('display-message', '-p', '-t', name, '#{pane_dead}').trim() === '1';
      } catch {
        return true;
      }
    },
    kill() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      rmSync(socket, { force: true });
    },
  };
  return terminal;
}

/** Starts terminals as {@link startTerminal} does; what each test started is killed after it. */
export interface Terminals {
  start(...args: Parameters<typeof startTerminal>): Terminal;
}

/**
 * Registers an `afterEach` that kills the terminals the test started (call it after the hooks
 * that must run after the kill: vitest runs `afterEach` hooks last registered first).
 */
export function useTerminals(): Terminals {
  const started: Terminal[] = [];
  afterEach(() => {
    for (const terminal of started.splice(0)) terminal.kill();
  });
  return {
    start(...args) {
      const terminal = startTerminal(...args);
      started.push(terminal);
      return terminal;
    },
  };
}
