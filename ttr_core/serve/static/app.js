// The ttr web table: lobby, table and replay viewer in one page, no build step.
// Everything the page knows of a game comes from the server's JSON for this seat;
// every move is an action in the engine's notation, sent back to the server.
"use strict";

const $ = (id) => document.getElementById(id);
// Seat colours are none of the nine card colours (a claim must not look like an
// open route of that colour): teal, purple, brown, olive, raspberry.
const SEAT_COLORS = ["#00a3a3", "#7d3c98", "#8b5a2b", "#6b7d00", "#b0306a"];
const POLL_MS = 300;
// How far (CSS px) from a route's centre line a finger's tap still reaches it: a
// target 32 px wide however small the board is drawn (a car is 17 px on a phone).
const FINGER_REACH = 16;
// A finger's tap takes the nearest target unless another is at most this many px
// farther: then the person is asked which.
const FINGER_MARGIN = 3;
// Polls that fail in a row before the page says the server cannot be reached.
const OUTAGE_AFTER = 2;
const OUTAGE_TEXT = "The server cannot be reached (it may be restarting, or the connection dropped). Trying again…";

// An error the page can explain: the server did not answer at all.
class Outage extends Error {}

// A fresh id for a move: a retry of the same move carries it, so it is played once.
function moveId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------- helpers

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Outage(OUTAGE_TEXT); // never the browser's "Failed to fetch"
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function card(name, count, extra = "") {
  const label = name === "loco" ? "loco" : name;
  return el("span", { class: `card card-${name} ${extra}`, title: label },
    el("span", { class: "card-name", text: label }),
    count === undefined ? null : el("b", { text: String(count) }));
}

function paymentChips(option) {
  const box = el("span", { class: "chips" });
  if (option.color && option.colored) box.append(card(option.color, option.colored, "small"));
  if (option.locos) box.append(card("loco", option.locos, "small"));
  return box;
}

// "seat 1 (Ana)": the name a person gave, else the player ("human", a bot).
// The distance from point p to the polyline through `points` (one point: to it).
function distanceToLine(p, points) {
  let best = Math.hypot(p[0] - points[0][0], p[1] - points[0][1]);
  for (let i = 1; i < points.length; i += 1) {
    const [ax, ay] = points[i - 1], [bx, by] = points[i];
    const length = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = length ? Math.max(0, Math.min(1, ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / length)) : 0;
    best = Math.min(best, Math.hypot(p[0] - ax - t * (bx - ax), p[1] - ay - t * (by - ay)));
  }
  return best;
}

function seatName(data, seat) {
  if (seat === null || seat === undefined) return "someone watching";
  const name = data.names && data.names[seat];
  return `seat ${seat} (${name || data.players[seat]})`;
}

