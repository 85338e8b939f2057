// ttr edit: the page. Every change goes to the server, which answers with the
// whole state (board, elements, problems); names are always set as text.
"use strict";

const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);
const COLORS = ["red", "orange", "yellow", "green", "blue", "pink", "black", "white", "gray"];
let state = null;
let tool = "select";
let picked = null;          // the first city of a route or ticket being made
let selected = null;        // {kind, name|entry}
let heat = null;            // route id -> claim rate, after a play-test
let busy = Promise.resolve();

async function api(path, body) {
  const options = { headers: { "X-Edit-Token": token } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch("/api/" + path, options);
  const data = response.headers.get("content-type")?.includes("json") ? await response.json() : null;
  if (!response.ok) {
    const error = new Error((data && data.error) || response.statusText);
    error.status = response.status; error.data = data;
    throw error;
  }
  return data;
}

function say(text, isError) {
  $("hint").textContent = text;
  $("hint").style.color = isError ? "var(--bad)" : "";
}

// One request at a time, in order: edits never overtake each other.
function send(path, body) {
  const run = busy.then(async () => {
    try {
      const answer = await api(path, body);
      if (answer && answer.svg !== undefined) show(answer);
      return answer;
    } catch (error) {
      if (error.data && error.data.conflict) conflict(error.message);
      else if (error.data && error.data.drops) drops(error.message);
      else say(error.message, true);
      return null;
    }
  });
  busy = run.catch(() => {});
  return run;
}

function edit(op, fields) { return send("edit", { op, ...fields }); }

// ------------------------------------------------------------ showing the state

function show(next) {
  state = next;
  document.title = (next.dirty ? "● " : "") + next.file + " — ttr edit";
  $("file-name").textContent = next.file + (next.map.name ? " — " + next.map.name : "");
  $("dirty").hidden = !next.dirty;
  $("undo").disabled = !next.undo.count;
  $("redo").disabled = !next.redo.count;
  $("undo").title = next.undo.label ? `Undo ${next.undo.label} (Ctrl+Z)` : "Undo (Ctrl+Z)";
  $("redo").title = next.redo.label ? `Redo ${next.redo.label} (Ctrl+Shift+Z)` : "Redo (Ctrl+Shift+Z)";
  const summary = $("check-summary");
  summary.textContent = next.problem_count ? `${next.errors} errors, ${next.warnings} warnings` : "validates clean";
  summary.className = "summary " + (next.errors ? "errors" : next.warnings ? "warnings" : "clean");
  $("board").innerHTML = next.svg;  // the server's SVG: every name escaped there
  decorate();
  showProblems();
  showTickets();
  showSelection();
  if (!$("tab-numbers").hidden) loadNumbers();
  showSettings();
}

function showSettings() {
  if ($("settings-form").contains(document.activeElement)) return;  // being typed in
  $("map-name").value = state.map.name;
  $("map-id").value = state.map.id;
  $("map-rules").value = state.map.rules;
  $("map-wagons").value = state.map.wagons_set ? state.map.wagons : "";
  $("map-wagons").placeholder = `${state.map.wagons} (the rule set's)`;
}

function svg() { return $("board").querySelector("svg"); }
function cityGroup(name) { return [...svg().querySelectorAll(".city")].find((g) => g.dataset.city === name); }
function routeGroups(entry) {
  const route = state.routes.find((r) => r.entry === entry);
  if (!route) return [];
  return [...svg().querySelectorAll(".route")].filter((g) => route.ids.includes(g.dataset.route));
}
function routeEntryOf(id) { const r = state.routes.find((r) => r.ids.includes(id)); return r ? r.entry : null; }

function decorate() {
  for (const city of state.cities) {
    const group = cityGroup(city.name);
    if (!group) continue;
    group.classList.toggle("ticketless", city.ticketless);
    group.classList.toggle("pinned", city.pinned);
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = city.name + (city.ticketless ? " (no ticket names it)" : "") + (city.pinned ? " (pinned)" : "");
    group.appendChild(title);
  }
  for (const problem of state.problems) {
    const element = problem.element;
    if (!element) continue;
    if (element.kind === "city") cityGroup(element.name)?.classList.add("problem");
    if (element.kind === "route") routeGroups(element.entry).forEach((g) => g.classList.add("problem"));
  }
  if (picked) cityGroup(picked)?.classList.add("picked");
  if (heat && $("heatmap").checked) {
    for (const group of svg().querySelectorAll(".route")) {
      const rate = heat.rates[group.dataset.route];
      group.querySelectorAll(".car").forEach((car) => {
        car.style.fill = rate === undefined ? "#d9d9d9" : heatColor(rate);
        if (rate === undefined) car.style.opacity = 0.4;
      });
    }
  }
}

// The claim rate (0..1) on the scale `ttr preview` uses, by its nearest step.
function heatColor(rate) {
  const steps = heat.colors;
  return steps[Math.round(Math.min(1, Math.max(0, rate)) * (steps.length - 1))];
}

function showProblems() {
  const list = $("problems");
  list.replaceChildren();
  for (const problem of state.problems) {
    const item = document.createElement("li");
    item.className = problem.level;
    const code = document.createElement("span");
    code.className = "code"; code.textContent = problem.code;
    item.append(code, `line ${problem.line}: ${problem.message}`);
    item.addEventListener("click", () => {
      if (problem.element) select(problem.element);
      list.querySelectorAll("li").forEach((li) => li.classList.remove("selected"));
      item.classList.add("selected");
    });
    list.appendChild(item);
  }
  if (!state.problems.length) {
    const item = document.createElement("p");
    item.className = "muted"; item.textContent = "No problems: ttr validate is clean.";
    list.appendChild(item);
  }
  $("fix").hidden = !state.fixable;
  $("fix").textContent = `Fix ${state.fixable} ticket value${state.fixable === 1 ? "" : "s"} (R2)`;
}

function showTickets() {
  const list = $("tickets");
  list.replaceChildren();
  for (const ticket of state.tickets) {
    const item = document.createElement("li");
    const value = document.createElement("span");
    value.className = "value"; value.textContent = ticket.value;
    item.append(value, `${ticket.a} – ${ticket.b}` + (ticket.long ? " (long)" : ""));
    for (const problem of state.problems) {
      if (problem.element && problem.element.kind === "ticket" && problem.element.entry === ticket.entry) {
        const warn = document.createElement("span");
        warn.className = "warn"; warn.textContent = problem.code; warn.title = problem.message;
        item.appendChild(warn);
      }
    }
    const remove = document.createElement("button");
    remove.className = "remove"; remove.textContent = "×"; remove.title = "Delete this ticket";
    remove.addEventListener("click", () => edit("delete_ticket", { entry: ticket.entry }));
    item.appendChild(remove);
    item.addEventListener("mouseenter", () => lightPath(ticket.a, ticket.b));
    item.addEventListener("mouseleave", () => svg().querySelectorAll(".lit").forEach((g) => g.classList.remove("lit")));
    if (selected && selected.kind === "ticket" && selected.entry === ticket.entry) item.classList.add("selected");
    list.appendChild(item);
  }
  const lonely = state.cities.filter((c) => c.ticketless).map((c) => c.name);
  $("ticketless").textContent = lonely.length ? "No ticket names: " + lonely.join(", ") : "";
}

async function lightPath(a, b) {
  try {
    const found = await api(`path?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
    for (let i = 0; i + 1 < found.cities.length; i++) {
      const pair = [found.cities[i], found.cities[i + 1]];
      for (const g of svg().querySelectorAll(".route")) {
        if (pair.includes(g.dataset.a) && pair.includes(g.dataset.b)) g.classList.add("lit");
      }
    }
  } catch (error) { /* a city without routes: nothing to light */ }
}

// ------------------------------------------------------------ selection

function select(element) {
  selected = element;
  if (element && element.kind === "ticket") openTab("tickets");
  else if (element) openTab("element");
  showSelection();
  showTickets();
}

function showSelection() {
  svg().querySelectorAll(".selected").forEach((g) => g.classList.remove("selected"));
  $("city-editor").hidden = $("route-editor").hidden = true;
  $("nothing-selected").hidden = false;
  $("delete-confirm").hidden = true;
  if (!selected) return;
  if (selected.kind === "city") {
    const city = state.cities.find((c) => c.name === selected.name);
    if (!city) { selected = null; return; }
    cityGroup(city.name)?.classList.add("selected");
    $("city-editor").hidden = false; $("nothing-selected").hidden = true;
    $("rename").value = city.name;
    const routes = state.routes.filter((r) => r.a === city.name || r.b === city.name).length;
    const pos = city.position ? city.position.map((v) => v.toFixed(4)).join(", ") : "no position";
    $("city-facts").textContent = `${pos}; ${routes} route${routes === 1 ? "" : "s"}` + (city.ticketless ? "; no ticket names it" : "") + (city.pinned ? "; pinned" : "");
  } else if (selected.kind === "route") {
    const route = state.routes.find((r) => r.entry === selected.entry);
    if (!route) { selected = null; return; }
    // Drawn on top, so a route under another shows it is the one selected.
    routeGroups(route.entry).forEach((g) => { g.classList.add("selected"); g.parentNode.appendChild(g); });
    $("route-editor").hidden = false; $("nothing-selected").hidden = true;
    $("route-title").textContent = `Route ${route.a} – ${route.b}`;
    $("route-length").value = route.length ?? "";
    $("route-color").value = route.colors[0];
    $("route-double").checked = route.colors.length > 1;
    $("route-color2").value = route.colors[1] || route.colors[0];
    $("route-tunnel").checked = route.tunnel;
    $("route-ferry").value = route.ferry;
    $("straighten").hidden = !route.bends.length;
    showBendHandles(route);
  }
}

// A laid-out board's selected route shows its bend points as handles to drag.
function showBendHandles(route) {
  if (!state.map.laid_out) return;
  const ns = "http://www.w3.org/2000/svg";
  const layer = document.createElementNS(ns, "g");
  layer.setAttribute("class", "bend-handles");
  route.bends.forEach(([x, y], index) => {
    const handle = document.createElementNS(ns, "circle");
    handle.setAttribute("class", "bend-handle");
    handle.setAttribute("cx", x); handle.setAttribute("cy", y); handle.setAttribute("r", 9);
    handle.dataset.index = index;
    const title = document.createElementNS(ns, "title");
    title.textContent = `bend point ${index + 1}: drag it (Alt+click removes it)`;
    handle.appendChild(title);
    layer.appendChild(handle);
  });
  svg().appendChild(layer);
}

function setBends(route, points, note) {
  return edit("set_bends", { a: route.a, b: route.b, points }).then((answer) => { if (answer) say(note); });
}


function openTab(name) {
  document.querySelectorAll(".tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  document.querySelectorAll(".tab").forEach((t) => { t.hidden = t.id !== "tab-" + name; });
  if (name === "numbers") loadNumbers();
}

// ------------------------------------------------------------ the board

function svgPoint(event) {
  const board = svg();
  const point = board.createSVGPoint();
  point.x = event.clientX; point.y = event.clientY;
  const local = point.matrixTransform(board.getScreenCTM().inverse());
  return [Math.round(local.x * 10) / 10, Math.round(local.y * 10) / 10];
}

let drag = null;

$("board").addEventListener("mousedown", (event) => {
  // The board takes the keys: a text box being typed in lets go of them.
  if (!$("city-form").contains(document.activeElement)) {
    document.activeElement?.blur?.();
    $("board").focus({ preventScroll: true });
  }
  const handle = event.target.closest(".bend-handle");
  if (handle && event.button === 0 && selected?.kind === "route") {
    const route = state.routes.find((r) => r.entry === selected.entry);
    if (event.altKey) {
      const points = route.bends.filter((_, i) => i !== Number(handle.dataset.index));
      setBends(route, points, `${route.a} – ${route.b}: bend point removed.`);
    } else {
      drag = { bend: Number(handle.dataset.index), route, group: handle, start: svgPoint(event), moved: false };
    }
    suppressNextClick = true;
    event.preventDefault();
    return;
  }
  const city = event.target.closest(".city");
  if (tool === "select" && city && event.button === 0) {
    drag = { name: city.dataset.city, group: city, start: svgPoint(event), moved: false };
    event.preventDefault();
  }
});

window.addEventListener("mousemove", (event) => {
  if (!drag) return;
  const [x, y] = svgPoint(event);
  const dx = x - drag.start[0], dy = y - drag.start[1];
  if (Math.hypot(dx, dy) > 4) drag.moved = true;
  drag.group.setAttribute("transform", `translate(${dx} ${dy})`);
  if (drag.bend !== undefined) {  // the route follows the handle while dragged
    for (const group of routeGroups(drag.route.entry)) group.style.opacity = 0.45;
  } else if (drag.name !== undefined) {
    followCity(drag.name, dx, dy);
  }
});

// A dragged city's routes follow it: each turned and stretched about its other
// city (as the saved bend points are), until the board is drawn again.
function cityCentre(name) {
  const circle = cityGroup(name)?.querySelector("circle");
  return circle ? [Number(circle.getAttribute("cx")), Number(circle.getAttribute("cy"))] : null;
}
function followCity(name, dx, dy) {
  const moved = cityCentre(name);
  if (!moved) return;
  for (const group of svg().querySelectorAll(".route")) {
    if (group.dataset.a !== name && group.dataset.b !== name) continue;
    const pivot = cityCentre(group.dataset.a === name ? group.dataset.b : group.dataset.a);
    if (!pivot) continue;
    const u = [moved[0] - pivot[0], moved[1] - pivot[1]];
    const v = [u[0] + dx, u[1] + dy];
    const length = Math.hypot(...u);
    if (!length) continue;
    const scale = Math.hypot(...v) / length;
    const turn = (Math.atan2(v[1], v[0]) - Math.atan2(u[1], u[0])) * 180 / Math.PI;
    group.setAttribute("transform",
      `translate(${pivot[0]} ${pivot[1]}) rotate(${turn}) scale(${scale}) translate(${-pivot[0]} ${-pivot[1]})`);
  }
}

window.addEventListener("mouseup", (event) => {
  if (!drag) return;
  const done = drag; drag = null;
  if (done.bend !== undefined) {
    if (!done.moved) { done.group.removeAttribute("transform"); return; }
    const points = done.route.bends.map((p, i) => (i === done.bend ? svgPoint(event) : p));
    setBends(done.route, points, `${done.route.a} – ${done.route.b}: bend point ${done.bend + 1} moved.`);
    return;
  }
  if (done.moved) {
    edit("move_city", { name: done.name, at: svgPoint(event) });
    done.suppressClick = true;
    suppressNextClick = true;
  } else {
    done.group.removeAttribute("transform");
    followCity(done.name, 0, 0);
  }
});

let suppressNextClick = false;

$("board").addEventListener("click", (event) => {
  if (suppressNextClick) { suppressNextClick = false; return; }
  if (!svg()) return;
  const city = event.target.closest(".city");
  const route = event.target.closest(".route");
  const at = svgPoint(event);
  if (tool === "select") {
    const top = underPointer(event);
    if (!top.length) { select(null); return; }
    // Cars over cars: the first click takes the topmost, a click again on the
    // spot the next thing under it, round them all (cities first, then routes
    // in the file's order).
    const here = [...top].sort(elementOrder);
    const at = here.findIndex((e) => sameElement(e, selected));
    const next = at < 0 ? top[0] : here[(at + 1) % here.length];
    select(next);
    if (here.length > 1) {
      const which = here.findIndex((e) => sameElement(e, next));
      say(`${describeElement(next)} selected (${which + 1} of ${here.length} here: ` +
        `${here.map(describeElement).join(", ")}). Click again for the next.`);
    }
  } else if (tool === "city") {
    if (city) { select({ kind: "city", name: city.dataset.city }); return; }
    askCityName(event, at);
  } else if (tool === "route" || tool === "ticket") {
    if (!city) { say("Click a city."); return; }
    const name = city.dataset.city;
    if (!picked) { picked = name; city.classList.add("picked"); say(`${name} – … click the other city (Escape cancels)`); return; }
    if (picked === name) { cancel(); return; }
    const first = picked; picked = null;
    if (tool === "route") addRoute(first, name); else addTicket(first, name);
  } else if (tool === "bend") {
    if (!selected || selected.kind !== "route") { if (route) select({ kind: "route", entry: routeEntryOf(route.dataset.route) }); else say("Select a route first, then click where it should bend."); return; }
    const r = state.routes.find((r) => r.entry === selected.entry);
    const points = event.shiftKey ? [...r.bends, at] : [at];
    setBends(r, points, `${r.a} – ${r.b} bends through ${points.length} point(s); Shift+click adds one more, drag a point to move it.`);
  }
});

// Every city and route under the pointer, the topmost first (cities before routes).
function underPointer(event) {
  const found = [];
  for (const element of document.elementsFromPoint(event.clientX, event.clientY)) {
    const city = element.closest?.(".city");
    const route = element.closest?.(".route");
    const item = city ? { kind: "city", name: city.dataset.city }
      : route ? { kind: "route", entry: routeEntryOf(route.dataset.route) } : null;
    if (item && (item.kind === "city" || item.entry !== null) && !found.some((f) => sameElement(f, item))) found.push(item);
  }
  return found.sort((a, b) => (a.kind === "city" ? 0 : 1) - (b.kind === "city" ? 0 : 1));
}
function elementOrder(a, b) {
  if (a.kind !== b.kind) return a.kind === "city" ? -1 : 1;
  return a.kind === "city" ? a.name.localeCompare(b.name) : a.entry - b.entry;
}
function sameElement(a, b) {
  return !!a && !!b && a.kind === b.kind && (a.kind === "city" ? a.name === b.name : a.entry === b.entry);
}
function describeElement(element) {
  if (element.kind === "city") return element.name;
  const route = state.routes.find((r) => r.entry === element.entry);
  return route ? `${route.a} – ${route.b}` : "a route";
}

async function addRoute(a, b) {
  let suggestion = { length: 2, colors: ["gray"] };
  try { suggestion = await api(`suggest?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`); } catch (error) { say(error.message, true); }
  const answer = await edit("add_route", { a, b, length: suggestion.length, colors: [suggestion.colors[0]] });
  if (answer) {
    const route = answer.routes[answer.routes.length - 1];
    select({ kind: "route", entry: route.entry });
    say(`Added ${a} – ${b}: ${suggestion.length} ${suggestion.colors[0]} (suggested from the distance and the colour balance). Change it on the right.`);
  }
}

async function addTicket(a, b) {
  const answer = await edit("add_ticket", { a, b, long: $("ticket-long").checked });
  if (answer) {
    const ticket = answer.tickets[answer.tickets.length - 1];
    say(`Ticket ${a} – ${b}: ${ticket.value} (R2).`);
    select({ kind: "ticket", entry: ticket.entry });
  }
}

function askCityName(event, at) {
  const form = $("city-form");
  const area = $("board-area").getBoundingClientRect();
  form.style.left = `${event.clientX - area.left + 8}px`;
  form.style.top = `${event.clientY - area.top + 8}px`;
  form.hidden = false;
  form.dataset.at = JSON.stringify(at);
  $("city-name").value = "";
  $("city-name").focus();
}

$("city-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("city-name").value.trim();
  if (!name) return;
  const at = JSON.parse($("city-form").dataset.at);
  $("city-form").hidden = true;
  const answer = await edit("add_city", { name, at });
  if (answer) say(`Added ${name}.`);
});
$("city-form").querySelector(".cancel").addEventListener("click", () => cancel());

// ------------------------------------------------------------ by name

$("place-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const query = $("place-name").value.trim();
  if (!query) return;
  let found;
  try { found = await api("places?q=" + encodeURIComponent(query)); } catch (error) { say(error.message, true); return; }
  const choices = $("place-choices");
  choices.replaceChildren();
  if (!found.places.length) { say(`No place called ${query} in the gazetteer: click the board to place it by hand (C).`, true); return; }
  // One place, near the map: added. Several, or one far from the map's cities: a choice.
  if (found.places.length === 1 && found.places[0].far_km === null) { addPlace(found.places[0]); return; }
  for (const place of found.places) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${place.name}, ${place.country}: ${place.where} (${place.lat.toFixed(2)}, ${place.lon.toFixed(2)}; ${place.population.toLocaleString()} people)`;
    if (place.far_km !== null) {
      button.classList.add("far");
      button.textContent += ` — ${place.far_km.toLocaleString()} km from the map's cities`;
    }
    button.addEventListener("click", () => addPlace(place));
    item.appendChild(button);
    choices.appendChild(item);
  }
  choices.hidden = false;
  const far = found.places.every((p) => p.far_km !== null);
  if (!found.named) say(`No place called ${query} in the gazetteer (towns of 15,000 people or more): the places listed have a name that starts so. To place it by hand, click the board (C).`, true);
  else if (far) say(`No place called ${query} near the map's cities: pick one only if you mean it (Escape cancels).`, true);
  else say(`${found.places.length} places called ${query}: pick one (the nearest to the map first).`);
});

async function addPlace(place) {
  $("place-choices").hidden = true;
  const answer = await edit("add_city", { name: place.board_name, place: [place.lat, place.lon] });
  if (answer) {
    const far = place.far_km !== null ? ` — ${place.far_km.toLocaleString()} km from the map's other cities` : "";
    say(`Added ${place.board_name} (${place.country}, ${place.where}) at its real position${far}.`, far !== "");
    $("place-name").value = ""; $("place-name").blur();
  }
}

// ------------------------------------------------------------ the side panel

$("city-editor").addEventListener("submit", (event) => {
  event.preventDefault();
  const next = $("rename").value.trim();
  if (selected && next && next !== selected.name) {
    const old = selected.name;
    edit("rename_city", { old, new: next }).then((answer) => { if (answer) select({ kind: "city", name: next }); });
  }
});

$("delete-city").addEventListener("click", () => {
  const name = selected.name;
  const routes = state.routes.filter((r) => r.a === name || r.b === name);
  const tickets = state.tickets.filter((t) => t.a === name || t.b === name);
  const parts = [`${name}`];
  if (routes.length) parts.push(`${routes.length} route${routes.length === 1 ? "" : "s"} (${routes.map((r) => r.a === name ? r.b : r.a).join(", ")})`);
  if (tickets.length) parts.push(`${tickets.length} ticket${tickets.length === 1 ? "" : "s"}`);
  $("delete-what").textContent = "This deletes " + parts.join(", ") + ".";
  $("delete-confirm").hidden = false;
  $("delete-yes").focus();
});
$("delete-yes").addEventListener("click", () => { const name = selected.name; selected = null; edit("delete_city", { name }); });
$("delete-no").addEventListener("click", () => { $("delete-confirm").hidden = true; });

for (const id of ["route-color", "route-color2"]) {
  for (const color of COLORS) {
    const option = document.createElement("option");
    option.value = option.textContent = color;
    $(id).appendChild(option);
  }
}

function routeFields() {
  const colors = [$("route-color").value];
  if ($("route-double").checked) colors.push($("route-color2").value);
  return {
    entry: selected.entry, length: Number($("route-length").value), colors,
    tunnel: $("route-tunnel").checked, ferry: Number($("route-ferry").value) || 0,
  };
}

$("route-editor").addEventListener("submit", (event) => { event.preventDefault(); edit("change_route", routeFields()); });
// A route made double: its second track in the colour that keeps the board balanced.
$("route-double").addEventListener("change", async () => {
  if (!selected || selected.kind !== "route") return;
  const route = state.routes.find((r) => r.entry === selected.entry);
  if ($("route-double").checked && route && route.colors.length === 1) {
    try {
      const found = await api(`suggest?a=${encodeURIComponent(route.a)}&b=${encodeURIComponent(route.b)}&first=${route.colors[0]}`);
      $("route-color2").value = found.second;
    } catch (error) { say(error.message, true); return; }
  }
  edit("change_route", routeFields());
});
for (const id of ["route-tunnel", "route-color", "route-color2"]) {
  $(id).addEventListener("change", () => { if (selected && selected.kind === "route") edit("change_route", routeFields()); });
}
$("delete-route").addEventListener("click", () => { const entry = selected.entry; selected = null; edit("delete_route", { entry }); });
$("fix").addEventListener("click", () => edit("fix", {}));

document.querySelectorAll(".tabs button").forEach((button) => button.addEventListener("click", () => openTab(button.dataset.tab)));
document.querySelectorAll(".tool").forEach((button) => button.addEventListener("click", () => setTool(button.dataset.tool)));

function setTool(name) {
  cancel();
  tool = name;
  document.querySelectorAll(".tool").forEach((b) => b.classList.toggle("active", b.dataset.tool === name));
  const hints = {
    select: "Click to select, drag a city to move it.",
    city: "Click the board where the city goes, or type its name above.",
    route: "Click two cities to join them.",
    ticket: "Click two cities for a ticket between them.",
    bend: "Select a route, then click where it should bend (Shift+click: one more point).",
  };
  say(hints[name]);
}

function cancel() {
  picked = null;
  $("city-form").hidden = true;
  $("place-choices").hidden = true;
  $("delete-confirm").hidden = true;
  if (drag) { drag.group.removeAttribute("transform"); drag = null; }
  svg()?.querySelectorAll(".picked").forEach((g) => g.classList.remove("picked"));
  say("");
}

// ------------------------------------------------------------ history, saving

$("undo").addEventListener("click", () => send("undo", {}));
$("redo").addEventListener("click", () => send("redo", {}));
$("save").addEventListener("click", () => save(false));
async function save(anyway) {
  const answer = await send("save", anyway === true ? { drop_disk_change: true } : {});
  if (answer) { $("saved-note").textContent = "saved " + new Date().toLocaleTimeString(); $("banner").hidden = true; }
}
function conflict(message) {
  $("banner-text").textContent = message;
  $("reload").hidden = false;
  $("save-anyway").hidden = true;
  $("banner").hidden = false;
}
// A save that would undo the change on disk a reload brought in: said first.
function drops(message) {
  $("banner-text").textContent = message;
  $("reload").hidden = true;
  $("save-anyway").hidden = false;
  $("banner").hidden = false;
}
$("save-anyway").addEventListener("click", () => save(true));
$("reload").addEventListener("click", async () => { const answer = await send("reload", {}); if (answer) { $("banner").hidden = true; say(answer.said); } });
$("banner-close").addEventListener("click", () => { $("banner").hidden = true; });

document.addEventListener("keydown", (event) => {
  const active = document.activeElement;
  const typing = active && (["SELECT", "TEXTAREA"].includes(active.tagName) ||
    (active.tagName === "INPUT" && !["checkbox", "radio", "button", "file"].includes(active.type)));
  if (event.key === "Escape") { cancel(); document.activeElement?.blur(); return; }
  const mod = event.ctrlKey || event.metaKey;
  if (mod && event.key.toLowerCase() === "s") { event.preventDefault(); save(false); return; }
  if (mod && event.key.toLowerCase() === "z" && !typing) {
    event.preventDefault(); send(event.shiftKey ? "redo" : "undo", {}); return;
  }
  if (mod && event.key.toLowerCase() === "y" && !typing) { event.preventDefault(); send("redo", {}); return; }
  if (typing || mod || event.altKey) return;
  const tools = { v: "select", c: "city", r: "route", t: "ticket", b: "bend" };
  if (tools[event.key.toLowerCase()]) { setTool(tools[event.key.toLowerCase()]); return; }
  if ((event.key === "Delete" || event.key === "Backspace") && selected) {
    if (selected.kind === "route") { const entry = selected.entry; selected = null; edit("delete_route", { entry }); }
    else if (selected.kind === "city") { openTab("element"); $("delete-city").click(); }
    else if (selected.kind === "ticket") { const entry = selected.entry; selected = null; edit("delete_ticket", { entry }); }
  }
});

window.addEventListener("beforeunload", (event) => { if (state && state.dirty) event.preventDefault(); });

// ------------------------------------------------------------ numbers

let numbersTimer = null;
async function loadNumbers() {
  clearTimeout(numbersTimer);
  const players = $("players").value;
  let numbers;
  try { numbers = await api("numbers?players=" + players); } catch (error) { say(error.message, true); return; }
  if (players !== $("players").value) return; // a newer table size was asked for
  const table = $("numbers");
  table.replaceChildren();
  // The nearest published boards that seat as many players, nearest first.
  const names = ["this map", ...numbers.boards.map((b) => `${b.name} (${b.rules})`)];
  const rows = [
    ["wagons in play / claimable spaces", "wagon_ratio"],
    ["claimable spaces", "claimable_spaces"],
    ["colour spread (most / fewest spaces)", "color_spread"],
    ["deck number (held tickets completed, predicted)", "deck_number"],
  ];
  const head = table.insertRow();
  for (const text of ["", ...names]) { const th = document.createElement("th"); th.textContent = text; head.appendChild(th); }
  const columns = [numbers.map, ...numbers.boards.map((b) => numbers.published[b.id])];
  for (const [label, key] of rows) {
    const row = table.insertRow();
    row.insertCell().textContent = label;
    for (const column of columns) row.insertCell().textContent = column && column[key] !== null && column[key] !== undefined ? column[key] : "–";
  }
  // Crowding counted in play (greedy games in the background), never a model:
  // the count a game with its 95 % interval, or how far the counting is.
  const counts = [numbers.crowding.map, ...numbers.boards.map((b) => numbers.crowding[b.id])];
  const row = table.insertRow();
  row.className = "crowding";
  const label = row.insertCell();
  label.textContent = "crowding in play (connections taken a game; 95 % interval)";
  label.title = "Connections a game takes from players who needed them (on the cheapest path of a ticket they hold, closed by the others' tracks), counted in greedy games as `ttr tickets --games` counts them: docs/tickets.md";
  for (const count of counts) crowdingCell(row.insertCell(), count);
  if (counts.some((count) => count && ["waiting", "counting"].includes(count.state)) && !$("tab-numbers").hidden) {
    numbersTimer = setTimeout(loadNumbers, 1000);
  }
  const colours = numbers.map ? numbers.map.colors : {};
  for (const color of Object.keys(colours)) {
    const row = table.insertRow();
    row.insertCell().textContent = `spaces: ${color}`;
    for (const column of columns) row.insertCell().textContent = column && column.colors[color] !== undefined ? column.colors[color] : "–";
  }
  // What of each is not modelled: the numbers are theirs as the engine plays them.
  const without = [numbers.not_modelled, ...numbers.boards.map((b) => b.not_modelled)];
  if (without.some((list) => list && list.length)) {
    const row = table.insertRow();
    row.className = "not-modelled";
    row.insertCell().textContent = "played without";
    for (const list of without) row.insertCell().textContent = list && list.length ? list.join("; ") : "–";
  }
  if (!numbers.map) {
    const row = table.insertRow();
    const cell = row.insertCell(); cell.colSpan = names.length + 1; cell.className = "muted";
    cell.textContent = "This map's numbers appear once it has no errors.";
  }
}
function crowdingCell(cell, count) {
  if (!count) { cell.textContent = "–"; return; }
  if (count.state === "done") {
    cell.textContent = count.per_game.toFixed(1);
    const note = document.createElement("div");
    note.className = "muted";
    note.style.fontSize = "11px";
    note.textContent = `${count.ci95[0].toFixed(1)}–${count.ci95[1].toFixed(1)}, counted in ${count.games} ${count.bots.join(", ")} games`;
    cell.appendChild(note);
  } else if (count.state === "failed") {
    cell.textContent = "not counted: " + count.error;
  } else {
    cell.textContent = count.state === "waiting" ? "waiting to be counted" : `counting: ${count.played} of ${count.games} games`;
    cell.className = "muted";
  }
}
$("players").addEventListener("change", loadNumbers);

// ------------------------------------------------------------ play-test

let polling = null;
$("playtest-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const bots = [...$("bots").selectedOptions].map((o) => o.value);
  try {
    await api("playtest", { bots: bots.length ? bots : ["greedy"], players: Number($("pt-players").value), games: Number($("pt-games").value) });
  } catch (error) { $("pt-status").textContent = error.message; return; }
  $("pt-result").hidden = true; $("pt-stop").hidden = false; $("pt-start").disabled = true;
  $("pt-progress").hidden = false;
  poll();
});
$("pt-stop").addEventListener("click", async () => { try { await api("playtest/stop", {}); } catch (error) { say(error.message, true); } });
$("heatmap").addEventListener("change", () => show(state));

