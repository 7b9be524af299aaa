/** The report page's style sheet (inline; the page loads nothing). */
export const PAGE_STYLE = `
:root { --fg: #1f2328; --muted: #6b7280; --line: #e5e7eb; --bad: #d64541; --accent: #3b82c4; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #fbfbfc; }
header { display: flex; align-items: baseline; gap: 12px; padding: 10px 16px; border-bottom: 1px solid var(--line); background: #fff; }
header h1 { font-size: 16px; margin: 0; }
#file { color: var(--muted); font-family: ui-monospace, monospace; }
section { padding: 8px 16px; }
h2 { font-size: 13px; margin: 8px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
#summary { display: flex; flex-wrap: wrap; gap: 6px; }
.fact { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px; }
.fact b { font-size: 14px; margin-right: 4px; }
.fact span { color: var(--muted); font-size: 12px; }
.fact.bad b { color: var(--bad); }
#summary p { flex-basis: 100%; margin: 2px 0; color: var(--muted); }
#summary .problem { color: var(--bad); }
#filters { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; background: #fff; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
#filters label { color: var(--muted); }
#filters select, #filters input { font: inherit; padding: 2px 4px; }
#f-duration { width: 80px; }
#f-q { width: 220px; }
#row-count { margin-left: auto; color: var(--muted); }
#tl-toolbar { display: flex; gap: 6px; align-items: center; margin-bottom: 4px; }
#tl-toolbar button, #filters button { font: inherit; padding: 1px 8px; }
#tl-range { color: var(--muted); font-family: ui-monospace, monospace; }
#timeline { display: flex; border: 1px solid var(--line); background: #fff; overflow: hidden; }
#lane-labels { flex: none; width: 190px; border-right: 1px solid var(--line); }
.lane { display: flex; align-items: center; padding: 0 6px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-family: ui-monospace, monospace; font-size: 11px; }
.lane small { color: var(--muted); margin-left: 4px; }
.lane.ui { color: #6d28d9; background: #f7f4fc; border-left: 3px solid #7c5cbf; }
#tl { display: block; cursor: crosshair; }
#timeline { position: relative; }
#tl-tip { position: absolute; pointer-events: none; background: #1f2328; color: #fff; padding: 2px 6px; border-radius: 4px; font: 11px ui-monospace, monospace; white-space: nowrap; max-width: 520px; overflow: hidden; text-overflow: ellipsis; z-index: 3; }
#legend { color: var(--muted); font-size: 11px; margin-top: 3px; }
#legend i { display: inline-block; width: 10px; height: 8px; margin: 0 3px 0 8px; }
#main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); gap: 12px; padding: 0 16px; }
#table-box { padding: 0; border: 1px solid var(--line); background: #fff; min-width: 0; }
#thead, .row { display: grid; grid-template-columns: 72px 150px 16px 44px minmax(140px, 2fr) 32px 84px 60px 40px 56px minmax(40px, 1fr); }
#thead { font-weight: 600; border-bottom: 1px solid var(--line); background: #f3f4f6; }
#rows { position: relative; height: 440px; overflow: auto; }
#rows-spacer { position: relative; }
.row { position: absolute; left: 0; right: 0; height: 22px; align-items: center; cursor: pointer; border-bottom: 1px solid #f1f2f4; }
.row:hover { background: #f3f7fc; }
.row.sel { background: #dbeafe; }
.c { padding: 0 4px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-family: ui-monospace, monospace; font-size: 12px; }
.row.st-error .c-status, .row.k-invalid .c-method, .row.k-orphan .c-flags { color: var(--bad); font-weight: 600; }
.row.st-negotiation .c-status { color: #5b6478; font-style: italic; }
.row.st-open .c-status, .row.st-cancelled .c-status { color: #b7791f; }
.row.k-note, .row.k-event { color: #4b5563; }
#viewer { border: 1px solid var(--line); background: #fff; padding: 8px 10px; max-height: 464px; overflow: auto; min-width: 0; }
#viewer h3 { margin: 0 0 6px; font-size: 14px; font-family: ui-monospace, monospace; word-break: break-all; }
#viewer h4 { margin: 8px 0 2px; font-size: 12px; color: var(--muted); }
.facts { display: grid; grid-template-columns: auto 1fr; gap: 1px 10px; margin: 0 0 6px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
.rel { margin: 4px 0; }
button.link { background: none; border: none; color: var(--accent); cursor: pointer; padding: 0 4px; font: inherit; text-decoration: underline; }
.payload { font-family: ui-monospace, monospace; font-size: 12px; }
.node > summary { cursor: pointer; color: var(--muted); }
.kv { padding-left: 16px; white-space: pre-wrap; word-break: break-all; }
.key { color: #7c3aed; }
.v-string { color: #0f766e; }
.v-number, .v-boolean { color: #b45309; }
.v-null { color: var(--muted); }
.redacted { background: #fde68a; }
.hint { color: var(--muted); }
table { border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { padding: 2px 8px; border-bottom: 1px solid #f1f2f4; text-align: right; font-family: ui-monospace, monospace; font-size: 12px; }
th { background: #f3f4f6; font-family: inherit; }
th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; }
#stats tr:hover td { background: #f3f7fc; cursor: pointer; }
#stats { display: flex; flex-wrap: wrap; gap: 16px; }
#errors ul { margin: 0; padding-left: 18px; font-family: ui-monospace, monospace; font-size: 12px; }
#errors .et { color: var(--bad); }
#errors .em { color: var(--muted); white-space: pre-wrap; word-break: break-all; }
#errors li.bad { color: var(--bad); }
`;