function minutes(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// The games this browser opened, so that the lobby can bring them back.
const remembered = {
  KEY: "ttr-games",
  all() {
    try { return JSON.parse(localStorage.getItem(this.KEY) || "[]"); } catch { return []; }
  },
  add(entry) {
    const games = this.all().filter((g) => !(g.game === entry.game && g.link === entry.link));
    games.unshift(entry);
    try { localStorage.setItem(this.KEY, JSON.stringify(games.slice(0, 20))); } catch { /* private mode */ }
  },
  forget(link) {
    try { localStorage.setItem(this.KEY, JSON.stringify(this.all().filter((g) => g.link !== link))); } catch { /* */ }
  },
};

// ---------------------------------------------------------------- dialog

const dialog = {
  open(title, body, buttons, { modal = false } = {}) {
    const box = $("dialog");
    if (box.open) box.close();
    $("dialog-title").textContent = title;
    $("dialog-body").replaceChildren(...[].concat(body));
    $("dialog-buttons").replaceChildren(...buttons.map(([label, handler, cls]) =>
      el("button", { type: "button", class: cls || "", text: label, onclick: handler })));
    box.dataset.kind = title;
    if (modal) box.showModal(); else box.show();
  },
  close() { if ($("dialog").open) $("dialog").close(); delete $("dialog").dataset.key; },
  // Close a dialog the person opened; a pending choice (tickets, tunnel) comes back.
  dismiss() { dialog.close(); if (table.data && table.game) table.renderDecision(table.data); },
  key(value) {
    if (value !== undefined) $("dialog").dataset.key = value;
    return $("dialog").open ? $("dialog").dataset.key : undefined;
  },
};

// ---------------------------------------------------------------- board

const board = {
  async load(container, mapKey) {
    if (container.dataset.map === mapKey) return;
    const response = await fetch(`/api/maps/${encodeURIComponent(mapKey)}/board.svg`);
    container.innerHTML = await response.text(); // our server's SVG, names escaped there
    container.dataset.map = mapKey;
    board.addClaimPatterns(container);
    board.addCentreLines(container);
  },
  // A claimed route's cars: the seat's colour crossed by white stripes, so a claim
  // never looks like an open route of a card colour.
  addClaimPatterns(container) {
    const svg = container.querySelector("svg");
    if (!svg) return;
    const NS = "http://www.w3.org/2000/svg";
    const space = parseFloat(getComputedStyle(svg).getPropertyValue("--space")) || 10;
    const defs = document.createElementNS(NS, "defs");
    SEAT_COLORS.forEach((color, seat) => {
      const pattern = document.createElementNS(NS, "pattern");
      const size = space * 0.3;
      for (const [key, value] of Object.entries({ id: `claim-${seat}`, patternUnits: "userSpaceOnUse",
        width: size, height: size, patternTransform: "rotate(45)" })) pattern.setAttribute(key, value);
      const ground = document.createElementNS(NS, "rect");
      for (const [key, value] of Object.entries({ width: size, height: size, fill: color })) ground.setAttribute(key, value);
      const stripe = document.createElementNS(NS, "rect");
      for (const [key, value] of Object.entries({ width: size * 0.3, height: size, fill: "#fff", "fill-opacity": 0.8 })) stripe.setAttribute(key, value);
      pattern.append(ground, stripe);
      defs.append(pattern);
    });
    svg.prepend(defs);
  },
  // Each route's centre line (the centres of its cars, in the board's units), kept
  // per board for `nearest`.
  lines: new WeakMap(),
  addCentreLines(container) {
    board.lines.set(container, [...board.routes(container)].map((node) => ({
      node,
      points: [...node.querySelectorAll("polygon.car")].map((car) => {
        const corners = car.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
        return [corners.reduce((sum, p) => sum + p[0], 0) / corners.length,
          corners.reduce((sum, p) => sum + p[1], 0) / corners.length];
      }),
    })).filter((line) => line.points.length));
  },
  // What a click or a tap means: [] (nothing), one target, or several for the
  // person to choose from; a target is {route} or {city}. A mouse hits what it
  // points at: a car is its route's, a city's dot or name its city's. A finger
  // (touch, pen) takes the targets within FINGER_REACH px of where it landed:
  // routes by their centre lines, cities by their dots (when `cities`: stations can
  // be built); the nearest alone if every other is more than FINGER_MARGIN px
  // farther, else the nearest few, to choose from. So a tap between two routes
  // never claims whichever happens to be drawn on top.
  targets(container, event, finger, cities) {
    if (finger) {
      const near = board.nearby(container, event.clientX, event.clientY, cities);
      return near.length > 1 && near[1].distance - near[0].distance <= FINGER_MARGIN ? near.slice(0, 3) : near.slice(0, 1);
    }
    const route = event.target.closest?.("g.route");
    const city = event.target.closest?.("g.city");
    return route ? [{ route }] : city ? [{ city }] : [];
  },
  // The routes (and cities) within FINGER_REACH px of the screen point (x, y), the
  // nearest first, each with its distance in px.
  nearby(container, x, y, cities) {
    const matrix = container.querySelector("svg")?.getScreenCTM();
    if (!matrix) return [];
    const point = new DOMPoint(x, y).matrixTransform(matrix.inverse());
    const scale = Math.hypot(matrix.a, matrix.b); // screen px per board unit
    const found = [];
    for (const { node, points } of board.lines.get(container) || []) {
      found.push({ route: node, distance: distanceToLine([point.x, point.y], points) * scale });
    }
    for (const node of cities ? container.querySelectorAll("g.city") : []) {
      const dot = node.querySelector("circle");
      const centre = Math.hypot(point.x - dot.cx.baseVal.value, point.y - dot.cy.baseVal.value);
      found.push({ city: node, distance: Math.max(0, centre - dot.r.baseVal.value) * scale });
    }
    return found.filter((hit) => hit.distance <= FINGER_REACH).sort((a, b) => a.distance - b.distance);
  },
  // A finger landed near several targets: the person says which (the dialog sits
  // under the board, which stays in view).
  choose(hits, onRoute, onCity) {
    dialog.open("Which one?", el("p", { text: "Your finger landed near several; pick one:" }), [
      ...hits.map((hit) => hit.route
        ? [hit.route.dataset.title + ` (${hit.route.dataset.color} ${hit.route.dataset.length})`, () => { dialog.close(); onRoute(hit.route); }]
        : [`Station in ${hit.city.dataset.city}`, () => { dialog.close(); onCity(hit.city); }]),
      ["Cancel", () => dialog.dismiss()],
    ]);
  },
  routes(container) { return container.querySelectorAll("g.route"); },
  route(container, id) {
    for (const node of board.routes(container)) if (node.dataset.route === id) return node;
    return null;
  },
  city(container, name) {
    for (const node of container.querySelectorAll("g.city")) if (node.dataset.city === name) return node;
    return null;
  },
  paintOwners(container, ownerOf) {
    for (const node of board.routes(container)) {
      const owner = ownerOf(node);
      node.classList.toggle("claimed", owner !== undefined && owner >= 0);
      for (const polygon of node.querySelectorAll("polygon.car")) {
        polygon.style.fill = owner !== undefined && owner >= 0 ? `url(#claim-${owner})` : "";
      }
      if (owner !== undefined && owner >= 0) node.dataset.owner = owner; else delete node.dataset.owner;
    }
  },
  paintStations(container, stationOf) {
    for (const node of container.querySelectorAll("g.city")) {
      node.querySelector(".station")?.remove();
      const owner = stationOf(node.dataset.city);
      if (owner === undefined || owner < 0) continue;
      const dot = node.querySelector("circle");
      const x = Number(dot.getAttribute("cx")), y = Number(dot.getAttribute("cy"));
      const r = Number(dot.getAttribute("r")) * 2.2;
      const mark = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
      mark.setAttribute("class", "station");
      mark.setAttribute("points", `${x},${y - r} ${x + r * 0.9},${y + r * 0.6} ${x - r * 0.9},${y + r * 0.6}`);
      mark.style.fill = SEAT_COLORS[owner];
      node.append(mark);
    }
  },
};

// ---------------------------------------------------------------- table

const table = {
  game: null, token: null, data: null, timer: null, owners: {}, busy: false, watching: false,
  receivedAt: 0,

  async open(game, token, watching = false) {
    this.stop();
    Object.assign(this, { game, token, watching, data: null, owners: {} });
    dialog.close();
    show("table");
    document.body.classList.toggle("watching", watching);
    await this.refresh(true);
  },

  stop() { clearTimeout(this.timer); this.timer = null; this.game = null; },

  // The turn timer's seconds left, counted down between two answers of the server.
  tick() {
    const data = this.data;
    if (!data || !data.turn_seconds) { $("clock").hidden = true; return; }
    const gone = (Date.now() - this.receivedAt) / 1000;
    const parts = Object.entries(data.clock).map(([seat, left]) =>
      Number(seat) === data.view.seat ? `you: ${minutes(left - gone)} left` : `${seatName(data, Number(seat))}: ${minutes(left - gone)}`);
    $("clock").hidden = parts.length === 0;
    $("clock").textContent = `⏱ ${parts.join(" · ")}`;
  },

  schedule() {
    clearTimeout(this.timer);
    if (this.game) this.timer = setTimeout(() => this.refresh(false), POLL_MS);
  },

  async refresh(full) {
    const game = this.game;
    try {
      // After any doubt (a failed poll, a server restart) the whole table is fetched again.
      const since = full || this.doubt || !this.data ? "" : `?since=${encodeURIComponent(this.data.revision)}`;
      const data = await api("GET", `/api/games/${game}${since}`, undefined, this.token);
      if (game !== this.game) return;
      this.failures = 0;
      this.doubt = false;
      document.body.classList.remove("outage");
      if (data) await this.render(data);
      this.tick();
    } catch (error) {
      if (game !== this.game) return;
      this.doubt = true;
      this.failures = (this.failures || 0) + 1;
      if (!(error instanceof Outage) || this.failures >= OUTAGE_AFTER) {
        $("status").textContent = error.message;
        document.body.classList.toggle("outage", error instanceof Outage);
      }
      if (/no such game|token/.test(error.message)) { this.stop(); return; }
    }
    this.schedule();
  },

  // A move, with an id of its own: sent again after a network failure (the server
  // plays it once however often it arrives), until the server answers.
  async send(action) {
    if (this.busy) return;
    this.busy = true;
    const body = { action, move: moveId() };
    try {
      for (let attempt = 0; ; attempt += 1) {
        try {
          const data = await api("POST", `/api/games/${this.game}/actions`, body, this.token);
          dialog.close();
          await this.render(data);
          return;
        } catch (error) {
          if (!(error instanceof Outage) || attempt >= 5) throw error;
          flash(OUTAGE_TEXT);
          await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
        }
      }
    } catch (error) {
      this.doubt = true; // the next poll fetches the whole table
      flash(error.message);
    } finally {
      this.busy = false;
    }
  },

  async render(data) {
    const previous = this.data;
    this.data = data;
    this.receivedAt = Date.now();
    const view = data.view;
    await board.load($("board"), data.map);
    $("title").textContent = data.watching ? `${data.map_name} · watching · game ${data.game}`
      : `${data.map_name} · seat ${view.seat} · game ${data.game}`;
    // The pace menu, filled from the table itself (a friend's join link never saw the lobby).
    if ($("pace").options.length !== data.paces.length) {
      $("pace").replaceChildren(...data.paces.map((p) => el("option", { value: p, text: p })));
    }
    $("pace-box").hidden = data.watching;
    $("pace").value = data.pace;
    $("fixed-deal").hidden = !data.fixed_deal;
    this.renderBoard(view, previous);
    this.renderTurn(data);
    this.renderScores(data);
    this.renderLog(data);
    this.renderNotes(data, previous);
    $("show-result").hidden = !data.result;
    if (!data.watching) {
      this.renderCards(view);
      this.renderTickets(view);
      this.renderDecision(data);
      $("pass").hidden = !view.legal.pass;
      $("resign").hidden = view.phase === "over" || view.status[view.seat] !== "active"; // D5: any moment
      const name = data.names[view.seat] || "";
      if (document.activeElement !== $("my-name") && $("my-name").dataset.saved !== name) {
        $("my-name").value = name;
        $("my-name").dataset.saved = name;
      }
    } else {
      this.renderMarket(view);
    }
    if (data.result && !(previous && previous.result)) showResult(data);
  },

  renderBoard(view, previous) {
    const container = $("board");
    container.classList.toggle("networks", view.phase === "over");
    board.paintOwners(container, (node) => view.owners[node.dataset.route]);
    board.paintStations(container, (city) => view.station_owners[city]);
    const fresh = previous ? Object.keys(view.owners).filter((id) => !(id in previous.view.owners)) : [];
    for (const id of fresh) {
      const node = board.route(container, id);
      if (!node) continue;
      node.classList.remove("fresh");
      void node.getBoundingClientRect(); // restart the animation
      node.classList.add("fresh");
    }
    const legal = view.legal || { claims: {}, stations: {} };
    for (const node of board.routes(container)) {
      node.classList.toggle("claimable", node.dataset.route in legal.claims);
      node.classList.toggle("pending", Boolean(view.tunnel) && node.dataset.route === view.tunnel.route);
    }
    for (const node of container.querySelectorAll("g.city")) {
      node.classList.toggle("station-site", node.dataset.city in legal.stations);
    }
  },

  renderTurn(data) {
    const view = data.view;
    let text;
    if (view.phase === "over") text = "The game is over.";
    else if (view.decision === "choose_tickets") text = "Choose the tickets you keep.";
    else if (view.decision === "second_card") text = "Take a second card: the deck or a face-up card (not a locomotive).";
    else if (view.decision === "tunnel_payment") text = "Your tunnel needs more cards.";
    else if (view.phase === "setup") text = "Waiting for the others to choose their tickets…";
    else if (view.to_move === view.seat) text = "Your turn: draw cards, claim a route, draw tickets" + (view.stations_left.length ? " or build a station." : ".");
    else if (view.phase === "setup") text = "Everyone is choosing tickets…";
    else text = `Waiting for ${seatName(data, view.to_move)}…`;
    if (data.thinking.length && view.phase !== "over") {
      text += ` ${data.thinking.map((seat) => seatName(data, seat)).join(", ")} ${data.thinking.length > 1 ? "are" : "is"} thinking…`;
    }
    if (view.final_round && view.phase !== "over") text += " Final round!";
    const mine = view.phase !== "over" && (view.decision || (view.phase === "playing" && view.to_move === view.seat));
    $("turn-text").textContent = text;
    $("turn").classList.toggle("mine", Boolean(mine) && !data.watching);
    $("status").textContent = "";
  },

  renderScores(data) {
    const view = data.view;
    const stations = view.stations_left.length > 0;
    const head = el("tr", {}, el("th", { text: "" }), el("th", { text: "player" }),
      el("th", { text: "pts", title: "route points so far" }), el("th", { text: "wagons" }),
      el("th", { text: "cards" }), el("th", { text: "tickets" }),
      stations ? el("th", { text: "stations", title: "stations left" }) : null);
    const rows = data.players.map((player, seat) => el("tr", {
      class: [seat === view.seat ? "me" : "", seat === view.to_move && view.phase === "playing" ? "to-move" : "",
        view.status[seat] !== "active" ? "gone" : ""].join(" "),
    },
      el("td", {}, el("span", { class: "swatch", style: `background:${SEAT_COLORS[seat]}` })),
      el("td", { text: `${seat}: ${data.names[seat] || player}${view.status[seat] !== "active" ? ` – ${view.status[seat]}` : ""}`, title: data.names[seat] ? `${data.names[seat]} (${player})` : player }),
      el("td", { text: String(view.route_points[seat]) }),
      el("td", { text: String(view.wagons[seat]) }),
      el("td", { text: String(view.card_counts[seat]) }),
      el("td", { text: String(view.ticket_counts[seat]) }),
      stations ? el("td", { text: String(view.stations_left[seat]) }) : null));
    $("scores").replaceChildren(head, ...rows);
  },

  renderMarket(view) {
    $("market").replaceChildren(...view.market.map((name) => el("span", { class: "slot" },
      name ? card(name) : el("span", { class: "card empty", text: "—" }))));
    $("deck-size").textContent = ` ${view.deck_size}`;
    $("ticket-size").textContent = ` ${view.ticket_deck_size}`;
    $("pile-info").textContent = `discards ${view.discard_size}`;
    $("deck").disabled = $("ticket-deck").disabled = true;
  },

  renderCards(view) {
    const legal = view.legal;
    $("market").replaceChildren(...view.market.map((name, slot) => {
      const action = legal.market[String(slot)];
      const button = el("button", {
        type: "button", class: `slot ${action ? "can" : ""}`, "data-slot": slot,
        disabled: !action, title: action ? `take this ${name}` : "",
        onclick: () => action && this.send(action),
      }, name ? card(name) : el("span", { class: "card empty", text: "—" }));
      return button;
    }));
    $("deck").disabled = !legal.draw_deck;
    $("deck").classList.toggle("can", Boolean(legal.draw_deck));
    $("deck-size").textContent = ` ${view.deck_size}`;
    $("ticket-deck").disabled = !legal.tickets;
    $("ticket-deck").classList.toggle("can", Boolean(legal.tickets));
    $("ticket-size").textContent = ` ${view.ticket_deck_size}`;
    $("pile-info").textContent = `discards ${view.discard_size}`;
    const held = Object.entries(view.hand).filter(([, count]) => count > 0);
    $("hand").replaceChildren(...(held.length ? held.map(([name, count]) => card(name, count))
      : [el("span", { class: "muted", text: "no cards" })]));
    // E2: the cards laid down for a tunnel lie on the table, not in the hand.
    const laid = Object.entries(view.laid);
    $("laid").hidden = laid.length === 0;
    $("laid").replaceChildren(el("span", { text: "Laid down for the tunnel: " }),
      ...laid.map(([name, count]) => card(name, count, "small")));
  },

  renderTickets(view) {
    $("tickets").replaceChildren(...(view.tickets.length ? view.tickets.map((ticket) => el("li", {
      class: `ticket ${ticket.completed ? "done" : ""}`,
      onmouseenter: () => highlightTicket(view, ticket), onmouseleave: () => highlightTicket(view, null),
    },
      el("span", { class: "ticket-cities", text: `${ticket.a} – ${ticket.b}` }),
      el("span", { class: "ticket-value", text: `${ticket.value}${ticket.long ? " long" : ""}` }),
      el("span", { class: "ticket-state", text: ticket.completed ? "✓ done" : "open" })))
      : [el("li", { class: "muted", text: "none yet" })]));
    if (view.stations_left.length) {
      const left = view.stations_left[view.seat];
      const option = Object.values(view.legal.stations)[0]?.[0];
      const cost = option ? ` The next costs ${option.colored + option.locos} card(s) of one colour: click a city to build it.` : "";
      $("stations").hidden = false;
      $("stations").textContent = `Stations: ${left} left; each one not built scores at the end (E1).${left ? cost : ""}`;
    } else {
      $("stations").hidden = true;
    }
  },

  renderLog(data) {
    const entries = data.log.slice().reverse();
    $("log").replaceChildren(...entries.map((entry) => el("li", {},
      el("span", { class: "swatch", style: entry.seat === null ? "" : `background:${SEAT_COLORS[entry.seat]}` }),
      el("span", { text: `${seatName(data, entry.seat)} ${entry.text}` }))));
  },

  renderNotes(data, previous) {
    if (previous && previous.notes.length === data.notes.length && $("notes").children.length) return;
    $("notes").replaceChildren(...(data.notes.length ? data.notes.map(noteItem)
      : [el("li", { class: "muted", text: "No notes yet. What do you think of the map?" })]));
    $("notes").scrollTop = $("notes").scrollHeight;
  },

  renderDecision(data) {
    const view = data.view;
    const key = `${view.decision}:${data.revision}`;
    if (view.decision === "choose_tickets") {
      if (dialog.key() !== undefined && dialog.key().startsWith("choose_tickets")) return;
      ticketDialog(view);
      dialog.key(key);
    } else if (view.decision === "tunnel_payment" && view.tunnel && view.tunnel.seat === view.seat) {
      if (dialog.key() !== undefined && dialog.key().startsWith("tunnel_payment")) return;
      tunnelDialog(view);
      dialog.key(key);
    } else if (dialog.key() && /^(choose_tickets|tunnel_payment)/.test(dialog.key())) {
      dialog.close();
    }
  },

  async clickRoute(node) {
    const view = this.data && this.data.view;
    if (!view || this.watching) return;
    const options = view.legal.claims[node.dataset.route];
    if (!options) {
      // The exact reason, in the terminal's words and with its rule, from the server.
      try {
        const why = await api("GET", `/api/games/${this.game}/why?route=${encodeURIComponent(node.dataset.route)}`, undefined, this.token);
        flash(why.reason || "you can claim this route now");
      } catch (error) {
        flash(error.message);
      }
      return;
    }
    if (options.length === 1) { this.send(options[0].action); return; }
    paymentDialog(`Claim ${node.dataset.title}`, `Pay ${node.dataset.length} card(s):`, options);
  },

  clickCity(node) {
    const view = this.data && this.data.view;
    if (!view || this.watching || !view.stations_left.length) return;
    const options = view.legal.stations[node.dataset.city];
    if (!options) { flash(view.station_owners[node.dataset.city] !== undefined ? "this city has a station" : "you cannot build a station here now (E1)"); return; }
    paymentDialog(`Build a station in ${node.dataset.city}?`,
      "A station lets you use one route of another player at this city for your tickets (E1).", options);
  },
};

function highlightTicket(view, ticket) {
  const container = $("board");
  for (const node of container.querySelectorAll(".ticket-end, .progress")) node.classList.remove("ticket-end", "progress");
  if (!ticket) return;
  for (const name of [ticket.a, ticket.b]) board.city(container, name)?.classList.add("ticket-end");
  // My progress: my routes reachable from either city of the ticket (R13).
  const mine = [...board.routes(container)].filter((node) => view.owners[node.dataset.route] === view.seat);
  const reached = new Set([ticket.a, ticket.b]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const node of mine) {
      if (node.classList.contains("progress")) continue;
      if (reached.has(node.dataset.a) || reached.has(node.dataset.b)) {
        node.classList.add("progress");
        reached.add(node.dataset.a); reached.add(node.dataset.b);
        grew = true;
      }
    }
  }
}

