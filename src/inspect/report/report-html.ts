/**
 * The trace report as one self-contained HTML page: inline style and script, the data in a
 * `<script type="application/json">` element, and a Content-Security-Policy that lets the page
 * run only its own script (by hash) and load nothing at all, so it works from `file://` and a
 * hostile trace cannot make it reach the network or run code.
 */
import { createHash } from 'node:crypto';
import type { TraceRecord } from '../../observe/trace-record.js';
import { embedJson } from './embed-json.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import { buildReport } from './report-model.js';

/**
 * The page's policy: nothing from anywhere (`default-src 'none'` covers fetches, frames, fonts,
 * media, workers), inline style, the one script whose hash is given, images only as `data:`.
 */
export function reportPolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src '${scriptHash}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** `sha256-…` of a script's text, as a CSP source expression. */
export function scriptHash(script: string): string {
  return `sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`;
}

const BODY = `<header><h1>mcpwire trace report</h1><span id="file"></span></header>
<section id="summary" aria-label="summary"></section>
<section id="filters" aria-label="filters">
<label>method <select id="f-method"><option value="">any</option></select></label>
<label>server <select id="f-server"><option value="">any</option></select></label>
<label>status <select id="f-status"><option value="">any</option><option value="ok">ok</option><option value="error">error</option><option value="open">unanswered</option><option value="negotiation">negotiation</option></select></label>
<label>duration &gt; <input id="f-duration" type="number" min="0" step="any" placeholder="ms"></label>
<label>text <input id="f-q" type="search" placeholder="method, id, payload…"></label>
<button id="f-clear" type="button">clear</button>
<span id="row-count"></span>
</section>
<section id="timeline-box" aria-label="timeline">
<div id="tl-toolbar"><button id="zoom-in" type="button" title="zoom in">+</button><button id="zoom-out" type="button" title="zoom out">&minus;</button><button id="zoom-reset" type="button">whole trace</button><span id="tl-range"></span></div>
<div id="timeline"><div id="lane-labels"></div><canvas id="tl"></canvas><div id="tl-tip" hidden></div></div>
<div id="legend">wheel: zoom · shift+wheel: pan · drag: zoom to range · click: open · ↑/↓: next row
<i style="background:#3b82c4"></i>ok<i style="background:#d64541"></i>error<i style="background:#e0a030"></i>unanswered<i style="background:#9aa0a6"></i>cancelled<i style="background:#111;width:2px"></i>progress/notification</div>
</section>
<div id="main">
<section id="table-box" aria-label="messages"><div id="thead"></div><div id="rows"><div id="rows-spacer"></div></div></section>
<section id="viewer" aria-label="payload"></section>
</div>
<section aria-label="latency"><h2>Latency per method and per tool (ms, nearest rank)</h2><div id="stats"><table id="lat-methods"></table><table id="lat-tools"></table></div></section>
<section id="errors" aria-label="errors"><h2>Errors, invalid frames, orphan answers</h2><ul id="error-list"></ul><h2>HTTP statuses</h2><ul id="http-list"></ul></section>`;

/**
 * The report page of `records` (a trace file's records, in file order; already redacted by the
 * tracer). `file` is shown as the trace's name; `problems` are reading notes (skipped lines).
 */
export function renderReport(records: readonly TraceRecord[], file: string, problems: string[] = []): string {
  const data = embedJson(buildReport(records, file, problems));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${reportPolicy(scriptHash(PAGE_SCRIPT))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mcpwire trace report">
<title>mcpwire trace report</title>
<link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style>
</head>
<body>
${BODY}
<script type="application/json" id="mcpwire-data">${data}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
