/**
 * The report page's script, part 3: the timeline. One lane per server session, an MCP Apps
 * bridge (ui) session tinted and labelled `<server> ui #n` (labels in the DOM, drawing on a
 * canvas so thousands of calls stay cheap): requests are bars from send to answer (unanswered
 * ones dashed to the end of their lane, cancelled ones grey with a cross at the cancel, a refused
 * or ignored era probe slate up to the client's next request), their notifications ticks on the
 * bar, other notifications diamonds, process and connection events triangles, invalid frames and
 * orphan answers red crosses. Zoom with the wheel (around the pointer), the buttons, or by
 * dragging a range; shift+wheel pans.
 */
export const PAGE_TIMELINE = String.raw`
// ---- timeline ----
var LANE_H = 26, AXIS_H = 20;
var total = Math.max(1, D.summary.spanMs);
var view = { a: -total * 0.01, b: total * 1.01 };
var canvas = $('tl'), ctx = canvas.getContext('2d'), W = 600;
// Negotiation (a refused era probe) is neither success nor trouble: a neutral slate.
var COLORS = { ok: '#3b82c4', error: '#d64541', open: '#e0a030', cancelled: '#9aa0a6', info: '#6b7280', negotiation: '#8b93a7' };
var EVENT_COLORS = { spawn: '#2e9e5b', exit: '#d64541', close: '#6b7280', connect: '#2e9e5b' };

function xOf(t) { return (t - view.a) / (view.b - view.a) * W; }
function tOf(x) { return view.a + x / W * (view.b - view.a); }
function setView(a, b, keep) {
  var min = 0.05;
  if (b - a < min) { var mid = (a + b) / 2; a = mid - min / 2; b = mid + min / 2; }
  view.a = a; view.b = b;
  if (!keep) { state.from = a; state.to = b; writeHash(); }
  drawTimeline();
}
function resetView() {
  state.from = null; state.to = null;
  setView(-total * 0.01, total * 1.01, true);
  writeHash();
}
function renderLanes() {
  var box = $('lane-labels');
  lanes.forEach(function (l, i) {
    var label = el('div', l.lane === 'ui' ? 'lane ui' : 'lane', laneName(i));
    label.dataset.lane = String(i);
    label.style.height = LANE_H + 'px';
    if (l.revision) label.appendChild(el('small', null, ' ' + l.revision));
    label.title = l.lane === 'ui'
      ? l.server + ', app bridge (\u2192 host to view, \u2190 view to host), session ' + l.session
      : l.server + ', session ' + l.session + (l.revision ? ', ' + l.revision : '');
    box.appendChild(label);
  });
  box.style.paddingTop = AXIS_H + 'px';
}
function sizeCanvas() {
  var dpr = window.devicePixelRatio || 1;
  W = Math.max(200, canvas.parentElement.clientWidth - $('lane-labels').offsetWidth - 2);
  var h = AXIS_H + lanes.length * LANE_H;
  canvas.width = Math.round(W * dpr); canvas.height = Math.round(h * dpr);
  canvas.style.width = W + 'px'; canvas.style.height = h + 'px';
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}
function niceStep(span) {
  var raw = span / 8, p = Math.pow(10, Math.floor(Math.log10(raw))), n = raw / p;
  return (n < 1.5 ? 1 : n < 3.5 ? 2 : n < 7.5 ? 5 : 10) * p;
}
function barEnd(r) {
  if (r.d !== undefined) return r.t + r.d;
  if (r.ct !== undefined) return r.ct;
  if (r.ge !== undefined) return r.ge;
  return Math.max(r.t, lanes[r.lane].end);
}
function drawAxis() {
  var step = niceStep(view.b - view.a);
  ctx.fillStyle = '#555'; ctx.strokeStyle = '#e5e7eb'; ctx.font = '10px sans-serif';
  for (var t = Math.ceil(view.a / step) * step; t <= view.b; t += step) {
    var x = Math.round(xOf(t)) + 0.5;
    ctx.beginPath(); ctx.moveTo(x, AXIS_H - 4); ctx.lineTo(x, AXIS_H + lanes.length * LANE_H); ctx.stroke();
    ctx.fillText(fmtMs(Math.max(0, t)), x + 2, 11);
  }
  $('tl-range').textContent = fmtAt(Math.max(0, view.a)) + ' \u2026 ' + fmtAt(Math.max(0, view.b));
}
function marker(x, y, shape, color) {
  ctx.fillStyle = color; ctx.strokeStyle = color; ctx.beginPath();
  if (shape === 'triangle') { ctx.moveTo(x, y - 6); ctx.lineTo(x + 5, y + 4); ctx.lineTo(x - 5, y + 4); ctx.closePath(); ctx.fill(); }
  else if (shape === 'diamond') { ctx.moveTo(x, y - 4); ctx.lineTo(x + 4, y); ctx.lineTo(x, y + 4); ctx.lineTo(x - 4, y); ctx.closePath(); ctx.fill(); }
  else { ctx.lineWidth = 2; ctx.moveTo(x - 4, y - 4); ctx.lineTo(x + 4, y + 4); ctx.moveTo(x + 4, y - 4); ctx.lineTo(x - 4, y + 4); ctx.stroke(); ctx.lineWidth = 1; }
}
function drawRow(i) {
  var r = rows[i], top = AXIS_H + r.lane * LANE_H, mid = top + LANE_H / 2, x0 = xOf(r.t);
  if (r.k === 'call') {
    var x1 = xOf(barEnd(r));
    if (x1 < -2 || x0 > W + 2) return;
    var w = Math.max(2, x1 - x0), y = top + (r.dir === 'out' ? 5 : 9), h = r.dir === 'out' ? 12 : 8;
    ctx.fillStyle = COLORS[r.st] || COLORS.ok;
    if (r.st === 'open') {
      ctx.globalAlpha = 0.35; ctx.fillRect(x0, y, w, h); ctx.globalAlpha = 1;
      ctx.setLineDash([4, 3]); ctx.strokeStyle = COLORS.open; ctx.strokeRect(x0 + 0.5, y + 0.5, w - 1, h - 1); ctx.setLineDash([]);
    } else ctx.fillRect(x0, y, w, h);
    if (w > 60 && r.dir === 'out') {
      // The name inside a bar wide enough for it, clipped to the bar.
      ctx.save(); ctx.beginPath(); ctx.rect(x0, y, w, h); ctx.clip();
      ctx.fillStyle = r.st === 'open' ? '#7a5200' : '#ffffff'; ctx.font = '10px sans-serif';
      ctx.fillText(r.tool || r.m, Math.max(x0, 0) + 3, y + h - 3);
      ctx.restore();
    }
    if (r.ct !== undefined) marker(xOf(r.ct), mid, 'cross', '#333');
    if (r.nt) { ctx.fillStyle = '#111'; r.nt.forEach(function (t) { ctx.fillRect(Math.round(xOf(t)), y - 3, 1, h + 6); }); }
    if (i === state.row) { ctx.strokeStyle = '#111'; ctx.lineWidth = 2; ctx.strokeRect(x0 - 1, y - 1, w + 2, h + 2); ctx.lineWidth = 1; }
    return;
  }
  if (x0 < -6 || x0 > W + 6) return;
  // A note is a tick on its call's bar; a diamond of its own when it has none or the call is filtered out.
  if (r.k === 'note') { if (r.parent === undefined || !shown[r.parent]) marker(x0, mid, 'diamond', '#7c5cbf'); }
  else if (r.k === 'event') marker(x0, mid, 'triangle', EVENT_COLORS[r.m] || '#e07b00');
  else marker(x0, mid, 'cross', COLORS.error);
  if (i === state.row) { ctx.strokeStyle = '#111'; ctx.strokeRect(x0 - 7, top + 2, 14, LANE_H - 4); }
}
var brush = null;
function drawTimeline() {
  ctx.clearRect(0, 0, W, AXIS_H + lanes.length * LANE_H);
  lanes.forEach(function (l, i) {
    // An app bridge lane (ui) is tinted apart from the MCP sessions.
    ctx.fillStyle = l.lane === 'ui' ? (i % 2 ? '#f1ecfa' : '#f7f4fc') : i % 2 ? '#f6f7f9' : '#ffffff';
    ctx.fillRect(0, AXIS_H + i * LANE_H, W, LANE_H);
    var s = xOf(l.start), e = xOf(l.end);
    ctx.fillStyle = '#e8edf3'; ctx.fillRect(s, AXIS_H + i * LANE_H + LANE_H - 3, Math.max(1, e - s), 2);
  });
  drawAxis();
  for (var k = 0; k < visible.length; k++) drawRow(visible[k]);
  if (brush) { ctx.fillStyle = 'rgba(59,130,196,0.15)'; ctx.fillRect(Math.min(brush.x0, brush.x1), AXIS_H, Math.abs(brush.x1 - brush.x0), lanes.length * LANE_H); }
}
/** The visible row under (x, y): a bar containing x, else the nearest marker within 6 px. */
function hit(x, y) {
  var lane = Math.floor((y - AXIS_H) / LANE_H), best = -1, bestD = 7;
  if (lane < 0 || lane >= lanes.length) return -1;
  for (var k = 0; k < visible.length; k++) {
    var i = visible[k], r = rows[i];
    if (r.lane !== lane || (r.k === 'note' && r.parent !== undefined && shown[r.parent])) continue;
    var x0 = xOf(r.t), x1 = r.k === 'call' ? Math.max(x0 + 2, xOf(barEnd(r))) : x0;
    var d = x >= x0 && x <= x1 ? 0 : Math.min(Math.abs(x - x0), Math.abs(x - x1));
    if (r.k !== 'call') d -= 0.5;
    if (d < bestD) { bestD = d; best = i; }
  }
  return best;
}
function wireTimeline() {
  canvas.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var rect = canvas.getBoundingClientRect(), span = view.b - view.a;
    if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
      var shift = (ev.shiftKey ? ev.deltaY : ev.deltaX) / W * span;
      setView(view.a + shift, view.b + shift);
      return;
    }
    var f = Math.exp(ev.deltaY * 0.0015), tm = tOf(ev.clientX - rect.left);
    setView(tm - (tm - view.a) * f, tm + (view.b - tm) * f);
  }, { passive: false });
  canvas.addEventListener('mousedown', function (ev) {
    var x = ev.clientX - canvas.getBoundingClientRect().left;
    brush = { x0: x, x1: x, y: ev.clientY - canvas.getBoundingClientRect().top };
  });
  var tip = $('tl-tip');
  canvas.addEventListener('mousemove', function (ev) {
    if (brush) return;
    var rect = canvas.getBoundingClientRect(), i = hit(ev.clientX - rect.left, ev.clientY - rect.top);
    if (i < 0) { tip.hidden = true; return; }
    var r = rows[i];
    tip.textContent = rowTitle(r) + ' \u00b7 ' + (statusText(r) || r.k) + (r.d !== undefined ? ' \u00b7 ' + fmtMs(r.d) : '') + (r.text ? ' \u00b7 ' + r.text.slice(0, 120) : '');
    tip.hidden = false;
    tip.style.left = (ev.clientX - rect.left + canvas.offsetLeft + 12) + 'px';
    tip.style.top = (ev.clientY - rect.top + canvas.offsetTop + 12) + 'px';
  });
  canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
  window.addEventListener('mousemove', function (ev) {
    if (!brush) return;
    brush.x1 = Math.max(0, Math.min(W, ev.clientX - canvas.getBoundingClientRect().left));
    drawTimeline();
  });
  window.addEventListener('mouseup', function () {
    if (!brush) return;
    var b = brush; brush = null;
    if (Math.abs(b.x1 - b.x0) > 4) { setView(tOf(Math.min(b.x0, b.x1)), tOf(Math.max(b.x0, b.x1))); return; }
    drawTimeline();
    var i = hit(b.x0, b.y);
    if (i >= 0) select(i, true);
  });
  function zoom(f) { var mid = (view.a + view.b) / 2, half = (view.b - view.a) / 2 * f; setView(mid - half, mid + half); }
  $('zoom-in').addEventListener('click', function () { zoom(0.5); });
  $('zoom-out').addEventListener('click', function () { zoom(2); });
  $('zoom-reset').addEventListener('click', resetView);
  window.addEventListener('resize', function () { sizeCanvas(); drawTimeline(); renderTable(true); });
}
`;