function paymentDialog(title, text, options) {
  dialog.open(title, [
    el("p", { text }),
    el("div", { class: "options" }, ...options.map((option) => el("button", {
      type: "button", class: "option", "data-action": option.action,
      onclick: () => table.send(option.action),
    }, paymentChips(option), el("span", { text: option.text })))),
  ], [["Cancel", () => dialog.dismiss()]]);
}

function ticketDialog(view) {
  const chosen = new Set(view.offered.map((t) => t.position));
  const keep = el("button", { type: "button", class: "primary", text: "Keep these tickets" });
  const note = el("p", { text: `Keep at least ${view.keep_at_least}.` });
  const update = () => { keep.disabled = chosen.size < view.keep_at_least; };
  const rows = view.offered.map((ticket) => {
    const box = el("input", { type: "checkbox", checked: true, "data-position": ticket.position });
    box.addEventListener("change", () => { if (box.checked) chosen.add(ticket.position); else chosen.delete(ticket.position); update(); });
    return el("label", {
      class: "offer", onmouseenter: () => highlightTicket(view, ticket), onmouseleave: () => highlightTicket(view, null),
    }, box, el("span", { class: "ticket-cities", text: `${ticket.a} – ${ticket.b}` }),
      el("span", { class: "ticket-value", text: `${ticket.value}${ticket.long ? " long" : ""}` }));
  });
  keep.addEventListener("click", () => table.send(`keep ${[...chosen].sort((a, b) => a - b).join(",")}`));
  dialog.open("Choose your tickets", [note, el("div", { class: "offers" }, ...rows)], []);
  $("dialog-buttons").append(keep);
  update();
}

