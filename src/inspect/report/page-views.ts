/**
 * The report page's script, part 2: the summary, the row table (virtual: only the rows in view
 * are in the DOM), the payload viewer (collapsible, built on demand, text only: nothing from the
 * trace is ever parsed as HTML), the latency tables and the error list.
 */
export const PAGE_VIEWS = String.raw`
// ---- summary ----
function renderSummary() {
  var s = D.summary, box = $('summary');
  $('file').textContent = s.file;
  var servers = s.servers.map(function (x) {
    return x.name + ' (' + x.sessions + ' session' + (x.sessions === 1 ? '' : 's') + (x.revisions.length ? ', ' + x.revisions.join(', ') : '') + ')';
  }).join('; ');
  var facts = [
    ['servers', s.servers.length, servers], ['sessions', s.sessions], ['revisions', s.revisions.length, s.revisions.join(', ')],
    ['records', s.records], ['requests', s.requests], ['notifications', s.notifications], ['answers', s.answers],
    ['errors', s.errors], ['negotiation', s.negotiation], ['invalid', s.invalid], ['events', s.events], ['open', s.open], ['cancelled', s.cancelled],
    ['orphans', s.orphans], ['duplicates', s.duplicates], ['late', s.late], ['span', fmtMs(s.spanMs)]
  ];
  // MCP Apps bridges (ui lanes) are no MCP sessions: a fact of their own, only when there are any.
  if (s.uiSessions) facts.splice(2, 0, ['app bridges', s.uiSessions]);
  facts.forEach(function (f) {
    var card = el('div', 'fact' + ((f[0] === 'errors' || f[0] === 'invalid' || f[0] === 'orphans') && f[1] ? ' bad' : ''));
    card.dataset.k = f[0];
    card.appendChild(el('b', null, f[1]));
    card.appendChild(el('span', null, f[0]));
    if (f[2]) card.title = f[2];
    box.appendChild(card);
  });
  if (servers) box.appendChild(el('p', 'servers', servers));
  D.problems.forEach(function (p) { box.appendChild(el('p', 'problem', p)); });
}

// ---- the row table ----
var ROW_H = 22;
var COLUMNS = [
  ['time', function (r) { return fmtAt(r.t); }],
  ['lane', function (r) { return laneName(r.lane); }],
  ['dir', function (r) { return r.dir === 'out' ? '\u2192' : '\u2190'; }],
  ['kind', function (r) { return r.k; }],
  ['method', function (r) { return r.m + (r.tool ? ' ' + r.tool : ''); }],
  ['id', function (r) { return r.id === undefined ? '' : String(r.id); }],
  ['status', statusText],
  ['ms', function (r) { return r.d === undefined ? (r.k === 'call' && r.st !== 'negotiation' ? '\u2026' : '') : fmtMs(r.d); }],
  ['http', function (r) { return r.http === undefined ? '' : String(r.http); }],
  ['flags', function (r) { return (r.fl || []).join(' ') + (r.parent !== undefined ? ' \u21b3' + (rows[r.parent].id) : ''); }],
  ['trace', function (r) { return r.tp ? traceIds(r.tp).trace.slice(0, 8) : (r.text || ''); }]
];
function renderHead() {
  var head = $('thead');
  COLUMNS.forEach(function (c) { head.appendChild(el('span', 'c c-' + c[0], c[0] === 'dir' ? '\u21c4' : c[0])); });
}
function rowEl(i, k) {
  var r = rows[i];
  var e = el('div', 'row k-' + r.k + ' st-' + r.st + (i === state.row ? ' sel' : ''));
  e.style.top = (k * ROW_H) + 'px';
  e.dataset.row = String(i);
  COLUMNS.forEach(function (c) { e.appendChild(el('span', 'c c-' + c[0], c[1](r))); });
  return e;
}
var drawn = '';
function renderTable(force) {
  var body = $('rows'), spacer = $('rows-spacer');
  spacer.style.height = (visible.length * ROW_H) + 'px';
  var h = body.clientHeight || 400;
  var first = Math.max(0, Math.floor(body.scrollTop / ROW_H) - 8);
  var last = Math.min(visible.length, Math.ceil((body.scrollTop + h) / ROW_H) + 8);
  var key = first + ':' + last + ':' + state.row;
  if (!force && key === drawn) return;
  drawn = key;
  spacer.textContent = '';
  var frag = document.createDocumentFragment();
  for (var k = first; k < last; k++) frag.appendChild(rowEl(visible[k], k));
  spacer.appendChild(frag);
}
function revealRow(i) {
  var k = visible.indexOf(i), body = $('rows');
  if (k < 0) return;
  var top = k * ROW_H;
  if (top < body.scrollTop || top > body.scrollTop + body.clientHeight - ROW_H) body.scrollTop = Math.max(0, top - body.clientHeight / 2);
}

// ---- the payload viewer ----
function leaf(v) {
  var type = v === null ? 'null' : typeof v;
  var e = el('span', 'v v-' + type, type === 'string' ? JSON.stringify(v) : String(v));
  if (type === 'string' && v.indexOf('***') >= 0) e.className += ' redacted';
  return e;
}
/** A collapsible view of value; levels above openTo start open, the rest are built when opened. */
function tree(value, depth, openTo) {
  if (value === null || typeof value !== 'object') return leaf(value);
  var isArray = Array.isArray(value), keys = Object.keys(value);
  var node = el('details', 'node');
  node.appendChild(el('summary', null, (isArray ? '[' : '{') + keys.length + (isArray ? ']' : '}')));
  var filled = false;
  function fill() {
    if (filled || !node.open) return;
    filled = true;
    keys.forEach(function (k) {
      var line = el('div', 'kv');
      line.appendChild(el('span', 'key', isArray ? k : JSON.stringify(k)));
      line.appendChild(el('span', 'colon', ': '));
      line.appendChild(tree(value[k], depth + 1, openTo));
      node.appendChild(line);
    });
  }
  node.addEventListener('toggle', fill);
  if (depth < openTo) { node.open = true; fill(); }
  return node;
}
function fact(list, name, value) {
  if (value === undefined || value === null || value === '') return;
  list.appendChild(el('dt', null, name));
  list.appendChild(el('dd', null, value));
}
function linkTo(i, text) {
  var b = el('button', 'link', text);
  b.addEventListener('click', function () { select(i, true); });
  return b;
}
function showPayload() {
  var v = $('viewer'), i = state.row;
  v.textContent = '';
  if (i < 0 || i >= rows.length) { v.appendChild(el('p', 'hint', 'Click a row or a bar to see its messages.')); return; }
  var r = rows[i];
  v.appendChild(el('h3', null, rowTitle(r)));
  var dl = el('dl', 'facts');
  fact(dl, 'lane', laneName(r.lane) + (lanes[r.lane].revision ? ' (' + lanes[r.lane].revision + ')' : ''));
  fact(dl, 'at', fmtAt(r.t));
  fact(dl, 'status', statusText(r));
  fact(dl, 'error.type', r.et);
  fact(dl, 'rpc code', r.sc);
  fact(dl, 'message', r.em);
  fact(dl, 'latency', r.d === undefined ? undefined : fmtMs(r.d));
  fact(dl, 'http', r.http);
  if (r.tp) { fact(dl, 'trace id', traceIds(r.tp).trace); fact(dl, 'parent span', traceIds(r.tp).span); }
  fact(dl, 'flags', (r.fl || []).join(', '));
  fact(dl, 'details', r.text);
  v.appendChild(dl);
  if (r.parent !== undefined) {
    var up = el('p', 'rel', 'belongs to ');
    up.appendChild(linkTo(r.parent, rowTitle(rows[r.parent])));
    v.appendChild(up);
  }
  if (children[i]) {
    var down = el('p', 'rel', children[i].length + ' related: ');
    children[i].slice(0, 50).forEach(function (c) { down.appendChild(linkTo(c, rows[c].m + ' ' + fmtAt(rows[c].t))); });
    v.appendChild(down);
  }
  r.p.forEach(function (p) {
    var rec = recs[p];
    var box = el('div', 'payload');
    box.appendChild(el('h4', null, (rec.dir === 'out' ? '\u2192 ' : '\u2190 ') + rec.kind + (rec.event ? ' ' + rec.event : '') + ' \u00b7 ' + rec.bytes + ' B \u00b7 ' + rec.ts));
    var value = rec.message !== undefined ? rec.message : rec.raw !== undefined ? rec.raw : rec.detail;
    // A small message opens whole; a big one its first levels (the rest is built on demand).
    box.appendChild(tree(value === undefined ? null : value, 0, rec.bytes < 4096 ? 12 : 2));
    v.appendChild(box);
  });
}

// ---- latency tables and errors ----
var STAT_COLUMNS = ['server', 'name', 'n', 'p50', 'p90', 'p99', 'max', 'errors', 'errorRate', 'unanswered', 'negotiation'];
function renderStats(id, list, key) {
  var table = $(id);
  var head = el('tr');
  STAT_COLUMNS.forEach(function (c) { head.appendChild(el('th', null, c === 'name' ? key : c === 'errorRate' ? 'error rate' : c)); });
  table.appendChild(head);
  list.forEach(function (s) {
    var tr = el('tr');
    tr.dataset.server = s.server;
    tr.dataset.name = s.name;
    STAT_COLUMNS.forEach(function (c) {
      var v = s[c];
      var text = v === undefined ? '-' : c === 'errorRate' ? (v * 100).toFixed(1) + '%' : /^(p\d+|max)$/.test(c) ? fmtMs(v) : v;
      var td = el('td', 'k-' + c, text);
      td.dataset.k = c;
      if (v !== undefined) td.dataset.v = String(v);
      tr.appendChild(td);
    });
    tr.addEventListener('click', function () { setFilter({ method: s.method, server: s.server, q: key === 'tool' ? s.name : '' }); });
    table.appendChild(tr);
  });
}
var ERROR_CAP = 300;
function renderErrors() {
  var list = $('error-list');
  D.errors.slice(0, ERROR_CAP).forEach(function (i) {
    var r = rows[i];
    var item = el('li', 'err');
    item.appendChild(linkTo(i, fmtAt(r.t) + ' ' + laneName(r.lane) + ' ' + rowTitle(r)));
    item.appendChild(el('span', 'et', ' ' + [r.et, r.sc && r.sc !== r.et ? 'code ' + r.sc : '', r.http ? 'HTTP ' + r.http : ''].filter(Boolean).join(' \u00b7 ')));
    if (r.em || r.text) item.appendChild(el('span', 'em', ' ' + (r.em || r.text)));
    list.appendChild(item);
  });
  if (D.errors.length > ERROR_CAP) list.appendChild(el('li', 'more', (D.errors.length - ERROR_CAP) + ' more: filter by status "error"'));
  if (D.errors.length === 0) list.appendChild(el('li', 'none', 'No errors.'));
  var http = $('http-list');
  D.http.forEach(function (h) {
    var item = el('li', h.status >= 400 ? 'bad' : '', 'HTTP ' + h.status + ': ' + h.count);
    item.dataset.status = String(h.status);
    http.appendChild(item);
  });
  if (D.http.length === 0) http.appendChild(el('li', 'none', 'No HTTP traffic.'));
}
`;
