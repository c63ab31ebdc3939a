// The page of `sniff-rules serve`. Everything it knows comes from the server's snapshot: the seat's view
// (the library's seat-view JSON), the seat kinds and the layout drawn; the bots a seat may be given come from
// GET /api/bots. Each legal move arrives as data (kind, tile, point) beside its text: the page reads the data
// and sends the text back, and never takes a move's text apart.
"use strict";

// A seat is its table id and token. They arrive in an invite link's fragment (#table=...&token=...), which no
// browser sends to a server, and stay in the fragment and in sessionStorage, so a reload resumes the seat.
const SEAT_KEY = "sniff-seat";
const INVITES_KEY = "sniff-invites";
let botChoices = { bots: [], default: null }; // what GET /api/bots answers

const $ = (id) => document.getElementById(id);
let seat = readSeat();      // {table, token} or null
let shown = null;          // the snapshot on screen
let selected = null;       // the hand tile chosen, e.g. "[1|4]"
let socket = null;
let pendingClick = null;   // the time of the click whose move is on its way
// The page keeps no record of what it drew. It announces each drawing as a DOM event instead, for whatever embeds
// or tests the page: "sniff:shown" (detail {version, status}) for every snapshot, "sniff:move-shown" (detail {ms},
// click to painted) for each of the person's moves. Nothing grows however long the page stays open.
function announce(name, detail) { document.dispatchEvent(new CustomEvent(name, { detail })); }

function readSeat() {
  const found = new URLSearchParams(location.hash.slice(1));
  if (found.get("table") && found.get("token")) {
    const fromLink = { table: found.get("table"), token: found.get("token"), joining: true };
    sessionStorage.setItem(SEAT_KEY, JSON.stringify(fromLink));
    return fromLink;
  }
  try { return JSON.parse(sessionStorage.getItem(SEAT_KEY)); } catch (err) { return null; }
}

function keepSeat(table, token) {
  seat = { table, token };
  sessionStorage.setItem(SEAT_KEY, JSON.stringify(seat));
  history.replaceState(null, "", `#table=${encodeURIComponent(table)}&token=${encodeURIComponent(token)}`);
}

// ------------------------------------------------------------------ talking to the server

async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (seat) { headers["x-sniff-table"] = seat.table; headers["x-sniff-token"] = seat.token; }
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  // Every refusal of the server is JSON; anything else (a proxy's page, a dropped connection) still gets a message.
  const data = await response.json().catch(() => ({ message: `the server answered ${response.status} ${response.statusText}` }));
  if (!response.ok) throw Object.assign(new Error(data.message || response.statusText), { data, status: response.status });
  return data;
}