function tunnelDialog(view) {
  const tunnel = view.tunnel;
  const revealed = el("div", { class: "chips revealed" }, ...tunnel.revealed.map((name) => card(name)));
  const body = [
    el("p", { text: `You laid ${tunnel.payment.words} for ${tunnel.title}. The top three cards of the deck:` }),
    revealed,
    el("p", { text: tunnel.extra ? `They ask for ${tunnel.extra} more card(s) of your colour or locomotives (E2).` : "Nothing more to pay." }),
    el("div", { class: "options" }, ...view.legal.tunnel.map((option) => el("button", {
      type: "button", class: "option", "data-action": option.action, onclick: () => table.send(option.action),
    }, paymentChips(option), el("span", { text: `pay ${option.words} more` })))),
  ];
  if (view.cannot_pay) body.push(el("p", { class: "error", text: `${view.cannot_pay}.` }));
  dialog.open("Tunnel", body, [["Give up the tunnel", () => table.send(view.legal.give_up)]]);
}

function noteItem(note) {
  return el("li", {},
    el("span", { class: "swatch", style: note.seat === null ? "" : `background:${SEAT_COLORS[note.seat]}` }),
    el("b", { text: `${note.name}: ` }), el("span", { class: "note-text", text: note.text }),
    el("small", { class: "muted", text: ` after action ${note.after}` }));
}

