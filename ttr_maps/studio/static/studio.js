// ttr-maps studio: the board as `render` draws it, its findings, and edits written back to the YAML.
// Board text is only ever set with textContent (TTR.el) or comes inside the renderer's escaped SVG.
"use strict";
(() => {
  const PX = 2; // screen pixels per millimetre of the drawing at zoom 1
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const view = $("view"), stage = $("stage"), boardBox = $("board"), layer = $("overlay-layer");
  let state = null;        // the server's snapshot
  let drawnKey = "";       // the name of the SVG now shown: the server sends only what changed since
  let zoom = 1, panX = 0, panY = 0, fitted = false;
  let mode = null;         // null | {kind: "place"} | {kind: "route"|"ticket", picked: [ids]}
  let selected = null;     // {route: i} | {place: i} | {ticket: i}
  let highlight = null;    // {route: i} | {place: i} from a finding
  let pathRoutes = new Set();

  // --- talking to the server -------------------------------------------------------------------

  function say(text, error) {
    const s = $("status");
    s.textContent = text || "";
    s.className = error ? "error" : "";
  }

  async function load() {
    accept(await TTR.get(`/api/state?svg=${encodeURIComponent(drawnKey)}`));
  }

  // A newer state from the server is shown. Its SVG is null when the page has it already, or when only some of
  // its parts changed since the drawing the page shows (`base`): then `patch` holds those parts.
  function accept(next) {
    if (!next || (state && next.version <= state.version)) return;
    const d = next.drawing;
    if (d && d.svg === null && d.key !== drawnKey && !(d.patch && d.base === drawnKey)) { load(); return; }
    state = next;
    show();
  }

  async function edit(op) {
    if (!state) return;
    op.base = state.sha;
    try {
      // The answer holds the edited board's state: drawn without asking again.
      const answer = await TTR.post(`/api/edit?svg=${encodeURIComponent(drawnKey)}`, op);
      say(answer.message);
      accept(answer.state);
    } catch (e) {
      say(e.message, true);
      if (e.data && e.data.stale) await load();
    }
  }

  function listen() {
    const events = new EventSource("/api/events");
    events.onmessage = (m) => {
      if (!state || Number(m.data) > state.version) load().catch((e) => say(e.message, true));
    };
  }

  // --- showing a snapshot ---------------------------------------------------------------------------

  function show() {
    $("file").textContent = state.file + (state.board_file !== state.file ? `  (board: ${state.board_file})` : "");
    $("undo").disabled = !state.undo;
    $("redo").disabled = !state.redo;
    const d = state.drawing;
    const empty = !d && state.problems.some((p) => p.code === "P005" || p.code === "P001");
    $("empty").hidden = !empty;
    showProblems();
    if (d && d.key !== drawnKey && !(d.patch && d.base === drawnKey && patchBoard(d))) drawBoard(d);
    stage.classList.toggle("stale", !!state.stale);
    if (d) drawOverlay(d);
    showFindings();
    showTickets();
    showColours();
    showPanel();
    if (state.message) say(state.message, state.message.includes("changed on disk"));
    document.body.dataset.version = state.version;
    document.body.dataset.ok = state.ok ? "yes" : "no";
    document.body.dataset.findings = state.findings_ready ? "ready" : "pending";
    // A quick layout of an edit (only what it reached laid out again) is shown first; render's own follows.
    document.body.dataset.exact = d && d.exact ? "yes" : "no";
    stage.title = d && !d.exact ? "quick layout of the edit; the board as render draws it follows in a moment" : "";
  }

  function showProblems() {
    const box = $("problems");
    box.replaceChildren();
    const bad = state.problems.filter((p) => p.severity === "error");
    box.hidden = !bad.length;
    if (!bad.length) return;
    box.append(TTR.el("strong", {}, state.drawing ? "The file does not load now; the board below is the last good drawing:" : "The file does not load:"));
    const ul = TTR.el("ul");
    for (const p of bad) ul.append(TTR.el("li", { class: "problem" }, `${p.path}:${p.line}:${p.col}: ${p.code} ${p.message}`));
    box.append(ul);
  }

  function drawBoard(d) {
    const doc = new DOMParser().parseFromString(d.svg, "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    for (const s of svg.querySelectorAll("script, foreignObject")) s.remove();
    svg.setAttribute("width", d.width * PX);
    svg.setAttribute("height", d.height * PX);
    boardBox.replaceChildren(svg);
    layer.setAttribute("viewBox", `0 0 ${d.width} ${d.height}`);
    layer.setAttribute("width", d.width * PX);
    layer.setAttribute("height", d.height * PX);
    drawnKey = d.key;
    document.body.dataset.drawn = state.version;
    if (!fitted) { fit(); fitted = true; }
  }

  // Only the parts of the drawing that changed (each named by its element path from the SVG root) are put in place
  // of the old ones; false when the page's SVG does not have them (then it is drawn whole).
  function patchBoard(d) {
    const svg = boardBox.querySelector("svg");
    if (!svg) return false;
    const targets = d.patch.map(([path]) => path.reduce((el, i) => el && el.children[i], svg));
    if (targets.some((t) => !t)) return false;
    const wrapped = `<svg xmlns="${SVGNS}">${d.patch.map((p) => p[1]).join("\n")}</svg>`;
    const doc = new DOMParser().parseFromString(wrapped, "image/svg+xml");
    for (const s of doc.querySelectorAll("script, foreignObject")) s.remove();
    const parts = [...doc.documentElement.children];
    if (parts.length !== targets.length) return false;
    targets.forEach((t, k) => t.replaceWith(document.importNode(parts[k], true)));
    drawnKey = d.key;
    document.body.dataset.drawn = state.version;
    return true;
  }

  function node(tag, attrs, parent) {
    const n = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (parent) parent.append(n);
    return n;
  }

  function pointsAttr(points) { return points.map((p) => p.join(",")).join(" "); }

  function drawOverlay(d) {
    layer.replaceChildren();
    const car = d.car;
    const overlay = $("overlay").value;
    const maxLoad = Math.max(1, ...d.routes.map((r) => r.load));
    // Every finding shown in the list is marked where it is: its route or place, by its worst severity.
    const allowed = new Set([...document.querySelectorAll(".sev:checked")].map((c) => c.value));
    const rank = { error: 3, warning: 2, info: 1 };
    const worst = { route: new Map(), place: new Map() };
    for (const f of state.findings) {
      if (!allowed.has(f.severity)) continue;
      for (const key of ["route", "place"]) {
        if (f[key] === undefined) continue;
        const was = worst[key].get(f[key]);
        if (!was || rank[f.severity] > rank[was]) worst[key].set(f[key], f.severity);
      }
    }
    for (const r of d.routes) {
      const line = node("polyline", { points: pointsAttr(r.line), class: "hit-route", "stroke-width": car * 0.45 * Math.max(1, r.tracks.length), "data-route": r.index }, layer);
      if (overlay === "load" && r.load > 0) {
        line.style.stroke = `rgba(200, 30, 30, ${0.15 + 0.7 * r.load / maxLoad})`;
        const mid = r.line[Math.floor(r.line.length / 2)];
        const t = node("text", { x: mid[0], y: mid[1], class: "load-label", "text-anchor": "middle" }, layer);
        t.textContent = r.load.toFixed(1);
      }
      if (overlay === "heat" && r.heat !== null) line.style.stroke = heat(r.heat);
      if (worst.route.has(r.index)) line.classList.add(`finding-${worst.route.get(r.index)}`);
      if (highlight && highlight.route === r.index) line.classList.add("hl");
      if (selected && selected.route === r.index) line.classList.add("selected");
      if (pathRoutes.has(r.index)) line.classList.add("path");
      line.addEventListener("mousedown", (e) => routeDown(e, r));
      line.addEventListener("dblclick", (e) => addBend(e, r));
    }
    for (const p of d.places) {
      if (!p.label) continue;
      const [x0, y0, x1, y1] = p.label;
      const box = node("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: "hit-label", "data-label": p.index, "stroke-width": car * 0.04 }, layer);
      node("title", {}, box).textContent = `name of ${p.name}: drag to move; double-click to let render place it`;
      box.addEventListener("mousedown", (e) => labelDown(e, p));
      box.addEventListener("dblclick", (e) => { e.stopPropagation(); if (editing()) edit({ op: "move_label", index: p.index, at: null }); });
    }
    for (const p of d.places) {
      const c = node("circle", { cx: p.at[0], cy: p.at[1], r: p.r * 1.4, class: "hit-place", "data-place": p.index, "stroke-width": car * 0.08 }, layer);
      const title = node("title", {}, c);
      title.textContent = `${p.name} (${p.id})`;
      if (worst.place.has(p.index)) c.classList.add(`finding-${worst.place.get(p.index)}`);
      if (highlight && highlight.place === p.index) c.classList.add("hl");
      if (mode && mode.picked && mode.picked.includes(p.id)) c.classList.add("pick");
      c.addEventListener("mousedown", (e) => placeDown(e, p));
    }
    if (selected && selected.route !== undefined) drawBends(d.routes[selected.route]);
  }

  function heat(v) {
    const h = 60 - 60 * Math.min(1, Math.max(0, v));
    return `hsla(${h}, 95%, 50%, 0.75)`;
  }

  function drawBends(r) {
    if (!r) return;
    const car = state.drawing.car;
    r.bends.forEach((b, k) => {
      const c = node("circle", { cx: b[0], cy: b[1], r: car * 0.13, class: "bend", "stroke-width": car * 0.04, "data-bend": k }, layer);
      const t = node("title", {}, c);
      t.textContent = "drag to move; double-click to remove";
      c.addEventListener("mousedown", (e) => bendDown(e, r, k));
      c.addEventListener("dblclick", (e) => {
        e.stopPropagation();
        const bends = r.bends.filter((_, j) => j !== k);
        edit({ op: "set_bend", route: r.index, points: bends });
      });
    });
  }

  function showFindings() {
    const ul = $("findings");
    ul.replaceChildren();
    const allowed = new Set([...document.querySelectorAll(".sev:checked")].map((c) => c.value));
    const list = state.findings.filter((f) => allowed.has(f.severity));
    $("finding-count").textContent = state.findings_ready ? `(${state.findings.length})` : "(checking...)";
    for (const f of list) {
      const li = TTR.el("li", { class: "finding" },
        TTR.el("span", { class: `sev-${f.severity}` }, f.code), " ", f.message, " ",
        TTR.el("span", { class: "where" }, `${f.path}:${f.line}:${f.col}`));
      if (f.route !== undefined) li.dataset.route = f.route;
      if (f.place !== undefined) li.dataset.place = f.place;
      if (selected && ((f.route !== undefined && f.route === selected.route) || (f.place !== undefined && f.place === selected.place))) li.classList.add("selected");
      li.addEventListener("click", () => {
        highlight = f.route !== undefined ? { route: f.route } : f.place !== undefined ? { place: f.place } : null;
        if (highlight) centreOn(highlight);
        const t = f.ticket !== undefined && state.drawing ? state.drawing.tickets[f.ticket] : null;
        // A ticket's finding: the ticket is selected and its shortest path lit.
        pathRoutes = new Set(t ? t.routes : []);
        if (t) { selected = { ticket: t.index }; showPanel(); showTickets(); }
        drawOverlay(state.drawing);
      });
      ul.append(li);
    }
  }

  function showTickets() {
    const ul = $("tickets");
    ul.replaceChildren();
    const d = state.drawing;
    if (!d) return;
    const names = Object.fromEntries(d.places.map((p) => [p.id, p.name]));
    for (const t of d.tickets) {
      const off = t.spaces === null ? "not connected" : t.spaces === t.points ? "= shortest path" : `shortest path ${t.spaces}`;
      const li = TTR.el("li", { class: "ticket" }, `${names[t.from] || t.from} – ${names[t.to] || t.to}: ${t.points} points `, TTR.el("span", { class: "where" }, off));
      if (selected && selected.ticket === t.index) li.classList.add("selected");
      li.addEventListener("mouseenter", () => { pathRoutes = new Set(t.routes); drawOverlay(d); });
      li.addEventListener("mouseleave", () => { pathRoutes = new Set(); drawOverlay(d); });
      li.addEventListener("click", () => { selected = { ticket: t.index }; showPanel(); showTickets(); });
      ul.append(li);
    }
  }

  function showColours() {
    const table = $("colours");
    table.replaceChildren();
    const d = state.drawing;
    if (!d) return;
    const most = Math.max(1, ...d.colours.map((c) => c.spaces));
    for (const c of d.colours) {
      const bar = TTR.el("span", { class: "bar" });
      bar.style.width = `${120 * c.spaces / most}px`;
      bar.style.background = c.fill;
      table.append(TTR.el("tr", {}, TTR.el("td", {}, c.colour), TTR.el("td", {}, c.spaces), TTR.el("td", {}, bar)));
    }
  }

  // --- the side panel: what is selected, and the forms of new routes and tickets ---------------------

  function showPanel() {
    const panel = $("panel");
    panel.replaceChildren();
    const d = state.drawing;
    panel.hidden = true;
    if (!d) return;
    if (mode && mode.form) { panel.hidden = false; mode.form(panel); return; }
    if (!selected) return;
    panel.hidden = false;
    if (selected.route !== undefined && d.routes[selected.route]) {
      const r = d.routes[selected.route];
      panel.append(TTR.el("h2", {}, `Route ${r.from} – ${r.to}`),
        TTR.el("p", {}, `${r.length} spaces, ${r.tracks.join(" / ")}${r.ferry ? `, ferry (${r.ferry})` : ""}${r.tunnel ? ", tunnel" : ""}; ${r.load.toFixed(1)} ticket(s) want it`),
        TTR.el("p", { class: "where" }, "Double-click the route to add a bend point; drag one to move it; double-click it to remove it."),
        TTR.el("button", { id: "delete-route", onclick: () => { const i = r.index; selected = null; edit({ op: "delete_route", index: i }); } }, "Delete route"),
        " ",
        TTR.el("button", { onclick: () => edit({ op: "set_bend", route: r.index, points: [] }), disabled: r.bends.length ? null : "disabled" }, "Straighten"),
        findingsOf("route", r.index));
    } else if (selected.place !== undefined && d.places[selected.place]) {
      const p = d.places[selected.place];
      const name = TTR.el("input", { id: "place-name", value: p.name, maxlength: "100" });
      panel.append(TTR.el("h2", {}, p.name), TTR.el("p", { class: "where" }, `id ${p.id}; drag it on the board to move it`),
        TTR.el("label", {}, "Name ", name),
        TTR.el("button", { onclick: () => edit({ op: "rename_place", index: p.index, name: name.value }) }, "Rename"), " ",
        TTR.el("button", { onclick: () => { const i = p.index; selected = null; edit({ op: "delete_place", index: i }); } }, "Delete place"),
        findingsOf("place", p.index));
    } else if (selected.ticket !== undefined && d.tickets[selected.ticket]) {
      const t = d.tickets[selected.ticket];
      const points = TTR.el("input", { id: "ticket-points", type: "number", min: "0", max: "99", value: t.points });
      panel.append(TTR.el("h2", {}, `Ticket ${t.from} – ${t.to}`),
        TTR.el("p", {}, t.spaces === null ? "the ends are not connected" : `shortest path: ${t.spaces} spaces`),
        TTR.el("label", {}, "Points ", points),
        TTR.el("button", { id: "save-ticket", onclick: () => edit({ op: "set_ticket", index: t.index, points: Number(points.value) }) }, "Save"), " ",
        t.spaces !== null ? TTR.el("button", { onclick: () => edit({ op: "set_ticket", index: t.index, points: t.spaces }) }, `Use ${t.spaces}`) : null, " ",
        TTR.el("button", { onclick: () => { const i = t.index; selected = null; edit({ op: "delete_ticket", index: i }); } }, "Delete ticket"));
    }
  }

  // The findings of the selected route or place, listed in its panel.
  function findingsOf(key, index) {
    const mine = state.findings.filter((f) => f[key] === index);
    if (!mine.length) return TTR.el("p", { class: "where" }, state.findings_ready ? "no findings" : "checking...");
    return TTR.el("ul", { class: "own-findings" }, ...mine.map((f) => TTR.el("li", {},
      TTR.el("span", { class: `sev-${f.severity}` }, f.code), " ", f.message)));
  }

  function setMode(m) {
    mode = m;
    view.classList.toggle("picking", !!(m && m.picked));
    view.classList.toggle("placing", !!(m && m.kind === "place"));
    for (const [id, kind] of [["add-place", "place"], ["add-route", "route"], ["add-ticket", "ticket"]]) $(id).classList.toggle("active", !!(m && m.kind === kind));
    if (state && state.drawing) { drawOverlay(state.drawing); showPanel(); }
  }

  async function picked(p) {
    mode.picked.push(p.id);
    if (mode.picked.length < 2) {
      say(`${p.name} picked; now pick the other end`);
      drawOverlay(state.drawing);
      return;
    }
    const [a, b] = mode.picked;
    if (a === b) { mode.picked.pop(); say("pick a different place", true); return; }
    let suggestion;
    try { suggestion = await TTR.get(`/api/suggest?from=${encodeURIComponent(a)}&to=${encodeURIComponent(b)}`); }
    catch (e) { say(e.message, true); setMode(null); return; }
    const kind = mode.kind;
    mode.form = kind === "route" ? (panel) => routeForm(panel, a, b, suggestion) : (panel) => ticketForm(panel, a, b, suggestion);
    say(kind === "route" ? `route ${a} – ${b}: ${suggestion.length} spaces fit the drawn distance` : `ticket ${a} – ${b}: the shortest path is ${suggestion.points ?? "none"}`);
    setMode(mode);
  }

  function routeForm(panel, a, b, suggestion) {
    const d = state.drawing;
    const length = TTR.el("input", { id: "route-length", type: "number", min: "1", max: "12", value: suggestion.length });
    const colour = TTR.el("select", { id: "route-colour" }, ...d.colors.map((c) => TTR.el("option", { value: c }, c)));
    colour.value = "gray";
    const second = TTR.el("select", { id: "route-second" }, TTR.el("option", { value: "" }, "none"), ...d.colors.map((c) => TTR.el("option", { value: c }, c)));
    const ferry = TTR.el("input", { id: "route-ferry", type: "number", min: "0", max: "9", value: "0" });
    const tunnel = TTR.el("input", { id: "route-tunnel", type: "checkbox" });
    panel.append(TTR.el("h2", {}, `New route ${a} – ${b}`),
      TTR.el("label", {}, "Spaces ", length, TTR.el("span", { class: "where" }, ` (${suggestion.length} fit the drawn distance)`)),
      TTR.el("label", {}, "Colour ", colour), TTR.el("label", {}, "Second track ", second),
      TTR.el("label", {}, "Ferry locomotives ", ferry), TTR.el("label", {}, tunnel, " tunnel"),
      TTR.el("button", { id: "route-ok", onclick: () => {
        const tracks = [colour.value].concat(second.value ? [second.value] : []);
        setMode(null);
        edit({ op: "add_route", from: a, to: b, length: Number(length.value), tracks, ferry: Number(ferry.value), tunnel: tunnel.checked });
      } }, "Add route"), " ",
      TTR.el("button", { onclick: () => setMode(null) }, "Cancel"));
  }

  function ticketForm(panel, a, b, suggestion) {
    const d = state.drawing;
    const points = TTR.el("input", { id: "ticket-new-points", type: "number", min: "0", max: "99", value: suggestion.points ?? 1 });
    const deck = TTR.el("input", { id: "ticket-deck", value: d.decks[0], list: "decks" });
    const decks = TTR.el("datalist", { id: "decks" }, ...d.decks.map((x) => TTR.el("option", { value: x })));
    panel.append(TTR.el("h2", {}, `New ticket ${a} – ${b}`),
      TTR.el("label", {}, "Points ", points, TTR.el("span", { class: "where" }, suggestion.points === null ? " (not connected yet)" : ` (shortest path: ${suggestion.points})`)),
      TTR.el("label", {}, "Deck ", deck, decks),
      TTR.el("button", { id: "ticket-ok", onclick: () => {
        setMode(null);
        edit({ op: "add_ticket", from: a, to: b, points: Number(points.value), decks: [deck.value.trim()] });
      } }, "Add ticket"), " ",
      TTR.el("button", { onclick: () => setMode(null) }, "Cancel"));
  }

  // --- pointer: pan, zoom, drag places and bend points ------------------------------------------------

  function toDrawing(e) {
    const pt = layer.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const p = pt.matrixTransform(layer.getScreenCTM().inverse());
    return [Math.round(p.x * 100) / 100, Math.round(p.y * 100) / 100];
  }

  function applyView() { stage.style.transform = `translate(${panX}px, ${panY}px) scale(${zoom})`; }

  function fit() {
    if (!state || !state.drawing) return;
    const w = view.clientWidth, h = view.clientHeight;
    zoom = Math.min(w / (state.drawing.width * PX), h / (state.drawing.height * PX)) * 0.98;
    panX = (w - state.drawing.width * PX * zoom) / 2;
    panY = (h - state.drawing.height * PX * zoom) / 2;
    applyView();
  }

  function centreOn(target) {
    const d = state.drawing;
    let at = null;
    if (target.place !== undefined && d.places[target.place]) at = d.places[target.place].at;
    if (target.route !== undefined && d.routes[target.route]) { const l = d.routes[target.route].line; at = l[Math.floor(l.length / 2)]; }
    if (!at) return;
    panX = view.clientWidth / 2 - at[0] * PX * zoom;
    panY = view.clientHeight / 2 - at[1] * PX * zoom;
    applyView();
  }

  function drag(e, onMove, onUp) {
    e.preventDefault();
    e.stopPropagation();
    const move = (ev) => onMove(ev);
    const up = (ev) => { window.removeEventListener("mousemove", move); window.removeEventListener("mouseup", up); onUp(ev); };
    window.addEventListener("mousemove", move);
    window.addEventListener("mouseup", up);
  }

  function editing() {
    if (!state.ok || state.stale) { say("the file does not load now: fix the problems listed first", true); return false; }
    if (state.editable) { say(state.editable, true); return false; }
    return true;
  }

  function placeDown(e, p) {
    if (e.button !== 0) return;
    if (mode && mode.picked) { e.stopPropagation(); picked(p); return; }
    if (!editing()) { selected = { place: p.index }; showPanel(); return; }
    const circle = e.target;
    const start = toDrawing(e);
    const d = state.drawing;
    const rubber = d.routes.filter((r) => r.from === p.id || r.to === p.id).map((r) => {
      const other = d.places.find((q) => q.id === (r.from === p.id ? r.to : r.from));
      return node("line", { x1: other.at[0], y1: other.at[1], x2: p.at[0], y2: p.at[1], class: "rubber", "stroke-width": d.car * 0.05 }, layer);
    });
    let moved = false, at = p.at;
    drag(e, (ev) => {
      const now = toDrawing(ev);
      at = [p.at[0] + now[0] - start[0], p.at[1] + now[1] - start[1]];
      moved = moved || Math.hypot(now[0] - start[0], now[1] - start[1]) > 0.5;
      circle.setAttribute("cx", at[0]); circle.setAttribute("cy", at[1]);
      for (const l of rubber) { l.setAttribute("x2", at[0]); l.setAttribute("y2", at[1]); }
    }, () => {
      selected = { place: p.index };
      if (moved) edit({ op: "move_place", index: p.index, at });
      else { showPanel(); showFindings(); }
    });
  }

  // Dragging a name writes `label: {dx, dy}` (its centre from the place) into the place's entry.
  function labelDown(e, p) {
    if (e.button !== 0 || (mode && mode.picked)) return;
    if (!editing()) return;
    const box = e.target;
    const start = toDrawing(e);
    const x0 = Number(box.getAttribute("x")), y0 = Number(box.getAttribute("y"));
    let moved = false, shift = [0, 0];
    drag(e, (ev) => {
      const now = toDrawing(ev);
      shift = [now[0] - start[0], now[1] - start[1]];
      moved = moved || Math.hypot(shift[0], shift[1]) > 0.5;
      box.setAttribute("x", x0 + shift[0]); box.setAttribute("y", y0 + shift[1]);
    }, () => {
      selected = { place: p.index };
      if (!moved) { showPanel(); showFindings(); return; }
      const [a, b, c, d] = p.label;
      edit({ op: "move_label", index: p.index, at: [(a + c) / 2 + shift[0], (b + d) / 2 + shift[1]] });
    });
  }

  function routeDown(e, r) {
    if (e.button !== 0 || (mode && mode.picked)) return;
    e.stopPropagation();
    selected = { route: r.index };
    highlight = null;
    markSelection();
    showPanel();
    showFindings();
  }

  // Marks the selected route and its bend points on the overlay as it is: the route's line stays the same
  // element, so the second click of a double click (adding a bend point) lands on it.
  function markSelection() {
    for (const l of layer.querySelectorAll(".hit-route")) {
      l.classList.toggle("selected", !!selected && selected.route === Number(l.dataset.route));
      l.classList.remove("hl");
    }
    for (const c of layer.querySelectorAll(".hit-place.hl")) c.classList.remove("hl");
    for (const c of layer.querySelectorAll("circle.bend")) c.remove();
    if (selected && selected.route !== undefined) drawBends(state.drawing.routes[selected.route]);
  }

  function addBend(e, r) {
    e.stopPropagation();
    if (!editing()) return;
    const at = toDrawing(e);
    // The new point goes between the two neighbours (ends and bends, in order) it is closest to.
    const ends = [state.drawing.places.find((q) => q.id === r.from).at, state.drawing.places.find((q) => q.id === r.to).at];
    const chain = [ends[0], ...r.bends, ends[1]];
    let best = 0, bestCost = Infinity;
    for (let k = 0; k < chain.length - 1; k++) {
      const cost = Math.hypot(at[0] - chain[k][0], at[1] - chain[k][1]) + Math.hypot(at[0] - chain[k + 1][0], at[1] - chain[k + 1][1]) - Math.hypot(chain[k + 1][0] - chain[k][0], chain[k + 1][1] - chain[k][1]);
      if (cost < bestCost) { bestCost = cost; best = k; }
    }
    const bends = r.bends.slice();
    bends.splice(best, 0, at);
    selected = { route: r.index };
    edit({ op: "set_bend", route: r.index, points: bends });
  }

  function bendDown(e, r, k) {
    if (e.button !== 0 || !editing()) return;
    const c = e.target;
    let at = r.bends[k], moved = false;
    drag(e, (ev) => {
      at = toDrawing(ev);
      moved = true;
      c.setAttribute("cx", at[0]); c.setAttribute("cy", at[1]);
    }, () => {
      if (!moved) return;
      const bends = r.bends.slice();
      bends[k] = at;
      edit({ op: "set_bend", route: r.index, points: bends });
    });
  }

  view.addEventListener("mousedown", (e) => {
    if (mode && mode.kind === "place" && state && state.drawing) {
      const at = toDrawing(e);
      const name = window.prompt("Name of the new place");
      setMode(null);
      if (name && name.trim()) edit({ op: "add_place", name: name.trim(), at });
      return;
    }
    const x0 = e.clientX - panX, y0 = e.clientY - panY;
    let moved = false;
    drag(e, (ev) => { panX = ev.clientX - x0; panY = ev.clientY - y0; moved = true; applyView(); }, () => {
      if (!moved && !mode) { selected = null; highlight = null; if (state && state.drawing) { drawOverlay(state.drawing); showPanel(); showFindings(); } }
    });
  });

  view.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = view.getBoundingClientRect();
    const mx = e.clientX - r.left, my = e.clientY - r.top;
    const factor = Math.exp(-e.deltaY * 0.0015);
    const next = Math.min(20, Math.max(0.05, zoom * factor));
    panX = mx - (mx - panX) * next / zoom;
    panY = my - (my - panY) * next / zoom;
    zoom = next;
    applyView();
  }, { passive: false });

  // --- buttons ------------------------------------------------------------------------------------

  $("undo").addEventListener("click", () => edit({ op: "undo" }));
  $("redo").addEventListener("click", () => edit({ op: "redo" }));
  $("fit").addEventListener("click", fit);
  $("start").addEventListener("click", async () => {
    try { say((await TTR.post("/api/edit", { op: "start" })).message); fitted = false; await load(); }
    catch (e) { say(e.message, true); }
  });
  $("add-place").addEventListener("click", () => { if (editing()) { setMode(mode && mode.kind === "place" ? null : { kind: "place" }); say("click on the board where the new place goes"); } });
  $("add-route").addEventListener("click", () => { if (editing()) { setMode({ kind: "route", picked: [] }); say("pick the first place of the new route"); } });
  $("add-ticket").addEventListener("click", () => { if (editing()) { setMode({ kind: "ticket", picked: [] }); say("pick the first place of the new ticket"); } });
  $("overlay").addEventListener("change", () => { if (state && state.drawing) drawOverlay(state.drawing); });
  for (const c of document.querySelectorAll(".sev")) c.addEventListener("change", () => { showFindings(); if (state && state.drawing) drawOverlay(state.drawing); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); edit({ op: "undo" }); }
    if ((e.ctrlKey || e.metaKey) && (e.key === "y" || (e.shiftKey && e.key === "Z"))) { e.preventDefault(); edit({ op: "redo" }); }
    if (e.key === "Escape") setMode(null);
  });
  $("simulate").addEventListener("click", async () => {
    const games = Number(window.prompt("How many games?", "50"));
    if (!games) return;
    try { await TTR.post("/api/simulate", { games }); } catch (e) { say(e.message, true); return; }
    const poll = async () => {
      const s = await TTR.get("/api/simulate");
      if (s.error) { say(`simulation failed: ${s.error}`, true); return; }
      if (s.running) { say(`simulating: ${s.done} of ${s.games} games`); setTimeout(poll, 500); return; }
      const wins = Object.entries(s.summary || {}).map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`).join(", ");
      say(`${s.games} games written to ${s.folder} (report.html); wins: ${wins}`);
    };
    poll();
  });

  load().then(listen).catch((e) => say(e.message, true));
})();
