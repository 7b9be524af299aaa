// Turns the samples of a run into medians, ratios to the raw floor, the targets for
// mcpwire, and the markdown printed by run.mjs. Pure functions; no I/O.
import { CLIENT_NAMES } from './clients.mjs';

/**
 * Every metric: its key in a worker's result, the scenario that produces it, its label, and
 * which direction is better. `ratio: true` rows also appear in the ratio table.
 */
export const METRICS = [
  { key: 'importMs', scenario: 'import', label: 'import the client module(s) (ms)', better: 'lower' },
  { key: 'importCpuMs', scenario: 'import', label: 'import: CPU time (ms)', better: 'lower' },
  {
    key: 'coldMs',
    scenario: 'cold',
    label: 'cold: connect (stdio: spawn) + initialize + tools/list (ms)',
    better: 'lower',
  },
  { key: 'seqP50Us', scenario: 'seq', label: 'sequential echo: p50 latency (µs)', better: 'lower', ratio: true },
  { key: 'seqP99Us', scenario: 'seq', label: 'sequential echo: p99 latency (µs)', better: 'lower', ratio: true },
  { key: 'seqCallsPerSec', scenario: 'seq', label: 'sequential echo: calls/s', better: 'higher', ratio: true },
  {
    key: 'seqCpuUsPerCall',
    scenario: 'seq',
    label: 'sequential echo: client CPU per call (µs)',
    better: 'lower',
    ratio: true,
  },
  { key: 'parCallsPerSec', scenario: 'par', label: '64 in flight: calls/s', better: 'higher', ratio: true },
  {
    key: 'parCpuUsPerCall',
    scenario: 'par',
    label: '64 in flight: client CPU per call (µs)',
    better: 'lower',
    ratio: true,
  },
  { key: 'blobMiBPerSec', scenario: 'blob', label: '1 MiB results: MiB/s', better: 'higher', ratio: true },
  { key: 'list100Ms', scenario: 'list', label: 'tools/list of 100 tools (ms per list)', better: 'lower', ratio: true },
  { key: 'peakRssMiB', scenario: 'rss', label: 'peak RSS after scenarios 2–4 (MiB)', better: 'lower' },
];