function resultTable(result, data) {
  const stations = result.seats.some((s) => "stations" in s.score);
  const head = el("tr", {}, ...["rank", "player", "routes", "tickets", "longest path", ...(stations ? ["stations"] : []), "total"]
    .map((text) => el("th", { text })));
  const rows = [...result.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat).map((seat) => {
    const done = seat.tickets.filter((t) => t.completed).length;
    return el("tr", {},
      el("td", { text: String(seat.rank) }),
      el("td", {}, el("span", { class: "swatch", style: `background:${SEAT_COLORS[seat.seat]}` }),
        document.createTextNode(` ${seat.seat}: ${data.names[seat.seat] || data.players[seat.seat]}${seat.status === "active" ? "" : ` (${seat.status})`}`)),
      el("td", { text: String(seat.score.routes) }),
      el("td", { text: `${seat.score.tickets} (${done}/${seat.tickets.length})` }),
      el("td", { text: `${seat.longest_path}${seat.score.longest_path_bonus ? ` +${seat.score.longest_path_bonus}` : ""}` }),
      stations ? el("td", { text: String(seat.score.stations ?? 0) }) : null,
      el("td", { class: "total", text: String(seat.total) }));
  });
  return el("table", { class: "scores result" }, head, ...rows);
}

function showResult(data) {
  const result = data.result;
  const tickets = el("details", {}, el("summary", { text: "Every seat's tickets" }),
    ...result.seats.map((seat) => el("p", {},
      el("b", { text: `${seat.seat}: ${data.names[seat.seat] || data.players[seat.seat]} ` }),
      document.createTextNode(seat.tickets.map((t) => `${t.a}–${t.b} ${t.completed ? "+" : "−"}${t.value}`).join(", ") || "no tickets"))));
  dialog.open(`Game over (${result.end_reason})`, [
    resultTable(result, data),
    el("p", { class: "muted", text: `The board shows every seat's network in its colour. The deal was seed ${data.seed}.` }),
    tickets,
  ], [["Download the game record", downloadRecord, "primary"], ["Close", () => dialog.dismiss()]]);
}

