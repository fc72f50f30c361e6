// The play page: shows what the server says the seat on screen may see, and sends that
// seat's chosen action. Every choice offered is one of the engine's legal actions; the
// server checks it again. Board text is only ever set through textContent.
"use strict";
(() => {
  const { el } = TTR;
  const SVGNS = "http://www.w3.org/2000/svg";
  let PX = 3.2;  // screen pixels per canvas millimetre: set so the whole board fits the window
  const params = new URLSearchParams(location.search);
  const BOT_DELAY = Math.max(0, Number(params.get("delay") || 700));
  const SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
  const CARD_COLOURS = { red: "#d33", blue: "#36c", green: "#3a3", yellow: "#ec2", black: "#333", white: "#fff",
    orange: "#f93", pink: "#e8a", purple: "#a5c", locomotive: "linear-gradient(90deg,#d33,#ec2,#3a3,#36c)",
    big: "linear-gradient(90deg,#333,#d33,#333)", passenger: "#9cf" };

  let board = null, view = null, picked = null, botTimer = null, busy = false;
  const $ = (id) => document.getElementById(id);

  function cardStyle(kind) {
    const c = CARD_COLOURS[kind] || "#bbb";
    return c.startsWith("linear") ? `background:${c}` : `background-color:${c}`;
  }

  function say(text, rule) {
    const box = $("message");
    if (!text) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    const parts = [text];
    // The rule as the engine's errors cite it ("tunnels (docs/rules.md#tunnels)"), linked to that section of the rules page.
    const m = rule && /^(.*?)\s*\(?docs\/rules\.md#([\w-]+)\)?$/.exec(rule.trim());
    if (m) parts.push(" — rule: ", el("a", { class: "rule", href: `/rules#${m[2]}`, target: "_blank", rel: "noopener" },
      `${m[1] || m[2].replace(/-/g, " ")} (docs/rules.md#${m[2]})`));
    box.replaceChildren(...parts);
  }

  async function send(path, body) {
    if (busy) return;
    busy = true;
    let answer = null, refused = null;
    try {
      answer = await TTR.post(path, body);
    } catch (e) {
      refused = e;
      try { answer = await TTR.get("/api/view"); } catch (again) { /* the refusal is the news */ }
    } finally {
      busy = false;
    }
    // The page is redrawn first, then the refusal (if any) shown over it.
    if (answer) show(answer);
    if (refused) say(refused.message, refused.data && refused.data.rule); else say("");
  }

  const act = (text) => send("/api/act", { seat: view.seat, action: text });

  // --- the board ---------------------------------------------------------------------------

  function drawBoard() {
    const box = $("view");
    PX = Math.max(0.5, Math.min(box.clientWidth / board.width, box.clientHeight / board.height));
    const doc = new DOMParser().parseFromString(board.svg, "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    for (const s of svg.querySelectorAll("script, foreignObject")) s.remove();
    svg.setAttribute("width", board.width * PX);
    svg.setAttribute("height", board.height * PX);
    $("board").replaceChildren(svg);
    const layer = $("layer");
    layer.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
    layer.setAttribute("width", board.width * PX);
    layer.setAttribute("height", board.height * PX);
  }

  function points(line) { return line.map((p) => p.join(",")).join(" "); }

  function drawLayer() {
    const layer = $("layer");
    const nodes = [];
    const claimable = new Set(view.legal.filter((a) => a.route).map((a) => a.route));
    const spots = new Set(view.legal.filter((a) => a.place).map((a) => a.place));
    const owners = {};
    view.observation.players.forEach((p, seat) => { for (const [rid, track] of p.claims) (owners[rid] = owners[rid] || []).push([seat, track]); });
    const [carL, carW] = board.space;
    for (const r of board.routes) {
      // A claim is the owner's train cars on the spaces of the claimed track, as on the printed board.
      for (const [seat, track] of owners[r.id] || []) {
        for (const [x, y, angle] of r.cars[track] || []) {
          const car = svgNode("g", { class: "car", transform: `translate(${x},${y}) rotate(${angle})` });
          car.append(svgNode("rect", { x: -carL * 0.44, y: -carW * 0.36, width: carL * 0.88, height: carW * 0.72, rx: carW * 0.16,
            class: "body", fill: SEAT_COLOURS[seat % SEAT_COLOURS.length], "stroke-width": carW * 0.16 }));
          for (const k of [-1, 1]) {
            car.append(svgNode("rect", { x: k * carL * 0.22 - carL * 0.1, y: -carW * 0.14, width: carL * 0.2, height: carW * 0.28,
              rx: carW * 0.05, class: "window" }));
          }
          car.dataset.route = r.id;
          car.dataset.seat = seat;
          nodes.push(car);
        }
      }
      const hit = document.createElementNS(SVGNS, "polyline");
      hit.setAttribute("points", points(r.line));
      hit.setAttribute("class", "hit" + (claimable.has(r.id) ? " can" : "") + (picked === r.id ? " picked" : ""));
      hit.dataset.route = r.id;
      const title = document.createElementNS(SVGNS, "title");
      title.textContent = `${r.from} – ${r.to} (${r.length})`;
      hit.append(title);
      hit.addEventListener("click", () => pickRoute(r));
      nodes.push(hit);
    }
    for (const p of board.places) {
      const spot = document.createElementNS(SVGNS, "circle");
      spot.setAttribute("cx", p.at[0]);
      spot.setAttribute("cy", p.at[1]);
      spot.setAttribute("r", Math.max(p.r, 2));
      spot.setAttribute("class", "spot" + (spots.has(p.id) ? " can" : ""));
      spot.dataset.place = p.id;
      const title = document.createElementNS(SVGNS, "title");
      title.textContent = p.name;
      spot.append(title);
      spot.addEventListener("click", () => pickPlace(p));
      nodes.push(spot);
    }
    nodes.push(...pieces());
    layer.replaceChildren(...nodes);
  }

  function svgNode(tag, attrs) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }

  // Stations, passengers and what is left of the goods, drawn over their places (they never take clicks).
  function pieces() {
    const obs = view.observation;
    const at = Object.fromEntries(board.places.map((p) => [p.id, p]));
    const size = board.space[1];
    const out = [];
    obs.players.forEach((pl, seat) => {
      for (const pid of pl.stations) {
        const p = at[pid];
        if (!p) continue;
        const [x, y] = [p.at[0] + p.r * 0.9, p.at[1] - p.r * 0.9];
        const house = svgNode("polygon", { class: "station", fill: SEAT_COLOURS[seat % SEAT_COLOURS.length],
          points: [[0, -1.2], [1, -0.3], [1, 1], [-1, 1], [-1, -0.3]].map(([a, b]) => `${x + a * size * 0.7},${y + b * size * 0.7}`).join(" ") });
        house.dataset.place = pid;
        house.dataset.seat = seat;
        out.push(house);
      }
    });
    for (const [pid, seat] of Object.entries(obs.passengers || {})) {
      const p = at[pid];
      if (!p) continue;
      const figure = svgNode("circle", { class: "passenger", cx: p.at[0] - p.r * 1.1, cy: p.at[1] - p.r * 1.1, r: size * 0.8,
        fill: SEAT_COLOURS[seat % SEAT_COLOURS.length] });
      figure.dataset.place = pid;
      figure.dataset.seat = seat;
      out.push(figure);
    }
    if (obs.journey) {
      const p = at[obs.journey.at];
      if (p) out.push(svgNode("circle", { class: "journey", cx: p.at[0], cy: p.at[1], r: Math.max(p.r, 2) * 1.5 }));
    }
    for (const tk of board.tokens || []) {
      const left = (obs.goods || {})[tk.place] || [];
      const g = svgNode("g", { class: "goods", transform: `translate(${tk.at[0]},${tk.at[1]})` });
      g.dataset.place = tk.place;
      g.dataset.left = left.length;
      g.append(svgNode("circle", { r: tk.r * 1.05, class: left.length ? "token" : "token empty" }));
      const label = svgNode("text", { "text-anchor": "middle", dy: tk.r * 0.4, "font-size": tk.r * 1.1 });
      label.textContent = left.length ? String(left[0]) : "–";
      g.append(label);
      out.push(g);
    }
    return out;
  }

  function choose(title, actions, label) {
    picked = null;
    $("choice").hidden = false;
    $("choice-title").textContent = title;
    $("choice-body").replaceChildren(...actions.map((a) =>
      el("button", { class: "pay", "data-action": a.text, onclick: () => act(a.text) }, label(a))));
  }

  function pickRoute(r) {
    if (!view || view.waiting !== "you") return;
    const claims = view.legal.filter((a) => a.route === r.id);
    if (!claims.length) {
      send("/api/why", { seat: view.seat, route: r.id });
      return;
    }
    choose(`Claim ${r.from} – ${r.to}: pay with`, claims, (a) => a.text.split(" ").slice(2).join(" "));
    picked = r.id;
    drawLayer();
  }

  function pickPlace(p) {
    if (!view || view.waiting !== "you") return;
    const here = view.legal.filter((a) => a.place === p.id);
    if (!here.length) { send("/api/why", { seat: view.seat, place: p.id }); return; }
    choose(p.name, here, (a) => a.text);
  }

  // --- the panels --------------------------------------------------------------------------

  let shown = 0;
  function show(v) {
    view = v;
    picked = null;  // a pick lasts until the server answers
    // For people nothing; for tests and tools, what the page is showing now.
    document.body.dataset.waiting = v.waiting;
    document.body.dataset.shown = String(++shown);
    const obs = v.observation;
    $("variant").textContent = v.variant;
    const current = obs.current_player;
    const who = v.seats[current] ? v.seats[current].name : "";
    $("turn").textContent = v.waiting === "over" ? "game over" : v.waiting === "you" ? `your turn (${who}, ${obs.phase})` : `${who} to play`;
    const mine = v.waiting === "you";
    const kinds = new Set(v.legal.map((a) => a.kind));

    // cards and draws
    $("faceup").replaceChildren(...obs.face_up.map((kind, slot) => {
      const a = v.legal.find((x) => x.kind === "draw" && x.slot === slot);
      return el("button", { class: "card", style: cardStyle(kind), title: kind || "empty", "data-slot": slot,
        disabled: !a, onclick: () => a && act(a.text) }, kind === "locomotive" ? "loco" : kind || "—");
    }));
    $("deck-count").textContent = obs.deck;
    const blind = v.legal.find((a) => a.text === "draw blind");
    $("deck").disabled = !blind;
    $("deck").onclick = () => blind && act(blind.text);
    const tickets = v.legal.find((a) => a.kind === "tickets");
    $("draw-tickets").disabled = !tickets;
    $("draw-tickets").onclick = () => {
      const options = v.legal.filter((a) => a.kind === "tickets");
      if (options.length === 1) act(options[0].text);
      else choose("Draw tickets: how many from each pile", options, (a) => a.label || a.text);
    };

    // hand, tickets
    const me = v.seat === null ? null : obs.players[v.seat];
    $("trains").textContent = me ? `· ${me.trains} trains` : "";
    $("hand").replaceChildren(...Object.entries(obs.hand).map(([kind, n]) =>
      el("li", {}, el("span", { class: "swatch", style: cardStyle(kind) }), `${n} × ${kind}`)));
    $("tickets").replaceChildren(...v.tickets.kept.map((t) => el("li", {}, t.text, t.points !== undefined ? ` (${t.points})` : "")));

    // keeping offered tickets: checkboxes and one button that sends a legal keep
    $("choice").hidden = true;
    if (mine && kinds.has("keep")) {
      $("choice").hidden = false;
      $("choice-title").textContent = "Keep which tickets?";
      const boxes = v.tickets.offered.map((t, i) => el("label", {}, el("input", { type: "checkbox", class: "keep", value: i, checked: true }),
        ` ${t.text}${t.points !== undefined ? ` (${t.points})` : ""}`, el("br")));
      const keep = el("button", { id: "keep", onclick: () => {
        const chosen = [...document.querySelectorAll("input.keep:checked")].map((b) => b.value);
        const text = ["keep", ...chosen].join(" ");
        const a = v.legal.find((x) => x.text === text);
        if (a) { act(a.text); return; }
        // Which counts the rules allow here (a setup may also cap one pile, such as one long ticket).
        const counts = [...new Set(v.legal.filter((x) => x.kind === "keep").map((x) => x.text.split(" ").length - 1))].sort((p, q) => p - q);
        const allowed = counts.length > 1 && counts[counts.length - 1] - counts[0] === counts.length - 1
          ? `${counts[0]} to ${counts[counts.length - 1]}` : counts.join(" or ");
        say(counts.includes(chosen.length)
          ? `this choice of ${chosen.length} is not allowed: the rules cap how many you keep from one pile`
          : `keeping ${chosen.length} of these is not allowed: keep ${allowed}`, "keeping tickets (docs/rules.md#keeping-tickets)");
      } }, "Keep");
      $("choice-body").replaceChildren(...boxes, keep);
    }

    // moves that are neither a draw, a claim, a place nor a keep: tunnel, flag, passenger stop, pass
    const others = mine ? v.legal.filter((a) => !["draw", "claim", "tickets", "keep"].includes(a.kind) && !a.place) : [];
    const tunnel = obs.tunnel ? el("div", { id: "tunnel" },
      el("p", {}, `Tunnel ${obs.tunnel.route}: the deck's top cards turned; ${obs.tunnel.extra} more to pay`),
      el("div", { class: "turned" }, ...obs.tunnel.revealed.map((kind) => el("span", { class: "card turned-card", style: cardStyle(kind), title: kind },
        kind === "locomotive" ? "loco" : kind)))) : null;
    $("other-buttons").replaceChildren(...[tunnel, ...others.map((a) => el("button", { "data-action": a.text, onclick: () => act(a.text) }, a.text))].filter(Boolean));
    // A tunnel's turned cards stay in view while its claimer decides, a bot as well as you.
    $("others-actions").hidden = !others.length && !tunnel;

    // players and log
    $("players").tBodies[0].replaceChildren(...obs.players.map((p, s) => el("tr", { class: s === current ? "current" : "" },
      el("td", {}, el("span", { class: "swatch", style: `background:${SEAT_COLOURS[s % SEAT_COLOURS.length]}` }), v.seats[s].name,
        el("div", { class: "more" }, ...more(p))),
      el("td", {}, p.score), el("td", {}, p.trains), el("td", {}, p.cards), el("td", {}, p.tickets))));
    $("log").replaceChildren(...v.log.map((line) => el("li", {}, line.seat >= 0 ? `${v.seats[line.seat].name}: ${line.text}` : line.text)));
    $("log").scrollTop = 1e9;

    // hand-over (several people at one screen) and the end
    $("handover").hidden = v.waiting !== "handover";
    if (v.waiting === "handover") {
      const name = v.seats[current].name;
      $("handover-text").textContent = `Pass the screen to ${name}. Nobody else should look.`;
      $("handover-button").textContent = `I am ${name}: show my hand`;
      $("handover-button").onclick = () => send("/api/reveal", { seat: current });
    }
    if (v.waiting === "over") showScores(v);
    if (board) drawLayer();
    clearTimeout(botTimer);
    if (v.waiting === "bot") botTimer = setTimeout(() => send("/api/bot", {}), BOT_DELAY);
  }

  // What else a player has, as far as the variant has it: stations left, passengers, goods, flag cards.
  function more(p) {
    const out = [];
    if (p.stations.length || p.stations_left) out.push(`${p.stations_left} station${p.stations_left === 1 ? "" : "s"} left`);
    if (p.passengers_unplaced || p.passengers_moved) out.push(`passengers: ${p.passengers_unplaced} to place, ${p.passengers_moved} moved`);
    if (p.goods.length) out.push(`goods ${p.goods.join("+")}`);
    const parts = out.length ? [out.join(" · ")] : [];
    if (p.flag_cards.length || p.flag_sets) {
      parts.push(el("span", { class: "flags" }, " flags: ", ...p.flag_cards.map((k) => el("span", { class: "swatch flag", style: cardStyle(k), title: k })),
        p.flag_sets ? ` ${p.flag_sets} set${p.flag_sets === 1 ? "" : "s"}` : ""));
    }
    return parts;
  }

  function showScores(v) {
    const s = v.scores;
    // The kinds of points this game had (a column of zeros for everyone says nothing).
    const keys = [...new Set(s.players.flatMap((p) => Object.keys(p.breakdown)))]
      .filter((k) => k === "routes" || s.players.some((p) => p.breakdown[k]));
    $("scores").tHead.replaceChildren(el("tr", {}, el("th", {}, ""), ...keys.map((k) => el("th", {}, k.replace(/_/g, " "))), el("th", {}, "total")));
    $("scores").tBodies[0].replaceChildren(...s.players.map((p) => el("tr", { "data-seat": p.seat },
      el("td", {}, v.seats[p.seat].name), ...keys.map((k) => el("td", {}, p.breakdown[k] || 0)), el("td", { class: "total" }, p.total))));
    $("borrowed").replaceChildren(...s.players.flatMap((p) => p.borrowings.map((b) => el("li", { "data-place": b.place, "data-route": b.route || "" },
      `${v.seats[p.seat].name}'s station at ${b.place_name} ` + (b.route ? `borrows ${b.route_text}` : "borrows nothing (no opponent route there helps a ticket)")))));
    $("borrowed-box").hidden = !s.players.some((p) => p.borrowings.length);
    $("winners").textContent = `Winner: ${s.winners.map((w) => v.seats[w].name).join(" and ")}` + (s.tie_break ? ` (tie broken by ${s.tie_break})` : "");
    $("over").hidden = false;
  }

  $("close-over").addEventListener("click", () => { $("over").hidden = true; });
  window.addEventListener("resize", () => { if (board) { drawBoard(); if (view) drawLayer(); } });

  (async () => {
    board = await TTR.get("/api/board");
    drawBoard();
    show(await TTR.get("/api/view"));
  })().catch((e) => say(e.message));
})();