async function poll() {
  clearTimeout(polling);
  let status;
  try { status = await api("playtest"); } catch (error) { $("pt-status").textContent = error.message; return; }
  $("pt-progress").max = status.games || 1;
  $("pt-progress").value = status.played || 0;
  $("pt-status").textContent = `${status.state}: ${status.played} of ${status.games} games` + (status.phase && status.state === "running" ? ` (${status.phase})` : "") + (status.error ? ` — ${status.error}` : "");
  if (status.state === "running") { polling = setTimeout(poll, 300); return; }
  $("pt-stop").hidden = true; $("pt-start").disabled = false;
  if (status.state === "done") showResult(status.result);
}

function showResult(result) {
  $("pt-result").hidden = false;
  const findings = $("findings");
  findings.replaceChildren();
  for (const finding of result.findings) {
    const item = document.createElement("li");
    const title = document.createElement("strong");
    title.textContent = `${finding.severity}: ${finding.title}`;
    item.append(title, document.createElement("br"), finding.suggestion);
    findings.appendChild(item);
  }
  for (const line of (result.summary || []).filter((l) => !l.startsWith("  [") && !l.startsWith("      try:") && !l.startsWith("findings ("))) {
    const item = document.createElement("li"); item.textContent = line.trim(); findings.appendChild(item);
  }
  if (!findings.children.length) { const item = document.createElement("li"); item.textContent = "No findings."; findings.appendChild(item); }
  const table = $("winrates");
  table.replaceChildren();
  const head = table.insertRow();
  for (const text of ["", "win rate", "95 % interval"]) { const th = document.createElement("th"); th.textContent = text; head.appendChild(th); }
  const pct = (v) => `${(100 * v).toFixed(0)} %`;
  for (const [name, rate] of Object.entries(result.by_bot)) {
    const row = table.insertRow();
    row.insertCell().textContent = name; row.insertCell().textContent = pct(rate.rate);
    row.insertCell().textContent = `${pct(rate.ci95[0])}–${pct(rate.ci95[1])}`;
  }
  result.by_seat.forEach((rate, seat) => {
    const row = table.insertRow();
    row.insertCell().textContent = `seat ${seat + 1}`; row.insertCell().textContent = pct(rate.rate);
    row.insertCell().textContent = `${pct(rate.ci95[0])}–${pct(rate.ci95[1])}`;
  });
  heat = { rates: result.heatmap, colors: result.heat_colors };
  $("heat-scale").style.background = `linear-gradient(to right, ${result.heat_colors.join(", ")})`;
  show(state);
}