function listen() {
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/api/updates`);
  socket = mine;
  mine.onopen = () => mine.send(JSON.stringify({ table: seat.table, token: seat.token }));
  mine.onmessage = (message) => render(JSON.parse(message.data));
  mine.onclose = (closed) => {
    if (socket !== mine) return;
    socket = null;
    if (closed.code === 4404 || closed.code === 4410) { forget("This table has ended on the server."); return; }
    // A dropped connection (a restart, a network change): the seat is resumed once the server answers again.
    setTimeout(() => { if (seat && !socket) listen(); }, 1000);
  };
}

async function start(seats) {
  if (seat) { try { await api("POST", "/api/leave"); } catch (err) { /* it may have ended */ } }
  seat = null;
  const data = await api("POST", "/api/tables", { seats });
  keepSeat(data.table, data.token);
  sessionStorage.setItem(INVITES_KEY, JSON.stringify(data.invites));
  shown = null;
  $("log").textContent = "";
  render(data.snapshot);
  listen();
}

function forget(why) {
  seat = null;
  sessionStorage.removeItem(SEAT_KEY);
  sessionStorage.removeItem(INVITES_KEY);
  history.replaceState(null, "", location.pathname);
  if (socket) { const old = socket; socket = null; old.close(); }
  shown = null;
  $("game").hidden = true;
  $("setup").hidden = false;
  document.body.dataset.status = "setup";
  $("status").textContent = why;
}

async function play(text, clickedAt) {
  if (!shown) return;
  pendingClick = clickedAt === undefined ? null : clickedAt;
  try {
    const data = await api("POST", "/api/move", { move: text, version: shown.version });
    $("typed").value = "";
    render(data.snapshot);
  } catch (err) {
    pendingClick = null;
    $("message").textContent = err.message;
    if (err.data && (err.data.error === "no-table" || err.data.error === "not-your-seat")) forget(err.message);
    else if (err.data && err.data.error === "stale") refresh();
  }
}

async function refresh() {
  try { render((await api("GET", "/api/table")).snapshot); } catch (err) { forget(err.message); }
}

async function resume() {
  try {
    const joining = seat.joining;
    const data = joining ? await api("POST", "/api/join") : await api("GET", "/api/table");
    if (joining) keepSeat(seat.table, seat.token);
    render(data.snapshot);
    listen();
  } catch (err) { forget(err.message); }
}

// ------------------------------------------------------------------ drawing the snapshot

function nameOf(index) {
  const player = shown.players[index];
  if (index === shown.seat) return "You";
  const partner = shown.view.rules.players === 4 && player.side === shown.players[shown.seat].side;
  return `Seat ${index} (${partner ? "your partner, " : ""}${player.name.toLowerCase()})`;
}

// A seat's name inside a sentence: "you", "seat 1 (greedy bot)".
function inSentence(index) {
  const name = nameOf(index);
  return name[0].toLowerCase() + name.slice(1);
}

// The name of a score, as the terminal says it: "you", "seat 1", and at four players "you and seat 2" or
// "seats 1 and 3". With `capital`, for the start of a sentence.
function sideName(side, capital) {
  const seats = shown.players.filter((player) => player.side === side).map((player) => player.seat);
  let name;
  if (seats.length === 1) name = seats[0] === shown.seat ? "you" : `seat ${seats[0]}`;
  else if (seats.includes(shown.seat)) name = `you and seat ${seats.find((other) => other !== shown.seat)}`;
  else name = `seats ${seats.join(" and ")}`;
  return capital ? name[0].toUpperCase() + name.slice(1) : name;
}

// "win" or "wins" after a side's name: "you win", "you and seat 2 win", "seat 1 wins".
function winsOf(side) {
  const seats = shown.players.filter((player) => player.side === side);
  return seats.length > 1 || seats[0].seat === shown.seat ? "win" : "wins";
}

// What an option would score, said before it is chosen: "end count 15, 15 points" or "end count 9, no points".
function pointsText(option) {
  return `end count ${option.end_count}, ${option.points ? `${option.points} points` : "no points"}`;
}

function el(tag, attributes, text) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) made.setAttribute(key, value);
  if (text !== undefined) made.textContent = text;
  return made;
}

function describe(event) {
  switch (event.event) {
    case "dealt": return [`Round ${event.round} dealt, ${event.hand_size} tiles each; ${inSentence(event.opener)} ${event.opener === shown.seat ? "lead" : "leads"}.`, ""];
    case "placed": return [`${nameOf(event.seat)}: ${event.placement}, end count ${event.end_count}` +
      (event.points ? `, ${event.points} points` : ""), event.points ? "points" : ""];
    case "drew": return [`${nameOf(event.seat)} drew ${event.tile || "a tile"}` + (event.must_place ? " and must place it" : ""), ""];
    case "passed": return [`${nameOf(event.seat)} passed`, ""];
    case "round-ended": return [event.finisher === null ? "The round is blocked." : `${nameOf(event.finisher)} went out.`, "points"];
    case "match-won": return [`${nameOf(event.seat)} reached the target: ${sideName(event.side)} ${winsOf(event.side)} the match.`, "points"];
    default: return [event.event, ""];
  }
}

function render(snap) {
  // A table's version only grows, across rounds too: a move's answer overtaken by the socket's later pushes,
  // even one from the round before, is older than what is shown and never replaces it.
  if (shown && snap.version <= shown.version) return;
  const fresh = !shown || snap.view.round !== shown.view.round;
  const before = fresh ? 0 : shown.view.history.length;
  if (fresh) $("log").textContent = "";
  shown = snap;
  document.body.dataset.status = snap.status;
  const view = snap.view;
  $("setup").hidden = true;
  $("game").hidden = false;
  $("message").textContent = "";
  if (!view.options.some((option) => option.tile === selected)) selected = null;

  for (const event of view.history.slice(before)) {
    const [text, kind] = describe(event);
    const who = event.seat === snap.seat ? "you" : "other";
    const item = el("li", { class: `${who} ${kind} fresh` }, text);
    $("log").prepend(item);
  }
  drawScores(view);
  drawLobby(snap);
  drawLayout(snap);
  drawHand(view);
  drawRoundEnd(view);
  $("status").textContent = statusText(snap);
  Keyboard.drawn(snap); // the moves told, the controls named, the focus back where it was (keyboard.js)
  if (pendingClick !== null) {
    const clicked = pendingClick;
    pendingClick = null;
    requestAnimationFrame(() => announce("sniff:move-shown", { ms: performance.now() - clicked }));
  }
  announce("sniff:shown", { version: snap.version, status: snap.status });
}

function statusText(snap) {
  const view = snap.view;
  switch (snap.status) {
    case "your-turn": {
      if (view.drawn) return `Your turn: place the tile you drew, ${view.drawn}.`;
      if (view.options.every((option) => option.kind !== "place")) {
        return view.options[0].kind === "draw" ? "Your turn: no tile fits, so draw one." : "Your turn: no tile fits and the boneyard is empty, so pass.";
      }
      if (!view.layout.placements.length) return "Your turn: you lead. Choose the tile to lead with.";
      return selected ? `Your turn: choose a marked point to play ${selected} there.` : "Your turn: choose a tile, then where it goes.";
    }
    case "bot-turn": return `${nameOf(view.to_move)} is thinking…`;
    case "person-turn": return `${nameOf(view.to_move)} is to play.`;
    case "round-over": return `Round ${view.round} is over.`;
    case "stopped": return `The match was stopped. ${snap.stopped}`;
    default: {
      const side = view.winner;
      return `${sideName(side, true)} ${winsOf(side)} the match${side === snap.players[snap.seat].side ? "!" : "."}`;
    }
  }
}

function drawScores(view) {
  const body = $("scores").querySelector("tbody");
  body.textContent = "";
  for (const player of shown.players) {
    const row = el("tr", { class: [player.seat === view.to_move && view.phase === "playing" ? "to-move" : "", player.seat === shown.seat ? "you" : ""].join(" ") });
    row.append(el("td", {}, String(player.seat)), el("td", {}, player.name), el("td", {}, sideName(player.side)),
      el("td", {}, String(view.hand_sizes[player.seat])), el("td", {}, String(view.scores[player.side])));
    body.append(row);
  }
  $("scores").classList.toggle("partners", shown.view.rules.players === 4);
  // Folded, the box still says the scores: "Scores: you and seat 2: 35, seats 1 and 3: 20".
  $("scores-summary").textContent = "Scores: " + view.scores.map((score, side) => `${sideName(side)}: ${score}`).join(", ");
  $("round-info").textContent = `Round ${view.round} · target ${view.rules.target} · boneyard ${view.boneyard_size} tiles`;
}

function drawLobby(snap) {
  // The invite links are the creator's alone (they came with the table); everyone sees who has joined.
  let invites = [];
  try { invites = JSON.parse(sessionStorage.getItem(INVITES_KEY)) || []; } catch (err) { invites = []; }
  const list = $("invites");
  list.textContent = "";
  for (const player of snap.players) {
    if (player.kind !== "person") continue;
    const item = el("li", {}, `Seat ${player.seat}: ${player.seat === snap.seat ? "you" : player.joined ? "joined" : "not joined yet"}`);
    const invite = invites.find((one) => one.seat === player.seat);
    if (invite && player.seat !== snap.seat) {
      item.append(" — invite link: ");
      item.append(el("a", { href: invite.link, "data-seat": String(player.seat), class: "invite" }, invite.link));
    }
    list.append(item);
  }
  $("lobby").hidden = snap.players.filter((player) => player.kind === "person").length < 2;
}

function drawLayout(snap) {
  const layout = snap.view.layout;
  const box = $("layout");
  const points = $("open-points");
  points.textContent = "";
  if (snap.layout.svg) {
    const seen = Motion.seen(box); // where each tile is before the new picture replaces it (motion.js)
    // The server's picture is read as SVG, an XML document, and adopted whole: no HTML parser ever sees it.
    const picture = new DOMParser().parseFromString(snap.layout.svg, "image/svg+xml").documentElement;
    box.replaceChildren(document.importNode(picture, true));
    // A small layout is not blown up to the page's width: a tile is drawn at most four times its own size.
    const drawn = box.firstElementChild;
    if (drawn.viewBox && drawn.viewBox.baseVal) drawn.style.maxWidth = `${drawn.viewBox.baseVal.width * 4}px`;
    Motion.glide(box, seen);
  } else {
    box.textContent = "";
    const list = el("ol");
    for (const line of snap.layout.lines) list.append(el("li", { class: line === snap.last_placement ? "last" : "" }, line));
    box.append(list);
  }
  // The open points as buttons too, whether or not the picture is drawn: each is a target to click.
  if (layout.open_points.length) points.append("Open points: ");
  for (const point of layout.open_points) {
    const button = el("button", { type: "button", class: "point-button sniff-point", "data-point": point });
    button.append(el("span", { class: "where" }, point));
    points.append(button);
  }
  const parts = layout.contributions.map((item) => String(item.value));
  // An empty table is said once: by the picture when it is drawn, by this line when only text is shown.
  $("count").textContent = layout.placements.length
    ? `End count ${layout.end_count}` + (parts.length > 1 ? ` = ${parts.join(" + ")}` : "") +
      (layout.end_count % 5 === 0 && layout.end_count ? ` (scores ${layout.end_count})` : "")
    : snap.layout.svg ? "" : "The layout is empty: the opener leads.";
  markTargets();
}

function drawHand(view) {
  const hand = $("hand");
  hand.textContent = "";
  // The hand already holds a tile just drawn (view.drawn names it): each tile is one button.
  for (const tile of view.hand) {
    const playable = view.options.some((option) => option.tile === tile);
    const button = el("button", { type: "button", class: "tile sniff-hand-tile" + (tile === selected ? " selected" : ""), "data-tile": tile }, tile);
    if (!playable) button.disabled = true;
    hand.append(button);
  }
  const only = (what) => view.options.length > 0 && view.options.every((option) => option.kind === what);
  $("draw").hidden = !only("draw");
  $("pass").hidden = !only("pass");
  $("typed-play").disabled = shown.status !== "your-turn";
}

function targetsOf(tile) {
  return shown.view.options.filter((option) => option.kind === "place" && option.tile === tile);
}

function markTargets() {
  const wanted = new Map(selected ? targetsOf(selected).map((option) => [option.point, option]) : []);
  for (const mark of document.querySelectorAll("#layout .sniff-gain, #open-points .gain")) mark.remove();
  for (const point of document.querySelectorAll(".sniff-point")) {
    const option = wanted.get(point.getAttribute("data-point"));
    point.classList.toggle("target", option !== undefined);
    if (!option) { point.removeAttribute("title"); continue; }
    point.setAttribute("title", pointsText(option));
    if (point.tagName === "BUTTON") point.append(el("span", { class: "gain" }, option.points ? `+${option.points} points` : "no points"));
    else if (option.points) markGain(point, option);
  }
}

// A target on the picture that scores shows its points beside its ring, "+15" (the list below says "no points"
// for the others). Sized by the ring, since the picture's units change with the layout's extent.
function markGain(point, option) {
  const ring = point.querySelector("circle");
  if (!ring) return;
  const x = Number(ring.getAttribute("cx"));
  const y = Number(ring.getAttribute("cy"));
  const radius = Number(ring.getAttribute("r"));
  const size = radius * 1.6;
  const top = point.ownerSVGElement.viewBox.baseVal.y;
  const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
  label.setAttribute("class", "sniff-gain");
  label.setAttribute("x", String(x));
  // Above the ring, or below it where the ring sits at the picture's top edge.
  label.setAttribute("y", String(y - radius - size * 1.1 < top ? y + radius + size : y - radius - size * 0.25));
  label.setAttribute("text-anchor", "middle");
  label.setAttribute("font-size", String(size));
  label.setAttribute("stroke-width", String(size / 5));
  label.textContent = `+${option.points}`;
  // Beside the mark, not in it: the mark's own box stays its ring, where a tap lands.
  point.after(label);
}

function drawRoundEnd(view) {
  const last = view.history[view.history.length - 1];
  const ended = view.phase !== "playing" && last && (last.event === "round-ended" || last.event === "match-won");
  $("round-end").hidden = !ended;
  if (!ended) return;
  const settled = last.event === "round-ended" ? last : null;
  const body = $("revealed").querySelector("tbody");
  body.textContent = "";
  last.hands.forEach((hand, seat) => {
    const pips = hand.reduce((sum, tile) => sum + Number(tile[1]) + Number(tile[3]), 0);
    const row = el("tr", { class: seat === shown.seat ? "you" : "" });
    row.append(el("td", {}, nameOf(seat)), el("td", {}, hand.join(" ") || "none: out"), el("td", {}, String(pips)),
      el("td", {}, settled ? String(settled.settlement.deductions[seat]) : "—"));
    body.append(row);
  });
  const after = settled ? settled.scores_after : last.scores;
  const before = settled ? settled.scores_before : null;
  // At the match's end no settlement is made (MATCH-1): the final scores alone.
  $("side-scores").classList.toggle("final", !settled);
  $("revealed").classList.toggle("final", !settled);
  const scores = $("side-scores").querySelector("tbody");
  scores.textContent = "";
  after.forEach((score, side) => {
    const mine = side === shown.players[shown.seat].side;
    const change = before ? score - before[side] : null;
    const row = el("tr", { class: mine ? "you" : "" });
    row.append(el("td", {}, sideName(side, true)), el("td", {}, before ? String(before[side]) : "—"),
      el("td", {}, change === null ? "—" : (change > 0 ? `+${change}` : String(change))), el("td", {}, String(score)));
    scores.append(row);
  });
  if (settled) {
    $("round-end-title").textContent = `Round ${last.round}: ` +
      (last.finisher === null ? "blocked, no one went out." : `${inSentence(last.finisher)} went out.`);
    $("round-end-story").textContent = "Every hand is shown. Each hand's pips, rounded to 5, come off its side's score " +
      "(SETTLE-1, SETTLE-2); the one who went out loses nothing.";
  } else {
    $("round-end-title").textContent = `${statusText(shown)} Final scores: ` +
      after.map((score, side) => `${sideName(side)} ${score}`).join(", ") + ".";
    $("round-end-story").textContent = `${nameOf(last.seat)} reached the target of ${view.rules.target} with ` +
      `${last.placement} in round ${last.round}; the match ends there, with no settlement (MATCH-1). The hands left:`;
  }
  $("next-round").hidden = last.event !== "round-ended";
  $("download-record").hidden = shown.status !== "match-over" && shown.status !== "stopped";
}

// ------------------------------------------------------------------ the person's input

document.addEventListener("click", (event) => {
  if (!shown || shown.status !== "your-turn") return;
  const tile = event.target.closest("[data-tile]");
  const name = tile && tile.getAttribute("data-tile");
  if (tile && !tile.disabled && targetsOf(name).length) {
    const options = targetsOf(name);
    if (options.length === 1 && options[0].point === null) { play(options[0].move, event.timeStamp); return; }
    selected = selected === name ? null : name;
    for (const other of document.querySelectorAll("[data-tile]")) other.classList.toggle("selected", other.getAttribute("data-tile") === selected);
    markTargets();
    $("status").textContent = statusText(shown);
    return;
  }
  const point = event.target.closest(".sniff-point.target");
  if (point && selected) {
    const option = targetsOf(selected).find((candidate) => candidate.point === point.getAttribute("data-point"));
    if (option) play(option.move, event.timeStamp);
  }
});

$("draw").addEventListener("click", (event) => play("draw", event.timeStamp));
$("pass").addEventListener("click", (event) => play("pass", event.timeStamp));
$("typed-form").addEventListener("submit", (event) => { event.preventDefault(); play($("typed").value, event.timeStamp); });
$("next-round").addEventListener("click", async () => {
  try { render((await api("POST", "/api/next-round", { version: shown.version })).snapshot); }
  catch (err) { $("message").textContent = err.message; }
});
$("download-record").addEventListener("click", async () => {
  // The server serves the record once the match is over; it is what `sniff-rules replay FILE` plays.
  try {
    const record = await api("GET", "/api/record");
    const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(record)], { type: "application/json" })), download: "sniff-match.json" });
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (err) { $("message").textContent = err.message; }
});
$("new-match").addEventListener("click", () => {
  if (seat) api("POST", "/api/leave").catch(() => {});
  forget("Choose the players and start a match.");
});

function fillSetup() {
  const players = Number($("players").value);
  const kinds = $("bot-choices");
  // The choices made stay when the list is filled again (more players, the bots' list arriving).
  const chosen = new Map(Array.from(kinds.querySelectorAll(".bot-kind"), (choice) => [choice.dataset.seat, choice.value]));
  kinds.textContent = "";
  for (let index = 0; index < players; index += 1) {
    const label = el("label", {}, `Seat ${index} `);
    const choice = el("select", { "data-seat": String(index), class: "bot-kind" });
    choice.append(el("option", { value: "person" }, index === 0 ? "A person (you take the first)" : "A person (invite)"));
    for (const bot of botChoices.bots) choice.append(el("option", { value: bot.name }, bot.label));
    const kept = chosen.get(String(index));
    const fallback = index === 0 ? "person" : botChoices.default;
    choice.value = kept && (kept === "person" || botChoices.bots.some((bot) => bot.name === kept)) ? kept : fallback;
    label.append(choice);
    kinds.append(label);
  }
}
$("players").addEventListener("change", fillSetup);
$("setup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const players = Number($("players").value);
  const seats = [];
  for (let index = 0; index < players; index += 1) {
    seats.push(document.querySelector(`.bot-kind[data-seat="${index}"]`).value);
  }
  start(seats).catch((err) => { $("status").textContent = err.message; });
});

// At phone width the scores and the plays start folded under their one-line summaries, so the picture and the
// hand fill the screen; wider, they start open beside the picture. A person's own folding is kept until the
// screen crosses the width again (a phone turned on its side).
const PHONE = window.matchMedia("(max-width: 599px)");
function foldForScreen() {
  for (const box of document.querySelectorAll("details.fold")) box.open = !PHONE.matches;
}
PHONE.addEventListener("change", foldForScreen);
foldForScreen();

fillSetup();
api("GET", "/api/bots").then((offered) => { botChoices = offered; fillSetup(); })
  .catch((err) => { $("status").textContent = `The bots could not be listed: ${err.message}`; });
if (seat) resume();
