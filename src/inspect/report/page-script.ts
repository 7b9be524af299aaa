/**
 * The report page's whole script: the parts joined inside one function, then the controls wired
 * and the state of the URL hash restored. The page makes no request of any kind: everything it
 * shows is in its `mcpwire-data` element.
 */
import { PAGE_CORE } from './page-core.js';
import { PAGE_TIMELINE } from './page-timeline.js';
import { PAGE_VIEWS } from './page-views.js';

const PAGE_MAIN = String.raw`
// ---- selection, filters, start ----
function select(i, reveal) {
  state.row = i;
  writeHash();
  if (reveal) revealRow(i);
  renderTable(true);
  drawTimeline();
  showPayload();
}
var CONTROLS = { method: 'f-method', server: 'f-server', status: 'f-status', duration: 'f-duration', q: 'f-q' };
function syncControls() {
  Object.keys(CONTROLS).forEach(function (k) { $(CONTROLS[k]).value = state[k]; });
}
function refresh() {
  filterRows();
  renderTable(true);
  drawTimeline();
  showPayload();
}
function setFilter(changes) {
  Object.keys(changes).forEach(function (k) { state[k] = changes[k]; });
  syncControls();
  writeHash();
  refresh();
}
function options(id, values) {
  var select = $(id);
  values.forEach(function (v) { var o = el('option', null, v); o.value = v; select.appendChild(o); });
}
function wireFilters() {
  var methods = {};
  rows.forEach(function (r) { methods[r.m] = true; });
  options('f-method', Object.keys(methods).sort());
  var servers = [];
  lanes.forEach(function (l) { if (servers.indexOf(l.server) < 0) servers.push(l.server); });
  options('f-server', servers);
  var typing = null;
  Object.keys(CONTROLS).forEach(function (k) {
    var input = $(CONTROLS[k]);
    var apply = function () {
      // The change event on blur after typing repeats the value: redrawing then would replace the
      // row under the pointer between mousedown and mouseup, and the click would be lost.
      if (state[k] === input.value.trim()) return;
      var c = {};
      c[k] = input.value.trim();
      setFilter(c);
    };
    input.addEventListener('change', apply);
    if (input.tagName === 'INPUT') input.addEventListener('input', function () { clearTimeout(typing); typing = setTimeout(apply, 150); });
  });
  $('f-clear').addEventListener('click', function () { setFilter({ method: '', server: '', status: '', duration: '', q: '' }); });
  $('rows').addEventListener('scroll', function () { renderTable(false); });
  $('rows-spacer').addEventListener('click', function (ev) {
    var target = ev.target.closest('.row');
    if (target) select(Number(target.dataset.row), false);
  });
  window.addEventListener('hashchange', function () { readHash(); syncControls(); applyRange(); refresh(); });
}
function applyRange() {
  if (state.from !== null && state.to !== null && state.to > state.from) setView(state.from, state.to, true);
  else setView(-total * 0.01, total * 1.01, true);
}
/** Arrow keys (or j/k) move the selection through the rows shown; Escape closes it. */
function wireKeys() {
  document.addEventListener('keydown', function (ev) {
    var tag = ev.target && ev.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var step = ev.key === 'ArrowDown' || ev.key === 'j' ? 1 : ev.key === 'ArrowUp' || ev.key === 'k' ? -1 : 0;
    if (ev.key === 'Escape') { select(-1, false); return; }
    if (!step || visible.length === 0) return;
    ev.preventDefault();
    var k = visible.indexOf(state.row);
    k = k < 0 ? (step > 0 ? 0 : visible.length - 1) : Math.max(0, Math.min(visible.length - 1, k + step));
    select(visible[k], true);
  });
}

readHash();
renderSummary();
renderLanes();
renderHead();
renderStats('lat-methods', D.latency.methods, 'method');
renderStats('lat-tools', D.latency.tools, 'tool');
renderErrors();
wireFilters();
wireTimeline();
wireKeys();
syncControls();
filterRows();
sizeCanvas();
applyRange();
if (state.row >= rows.length) state.row = -1;
if (state.row >= 0) revealRow(state.row);
renderTable(true);
drawTimeline();
showPayload();
document.body.dataset.ready = 'true';
`;

/** The script of the report page (one inline classic script, run after the data element). */
export const PAGE_SCRIPT = `(function () {\n${PAGE_CORE}${PAGE_VIEWS}${PAGE_TIMELINE}${PAGE_MAIN}})();\n`;