// ------------------------------------------------------------ files

document.querySelectorAll("[data-download]").forEach((button) => button.addEventListener("click", async () => {
  const response = await fetch("/api/" + button.dataset.download, { headers: { "X-Edit-Token": token } });
  if (!response.ok) { say((await response.json()).error, true); return; }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = state.file.replace(/\.ya?ml$/, "") + "-" + button.dataset.download.split("/").pop();
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 5000);
}));

$("import-file").addEventListener("change", async () => {
  const files = [...$("import-file").files];
  if (!files.length) return;
  const texts = await Promise.all(files.map((f) => f.text()));
  const answer = await send("import", { files: texts });
  if (answer) say(`Imported ${files.map((f) => f.name).join(", ")}.`);
  $("import-file").value = "";
});

$("relayout").addEventListener("click", async () => {
  $("relayout").disabled = true;
  say("Laying the board out…");
  const answer = await send("layout", {});
  $("relayout").disabled = false;
  if (answer) say(answer.said);
});

$("straighten").addEventListener("click", () => {
  const route = state.routes.find((r) => r.entry === selected?.entry);
  if (route) setBends(route, [], `${route.a} – ${route.b} is straight again.`);
});

$("settings-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const wagons = $("map-wagons").value.trim();
  document.activeElement?.blur();
  edit("settings", {
    name: $("map-name").value.trim(), id: $("map-id").value.trim(), rules: $("map-rules").value,
    wagons: wagons === "" ? null : Number(wagons),
  }).then((answer) => { if (answer) say("Map settings changed."); });
});

// ------------------------------------------------------------ start

(async function start() {
  if (!token) { say("This page needs the link ttr edit printed (with its #token=…).", true); return; }
  await send("state");
  setTool("select");
  for (const name of state ? state.bots : []) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    option.selected = name === "greedy" || name === "long-route";
    $("bots").appendChild(option);
  }
})();