/** The median of a list of numbers (mean of the middle two for even lengths); undefined if empty. */
export function median(xs) {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Medians per metric and client from `samples[client][key] = number[]`; a metric's cell is a
 * string (`not built`, `error`) when the client could not produce it.
 */
export function summarize(samples, unavailable) {
  const table = {};
  for (const { key, scenario } of METRICS) {
    table[key] = {};
    for (const client of CLIENT_NAMES) {
      const xs = samples[client]?.[key] ?? [];
      table[key][client] = xs.length > 0 ? median(xs) : (unavailable[client]?.[scenario] ?? 'n/a');
    }
  }
  return table;
}

/** client ÷ raw for every ratio metric, or undefined where either side is missing. */
export function ratios(table) {
  const out = {};
  for (const { key, ratio } of METRICS) {
    if (!ratio) continue;
    out[key] = {};
    for (const client of CLIENT_NAMES.slice(1)) {
      const c = table[key][client];
      const r = table[key].raw;
      out[key][client] = typeof c === 'number' && typeof r === 'number' && r > 0 ? c / r : undefined;
    }
  }
  return out;
}

/** The targets from the issues (stdio: core issue; HTTP: the HTTP issue), judged on the figures. */
export function targets(table, ratio, transport = 'stdio') {
  const num = (v) => (typeof v === 'number' ? v : undefined);
  const check = (label, ok, detail) => ({ label, status: ok === undefined ? 'n/a' : ok ? 'pass' : 'FAIL', detail });
  const out = [];
  if (transport !== 'stdio') {
    const cpu = num(ratio.seqCpuUsPerCall?.mcpwire);
    out.push(
      check(
        'client CPU per call (sequential): mcpwire ≤ 1.5× raw',
        cpu === undefined ? undefined : cpu <= 1.5,
        cpu === undefined ? '' : `${cpu.toFixed(2)}×`,
      ),
    );
    const par = num(ratio.parCallsPerSec?.mcpwire);
    out.push(
      check(
        'calls/s with 64 in flight: mcpwire ≥ 0.8× raw',
        par === undefined ? undefined : par >= 0.8,
        par === undefined ? '' : `${par.toFixed(2)}×`,
      ),
    );
    const m = num(table.peakRssMiB.mcpwire);
    const r = num(table.peakRssMiB.raw);
    const rss = m === undefined || r === undefined ? undefined : m / r;
    out.push(
      check(
        'peak RSS: mcpwire ≤ 1.3× raw',
        rss === undefined ? undefined : rss <= 1.3,
        rss === undefined ? '' : `${rss.toFixed(2)}× (${fmt(m)} vs ${fmt(r)} MiB)`,
      ),
    );
    const mc = num(table.seqCpuUsPerCall.mcpwire);
    const v1 = num(table.seqCpuUsPerCall['sdk-v1']);
    const v2 = num(table.seqCpuUsPerCall['sdk-v2']);
    const below = mc === undefined || v1 === undefined || v2 === undefined ? undefined : mc < v1 && mc < v2;
    out.push(
      check(
        'client CPU per call: mcpwire below sdk-v1 and sdk-v2',
        below,
        mc === undefined ? '' : `${fmt(mc)} vs ${fmt(v1)} / ${fmt(v2)} µs`,
      ),
    );
    return out;
  }
  for (const [key, what] of [
    ['seqCpuUsPerCall', 'sequential'],
    ['parCpuUsPerCall', '64 in flight'],
  ]) {
    const r = num(ratio[key]?.mcpwire);
    out.push(
      check(
        `CPU per call, ${what}: mcpwire ≤ 1.30× raw`,
        r === undefined ? undefined : r <= 1.3,
        r === undefined ? '' : `${r.toFixed(2)}×`,
      ),
    );
    const m = num(table[key].mcpwire);
    const v1 = num(table[key]['sdk-v1']);
    const v2 = num(table[key]['sdk-v2']);
    const ok = m === undefined || v1 === undefined || v2 === undefined ? undefined : m < v1 && m < v2;
    out.push(
      check(
        `CPU per call, ${what}: mcpwire below sdk-v1 and sdk-v2`,
        ok,
        m === undefined ? '' : `${fmt(m)} vs ${fmt(v1)} / ${fmt(v2)} µs`,
      ),
    );
  }
  const imp = num(table.importMs.mcpwire);
  out.push(
    check(
      'import: mcpwire ≤ 10 ms',
      imp === undefined ? undefined : imp <= 10,
      imp === undefined ? '' : `${fmt(imp)} ms`,
    ),
  );
  const blob = num(ratio.blobMiBPerSec?.mcpwire);
  out.push(
    check(
      '1 MiB results: mcpwire ≥ 0.95× raw MiB/s',
      blob === undefined ? undefined : blob >= 0.95,
      blob === undefined ? '' : `${blob.toFixed(2)}×`,
    ),
  );
  return out;
}

/** A number for a table cell: 3 significant-ish digits; strings pass through. */
export function fmt(v) {
  if (typeof v !== 'number') return v ?? 'n/a';
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

/** The whole printed report as markdown. */
export function render({ machine, options, table, ratio, checks, errors }) {
  const lines = [];
  lines.push(`## mcpwire benchmark (${options.transport ?? 'stdio'}) — ${machine.date}`);
  lines.push('');
  lines.push(
    `${machine.cpu} ×${machine.cores}, ${machine.memGiB} GiB, ${machine.platform}; node ${machine.node}; ${machine.versions}`,
  );
  const server =
    options.transport === undefined || options.transport === 'stdio'
      ? 'bench/server.mjs --tools 100 over stdio'
      : `bench/http-server.mjs --tools 100 over Streamable HTTP on loopback, ${options.transport === 'http-sse' ? 'SSE' : 'JSON'} answers (cold: the server is already listening)`;
  lines.push(
    `${options.rounds} round(s)${options.quick ? ', --quick' : ''}; medians of all samples; server: ${server} (legacy 2025-11-25)`,
  );
  lines.push('');
  lines.push(`| metric | better | ${CLIENT_NAMES.join(' | ')} |`);
  lines.push(`| --- | --- | ${CLIENT_NAMES.map(() => '---:').join(' | ')} |`);
  for (const { key, label, better } of METRICS)
    lines.push(`| ${label} | ${better} | ${CLIENT_NAMES.map((c) => fmt(table[key][c])).join(' | ')} |`);
  lines.push('');
  lines.push('Ratio to the raw floor, client ÷ raw. Rows marked "lower" (CPU, latency): 1.00 costs what the');
  lines.push('floor costs, above 1 is slower. Rows marked "higher is better" (calls/s, MiB/s): 1.00 is as fast');
  lines.push('as the floor, below 1 is slower.');
  lines.push('');
  const others = CLIENT_NAMES.slice(1);
  lines.push(`| metric | better | ${others.join(' | ')} |`);
  lines.push(`| --- | --- | ${others.map(() => '---:').join(' | ')} |`);
  for (const { key, label, better, ratio: inRatio } of METRICS) {
    if (!inRatio) continue;
    const cells = others.map((c) =>
      ratio[key][c] === undefined
        ? typeof table[key][c] === 'string'
          ? table[key][c]
          : 'n/a'
        : `${ratio[key][c].toFixed(2)}×`,
    );
    lines.push(`| ${label} | ${better === 'higher' ? 'higher is better' : 'lower'} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push('Targets for mcpwire (from the issue):');
  lines.push('');
  lines.push('| target | result | figure |');
  lines.push('| --- | --- | --- |');
  for (const t of checks) lines.push(`| ${t.label} | ${t.status} | ${t.detail} |`);
  if (errors.length > 0) {
    lines.push('');
    for (const e of errors) lines.push(e);
  }
  return lines.join('\n');
}