async function downloadRecord() {
  const response = await fetch(`/api/games/${table.game}/record`, { headers: { "X-Seat-Token": table.token } });
  if (!response.ok) { flash((await response.json()).error); return; }
  const name = (response.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/)?.[1] || "ttr-game.json";
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function flash(message) {
  const status = $("status");
  status.textContent = message;
  status.classList.add("flash");
  setTimeout(() => status.classList.remove("flash"), 1500);
}

// ---------------------------------------------------------------- tooltips

// `cities()`: whether a finger's tap near a city means the city (stations can be built).
function wireBoard(container, describe, onRoute, onCity, cities = () => false) {
  const tip = container.parentElement.querySelector(".tooltip");
  container.addEventListener("mousemove", (event) => {
    const route = event.target.closest?.("g.route");
    const city = event.target.closest?.("g.city");
    const text = route ? describe.route(route) : city ? describe.city(city) : null;
    if (!text) { tip.hidden = true; return; }
    tip.textContent = text;
    tip.hidden = false;
    const box = container.parentElement.getBoundingClientRect();
    tip.style.left = `${event.clientX - box.left + 14}px`;
    tip.style.top = `${event.clientY - box.top + 14}px`;
  });
  container.addEventListener("mouseleave", () => { tip.hidden = true; });
  // A click that follows a touch or a pen is a finger's (Safari's clicks carry no
  // pointerType, so the pointer that went down is remembered).
  let finger = false;
  container.addEventListener("pointerdown", (event) => { finger = event.pointerType !== "mouse"; });
  container.addEventListener("click", (event) => {
    if (!onRoute || document.body.classList.contains("watching")) return; // nothing to choose
    const hits = board.targets(container, event, finger, Boolean(onCity && cities()));
    if (hits.length > 1) board.choose(hits, onRoute, onCity);
    else if (hits[0]?.route) onRoute(hits[0].route);
    else if (hits[0]?.city && onCity) onCity(hits[0].city);
  });
}

function describeRoute(node, data) {
  const parts = [`${node.dataset.a} – ${node.dataset.b}`, `${node.dataset.length} × ${node.dataset.color}`];
  if (node.classList.contains("tunnel")) parts.push("tunnel");
  if (Number(node.dataset.ferry)) parts.push(`ferry: ${node.dataset.ferry} locomotive(s)`);
  const owner = node.dataset.owner;
  parts.push(owner === undefined ? "open" : `owner: ${seatName(data, Number(owner))}`);
  return parts.join(" · ");
}

// ---------------------------------------------------------------- lobby

const lobby = {
  setup: null,
  async load() {
    if (!this.setup) this.setup = await api("GET", "/api/setup");
    return this.setup;
  },
  async open() {
    table.stop();
    dialog.close();
    show("lobby");
    document.body.classList.remove("watching");
    $("title").textContent = "";
    $("pace-box").hidden = true;
    this.renderMine();
    if ($("map").options.length) return;
    const setup = await this.load();
    // Each map with its rules and table sizes; a board whose twists ttr does not
    // model says so (in the option, and in full under the list).
    $("map").replaceChildren(...setup.maps.map((m) => el("option", {
      value: m.key,
      text: `${m.name}${m.file ? " (file)" : ""}: ${m.rules}, ${m.players[0]}–${m.players[1]}` +
        `${m.not_modelled.length ? " †" : ""}`,
    })));
    const note = () => {
      const chosen = setup.maps.find((m) => m.key === $("map").value);
      $("map-note").textContent = chosen && chosen.not_modelled.length
        ? `† Not modelled: ${chosen.not_modelled.join("; ")}.` : "";
      const [fewest, most] = chosen ? chosen.players : [2, 5];
      $("seats-legend").textContent = `Seats (${fewest} to ${most})`;
      const list = $("seats");
      while (list.children.length > most) list.lastElementChild.remove();  // R1
    };
    $("map").addEventListener("change", note);
    const defaultMap = setup.maps.find((m) => m.file) || setup.maps.find((m) => m.key === "north_america");
    if (defaultMap) $("map").value = defaultMap.key;
    note();
    $("lobby-pace").replaceChildren(...setup.paces.map((p) => el("option", { value: p, text: p })));
    $("lobby-pace").value = setup.default_pace;
    this.addSeat("human");
    this.addSeat("greedy");
  },
  addSeat(player) {
    const list = $("seats");
    const chosen = (this.setup.maps || []).find((m) => m.key === $("map").value);
    if (list.children.length >= (chosen ? chosen.players[1] : 5)) return;  // R1
    const select = el("select", { class: "seat-player", "aria-label": `seat ${list.children.length}` },
      ...this.setup.players.map((p) => el("option", { value: p, text: p === "human" ? "human (a person)" : `bot: ${p}` })));
    select.value = player;
    list.append(el("li", {}, select));
  },
  settings() {
    const timer = $("lobby-timer").value;
    return { pace: $("lobby-pace").value, turn_seconds: timer === "" ? null : Number(timer) };
  },
  async start(event) {
    event.preventDefault();
    $("lobby-error").textContent = "";
    const seedText = $("seed").value.trim();
    if (seedText !== "" && !/^\d+$/.test(seedText)) { $("lobby-error").textContent = "The seed is a whole number."; return; }
    const body = {
      map: $("map").value,
      players: [...document.querySelectorAll(".seat-player")].map((s) => s.value),
      ...this.settings(),
    };
    if (seedText !== "") body.seed = Number(seedText); // a fixed deal, marked as such for all
    await this.create(body);
  },
  async resume(file) {
    $("lobby-error").textContent = "";
    let record;
    try { record = JSON.parse(await file.text()); } catch { $("lobby-error").textContent = `${file.name} is not JSON`; return; }
    await this.create({ resume: record, ...this.settings() });
    $("resume-file").value = "";
  },
  async create(body) {
    try {
      const created = await api("POST", "/api/games", body);
      const base = `${location.origin}${location.pathname}`;
      $("join-list").replaceChildren(...created.seats.filter((s) => s.token).map((seat) => {
        const link = `${base}#play/${created.game}/${seat.token}`;
        return el("li", {},
          el("b", { text: `Seat ${seat.seat}${seat.name ? ` (${seat.name})` : ""}` }),
          el("input", { class: "join-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
          el("a", { class: "button primary", href: link, text: `Take seat ${seat.seat}` }));
      }));
      const watch = `${base}#watch/${created.game}/${created.spectator}`;
      $("watch-link").value = watch;
      $("watch-open").href = watch;
      $("joins").hidden = false;
    } catch (error) {
      $("lobby-error").textContent = error.message;
    }
  },
  renderMine() {
    const games = remembered.all();
    $("my-games").hidden = games.length === 0;
    $("my-game-list").replaceChildren(...games.map((entry) => el("li", {},
      el("a", { href: entry.link, text: `${entry.map} · ${entry.who} · game ${entry.game}` }),
      el("small", { class: "muted", text: ` opened ${new Date(entry.at).toLocaleString()}` }),
      el("button", { type: "button", class: "forget", text: "Forget", onclick: () => { remembered.forget(entry.link); this.renderMine(); } }))));
  },
};

// ---------------------------------------------------------------- replay

const replay = {
  data: null, step: 0, timer: null,
  open() { table.stop(); dialog.close(); show("replay"); $("title").textContent = "Replay"; $("pace-box").hidden = true; },
  async load(file) {
    $("replay-error").textContent = "";
    try {
      const text = await file.text();
      let record;
      try { record = JSON.parse(text); } catch { throw new Error(`${file.name} is not JSON`); }
      this.data = await api("POST", "/api/replays", record);
    } catch (error) {
      $("replay-error").textContent = error.message;
      return;
    }
    await board.load($("replay-board"), this.data.map);
    $("title").textContent = `Replay: ${this.data.map}, seed ${this.data.seed}`;
    $("replay-controls").hidden = false;
    $("replay-slider").max = String(this.data.frames.length);
    this.go(0);
  },
  go(step) {
    const data = this.data;
    this.step = Math.max(0, Math.min(step, data.frames.length));
    const owners = {}, stations = {};
    for (const frame of data.frames.slice(0, this.step)) {
      Object.assign(owners, frame.owners);
      Object.assign(stations, frame.stations);
    }
    const container = $("replay-board");
    board.paintOwners(container, (node) => owners[node.dataset.index]);
    const cityIndex = new Map([...container.querySelectorAll("g.city")].map((node, i) => [node.dataset.city, i]));
    board.paintStations(container, (city) => stations[cityIndex.get(city)]);
    $("replay-slider").value = String(this.step);
    const frame = data.frames[this.step - 1];
    $("replay-step").textContent = frame
      ? `${this.step} / ${data.frames.length}: ${seatName(data, frame.seat)} ${frame.text}`
      : `0 / ${data.frames.length}: the game as dealt`;
    const points = frame ? frame.route_points : data.players.map(() => 0);
    const wagons = frame ? frame.wagons : null;
    if (this.step === data.frames.length && data.result) {
      $("replay-scores").replaceChildren(...resultTable(data.result, data).children);
    } else {
      $("replay-scores").replaceChildren(
        el("tr", {}, el("th", { text: "" }), el("th", { text: "player" }), el("th", { text: "points" }), el("th", { text: "wagons" })),
        ...data.players.map((player, seat) => el("tr", {},
          el("td", {}, el("span", { class: "swatch", style: `background:${SEAT_COLORS[seat]}` })),
          el("td", { text: `${seat}: ${data.names[seat] || player}` }), el("td", { text: String(points[seat]) }),
          el("td", { text: wagons ? String(wagons[seat]) : "" }))));
    }
    // The notes written so far, each after the action it followed.
    const notes = data.notes.filter((note) => note.after <= this.step);
    $("replay-notes").replaceChildren(...notes.map(noteItem));
  },
  play() {
    if (this.timer) { clearInterval(this.timer); this.timer = null; $("replay-play").textContent = "Play"; return; }
    $("replay-play").textContent = "Pause";
    this.timer = setInterval(() => {
      if (this.step >= this.data.frames.length) { this.play(); return; }
      this.go(this.step + 1);
    }, 400);
  },
};

// ---------------------------------------------------------------- routing

function show(screen) {
  for (const id of ["lobby", "table", "replay"]) $(id).hidden = id !== screen;
  if (screen !== "replay" && replay.timer) replay.play();
}

function route() {
  const hash = location.hash.replace(/^#/, "");
  const link = hash.match(/^(play|watch)\/([\w-]+)\/([\w-]+)$/);
  if (link) {
    const watching = link[1] === "watch";
    table.open(link[2], link[3], watching).then(() => {
      const data = table.data;
      if (data && table.game === link[2]) {
        const who = watching ? "watching" : `seat ${data.view.seat}`;
        remembered.add({ game: link[2], link: location.href, map: data.map_name, who, at: Date.now() });
      }
    });
  } else if (hash === "replay") replay.open();
  else lobby.open();
}

window.addEventListener("DOMContentLoaded", () => {
  $("new-game").addEventListener("submit", (e) => lobby.start(e));
  $("resume-file").addEventListener("change", (e) => e.target.files[0] && lobby.resume(e.target.files[0]));
  $("name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const data = await api("POST", `/api/games/${table.game}/name`, { name: $("my-name").value }, table.token);
      $("my-name").dataset.saved = data.names[data.view.seat] || "";
      await table.render(data);
      flash("name saved");
    } catch (error) { flash(error.message); }
  });
  $("note-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("note-text").value.trim();
    if (!text) return;
    try {
      await table.render(await api("POST", `/api/games/${table.game}/notes`, { text }, table.token));
      $("note-text").value = "";
    } catch (error) { flash(error.message); }
  });
  $("note-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); $("note-form").requestSubmit(); }
  });
  setInterval(() => table.tick(), 1000);
  $("add-seat").addEventListener("click", () => lobby.addSeat("greedy"));
  $("remove-seat").addEventListener("click", () => {
    const list = $("seats");
    if (list.children.length > 2) list.lastElementChild.remove();
  });
  $("deck").addEventListener("click", () => table.data?.view.legal?.draw_deck && table.send(table.data.view.legal.draw_deck));
  $("ticket-deck").addEventListener("click", () => table.data?.view.legal?.tickets && table.send(table.data.view.legal.tickets));
  $("pass").addEventListener("click", () => table.send("pass"));
  $("resign").addEventListener("click", () => dialog.open("Resign?",
    el("p", { text: "You leave the game: you take no more turns and get no longest-path bonus; your routes stay on the board (D5)." }),
    [["Resign", () => table.send("resign"), "danger"], ["Keep playing", () => dialog.dismiss()]]));
  $("show-result").addEventListener("click", () => table.data?.result && showResult(table.data));
  $("pace").addEventListener("change", async () => {
    try { await table.render(await api("POST", `/api/games/${table.game}/pace`, { pace: $("pace").value }, table.token)); }
    catch (error) { flash(error.message); }
  });
  wireBoard($("board"), {
    route: (node) => describeRoute(node, table.data || { players: [], names: [] }),
    city: (node) => {
      const owner = table.data?.view.station_owners[node.dataset.city];
      return owner === undefined ? node.dataset.city : `${node.dataset.city} · station of ${seatName(table.data, owner)}`;
    },
  }, (node) => table.clickRoute(node), (node) => table.clickCity(node),
  () => Boolean(table.data?.view.stations_left?.length));
  wireBoard($("replay-board"), {
    route: (node) => describeRoute(node, replay.data || { players: [], names: [] }),
    city: (node) => node.dataset.city,
  });
  $("record-file").addEventListener("change", (e) => e.target.files[0] && replay.load(e.target.files[0]));
  $("replay-start").addEventListener("click", () => replay.go(0));
  $("replay-back").addEventListener("click", () => replay.go(replay.step - 1));
  $("replay-next").addEventListener("click", () => replay.go(replay.step + 1));
  $("replay-end").addEventListener("click", () => replay.go(replay.data.frames.length));
  $("replay-play").addEventListener("click", () => replay.play());
  $("replay-slider").addEventListener("input", (e) => replay.go(Number(e.target.value)));
  window.addEventListener("hashchange", route);
  route();
});
