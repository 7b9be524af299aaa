/**
 * The report page's script, part 1: reading the embedded data, formatting, the filter state and
 * its URL hash, and the filtering itself. Plain ES2017 run in the browser (no imports, no
 * template literals); the parts are joined inside one function by `page-script.ts`.
 */
export const PAGE_CORE = String.raw`
'use strict';
var D = JSON.parse(document.getElementById('mcpwire-data').textContent);
var rows = D.rows, lanes = D.lanes, recs = D.records;
var children = [];
rows.forEach(function (r, i) {
  if (r.parent !== undefined) (children[r.parent] = children[r.parent] || []).push(i);
});

function $(id) { return document.getElementById(id); }
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function fmtMs(ms) {
  if (ms === undefined || ms === null) return '-';
  if (ms >= 1000) return (ms / 1000).toFixed(2) + 's';
  return (ms < 10 ? ms.toFixed(2) : ms.toFixed(1)) + 'ms';
}
function fmtAt(ms) { return '+' + (ms >= 1000 ? (ms / 1000).toFixed(3) + 's' : ms.toFixed(1) + 'ms'); }
function laneName(i) { var l = lanes[i]; return l.server + (l.lane === 'ui' ? ' ui' : '') + ' #' + l.session; }
function rowTitle(r) { return r.m + (r.tool ? ' ' + r.tool : '') + (r.id !== undefined ? ' #' + r.id : ''); }
function statusText(r) {
  if (r.st === 'info') return '';
  if (r.st === 'error') return r.et || r.sc || 'error';
  return r.st;
}
/** The trace id and parent span id of a W3C traceparent (version-traceid-spanid-flags). */
function traceIds(tp) {
  var parts = String(tp).split('-');
  return parts.length >= 3 ? { trace: parts[1], span: parts[2] } : { trace: String(tp), span: '' };
}

// ---- filters, kept in the URL hash ----
var state = { method: '', server: '', status: '', duration: '', q: '', row: -1, from: null, to: null };
function readHash() {
  var h = new URLSearchParams(location.hash.slice(1));
  ['method', 'server', 'status', 'duration', 'q'].forEach(function (k) { state[k] = h.get(k) || ''; });
  var row = h.get('row');
  state.row = row === null || isNaN(Number(row)) ? -1 : Number(row);
  var from = h.get('from'), to = h.get('to');
  state.from = from === null || isNaN(Number(from)) ? null : Number(from);
  state.to = to === null || isNaN(Number(to)) ? null : Number(to);
}
function writeHash() {
  var h = new URLSearchParams();
  ['method', 'server', 'status', 'duration', 'q'].forEach(function (k) { if (state[k]) h.set(k, state[k]); });
  if (state.row >= 0) h.set('row', String(state.row));
  if (state.from !== null && state.to !== null) {
    h.set('from', String(Math.round(state.from * 1000) / 1000));
    h.set('to', String(Math.round(state.to * 1000) / 1000));
  }
  var hash = '#' + h.toString();
  if (location.hash === hash || (hash === '#' && location.hash === '')) return;
  try { history.replaceState(null, '', hash); } catch (e) { location.hash = hash; }
}

var haystacks = [];
/** Lower-case text of a row and its messages, built on first use (free-text filter). */
function haystack(i) {
  if (haystacks[i] === undefined) {
    var r = rows[i];
    var parts = [r.m, r.tool || '', r.id === undefined ? '' : String(r.id), laneName(r.lane), r.et || '', r.sc || '', r.em || '', r.text || '', r.tp || ''];
    r.p.forEach(function (p) {
      var rec = recs[p];
      parts.push(rec.message !== undefined ? JSON.stringify(rec.message) : rec.raw || JSON.stringify(rec.detail || ''));
    });
    haystacks[i] = parts.join(' ').toLowerCase();
  }
  return haystacks[i];
}

var visible = [];
/** shown[i] is 1 when row i passes the filters. */
var shown = new Uint8Array(rows.length);
function filterRows() {
  var q = state.q.toLowerCase();
  var dur = state.duration === '' ? NaN : Number(state.duration);
  visible = [];
  shown.fill(0);
  for (var i = 0; i < rows.length; i++) {
    var r = rows[i];
    if (state.method && r.m !== state.method) continue;
    if (state.server && lanes[r.lane].server !== state.server) continue;
    if (state.status === 'ok' && r.st !== 'ok') continue;
    if (state.status === 'error' && r.st !== 'error') continue;
    if (state.status === 'open' && r.st !== 'open' && r.st !== 'cancelled') continue;
    if (state.status === 'negotiation' && r.st !== 'negotiation') continue;
    if (!isNaN(dur) && !(r.d !== undefined && r.d > dur)) continue;
    if (q && haystack(i).indexOf(q) < 0) continue;
    visible.push(i);
    shown[i] = 1;
  }
  var count = $('row-count');
  count.textContent = visible.length + ' of ' + rows.length + ' rows';
  count.dataset.shown = String(visible.length);
  count.dataset.total = String(rows.length);
}
`;
