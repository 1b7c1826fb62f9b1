// The live view (with draw.js's helpers: say, el, html, points): draws each snapshot the companion pushes (server-sent events). Read-only:
// nothing here sends anything back but the page's own GET requests.
"use strict";

let geo = null;
let latest = null;
// A phone (the island at about half size): larger words on larger cards (style.css).
const PHONE = window.matchMedia("(max-width: 600px)");

// The island (bands, pieces, cards) is Haleakala's own drawing (views.js: its live.js,
// GAME_DRAWINGS.haleakala), the same a phone seat plays on.
function drawBase(svg) { window.GAME_DRAWINGS.haleakala.base(svg, geo, { taps: false }); }
function drawPieces(s) {
  window.GAME_DRAWINGS.haleakala.pieces(document.getElementById("pieces"), s.island, s.last, geo, PHONE.matches, { taps: false });
}

// The colour mode (palette.css): this phone's own choice if it made one, else the companion's.
// (Storage may be refused, as in a private window: the choice then lasts until a reload.)
let ownPalette = null;
function choosePalette(mode, own) {
  if (own) {
    ownPalette = mode;
    try { localStorage.setItem("palette", mode); } catch (e) { /* kept in ownPalette */ }
  }
  let stored = null;
  try { stored = localStorage.getItem("palette"); } catch (e) { stored = null; }
  const chosen = ownPalette || stored || mode || "default";
  document.documentElement.dataset.palette = chosen;
  const select = document.getElementById("palette");
  if (select) select.value = chosen;
}

// The page's fixed texts and its language come with each snapshot (the game's language).
function speak(s) {
  words = s.labels || {};
  choosePalette(s.palette, false);
  document.documentElement.lang = s.lang || "en";
  for (const node of document.querySelectorAll("[data-label]")) node.textContent = say(node.dataset.label);
  for (const node of document.querySelectorAll("[data-label-aria]")) node.setAttribute("aria-label", say(node.dataset.labelAria));
}

function drawPlayers(s) {
  const box = document.getElementById("players");
  box.replaceChildren();
  for (const colour of ["red", "yellow"]) {
    const p = s.players[colour];
    const div = html("div", undefined, `player ${colour}` + (s.to_move === colour ? " turn" : ""));
    div.id = `player-${colour}`;
    const h = html("h3");
    h.append(html("span", say(colour) + (s.to_move === colour ? ` — ${say("deciding")}` : "")));
    h.append(html("span", say("score", { n: s.score[colour] }), "score"));
    div.append(h);
    const supply = [p.supply.join(" "), p.invocation === "supply" ? say("invocation") : ""].filter(Boolean).join(" ");
    const facts = [
      say("supply", { discs: supply || say("none") }),
      say("statues_left", { n: p.statues_left }),
      say("shells", { n: p.shells }),
    ];
    div.append(html("p", facts.join(" · ")));
    const cards = p.cards.map((c) => (c.count > 1 ? `${c.count}× ${c.name}` : c.name)).join("; ");
    const tally = p.cards.length ? " " + say("baskets", { baskets: p.baskets, butterflies: p.butterflies }) : "";
    div.append(html("p", say("cards", { cards: cards || say("none") }) + tally));
    if (p.scoring_cards.length) div.append(html("p", say("scoring_cards", { cards: p.scoring_cards.join(", ") })));
    box.append(div);
  }
}

function drawBoard(s) {
  const list = document.getElementById("board");
  list.replaceChildren();
  for (const item of s.board) {
    const owner = say(item.owner === null ? "available" : item.owner);
    const cls = [item.owner === "face down" ? "down" : item.owner || "", s.last && s.last.item === item.item ? "bought" : ""];
    list.append(html("li", `${item.name} (${item.cost}): ${owner}`, cls.join(" ").trim()));
  }
  const piles = s.piles.map((p) => `${p.name}: ${p.count}`).concat([say("discard", { n: s.discard })]);
  document.getElementById("piles").textContent = say("piles", { piles: piles.join(" · ") });
}

function drawLog(s) {
  // Each decision with the events it caused (indented lines) under it; newest decision first.
  const groups = [];
  for (const line of s.log) {
    if (line.startsWith("  ") && groups.length) groups[groups.length - 1].push(line);
    else groups.push([line]);
  }
  const list = document.getElementById("log");
  list.replaceChildren();
  for (const group of groups.reverse()) {
    group.forEach((line, i) => list.append(html("li", line.trim(), i ? "sub" : "")));
  }
}

function drawResult(s) {
  const box = document.getElementById("result");
  box.hidden = !s.result;
  if (!s.result) return;
  const r = s.result;
  document.getElementById("winner").textContent = r.text;
  const table = document.getElementById("breakdown");
  table.replaceChildren();
  const head = html("tr");
  ["scoring", "red", "yellow"].forEach((t) => head.append(html("th", say(t))));
  table.append(head);
  for (const sc of s.scorings) {
    const keys = Object.keys(sc.players.red.points);
    for (const key of keys) {
      if (!sc.players.red.points[key] && !sc.players.yellow.points[key]) continue;
      const row = html("tr");
      row.append(html("td", `${sc.round}: ${sc.names[key] || key}`));
      row.append(html("td", String(sc.players.red.points[key])));
      row.append(html("td", String(sc.players.yellow.points[key])));
      table.append(row);
    }
    const total = html("tr");
    total.append(html("th", say("after_scoring", { n: sc.round })));
    total.append(html("th", String(sc.players.red.total)));
    total.append(html("th", String(sc.players.yellow.total)));
    table.append(total);
  }
}

// A game's own drawing registers itself by its name (views.js, from the games' packages); a
// snapshot of the generic view ("view": "generic") is text and a list; the others are the
// board's island, drawn below.
function ownView(s) {
  const views = window.GAME_VIEWS || {};
  if (views[s.game]) return views[s.game];
  return s.view === "generic" ? drawGeneric : null;
}

function drawGeneric(s) {
  // Any game without a drawing of its own: its position as text, who decides, the legal
  // decisions in notation, the log; never another game's picture.
  document.title = s.title;
  document.getElementById("variant").textContent = `${s.title} · ${say("g_players", { n: s.players.length })}`;
  const status = document.getElementById("status");
  status.textContent = s.over ? s.result : say("to_decide", { colour: s.to_move_name });
  status.className = s.over ? "" : s.to_move;
  document.getElementById("awaited").textContent = s.over ? "" : say("g_legal", { n: s.legal_count });
  document.getElementById("notation").textContent = s.legal.length ? say("notation", { codes: s.legal.join(" · ") }) : "";
  document.getElementById("lesson").hidden = true;
  const text = document.getElementById("generic");
  text.hidden = false;
  text.textContent = s.text;
  const box = document.getElementById("players");
  box.replaceChildren();
  for (const p of s.players) {
    box.append(html("div", p.name + (p.colour === s.to_move ? " ◀" : ""), `player ${p.colour}`));
  }
  drawLog(s);
  document.getElementById("result").hidden = true;
  document.getElementById("meta").textContent = say("meta", { seed: "–", n: s.decisions, digest: s.digest });
}

function draw(s) {
  latest = s;
  speak(s);
  // Which position the page shows, whoever draws it (the tests wait on these).
  document.body.dataset.digest = s.digest;
  document.body.dataset.seq = s.seq;
  document.body.dataset.decisions = s.decisions;
  const own = ownView(s);
  document.body.classList.toggle("game-view", !!own);
  document.body.classList.toggle("generic", own === drawGeneric);
  document.getElementById("generic").hidden = own !== drawGeneric;
  if (own) { own(s); return; }
  document.getElementById("variant").textContent = `${s.variant_name} · ${say("round", { n: s.round, rounds: 2 })}`;
  const status = document.getElementById("status");
  status.textContent = s.over ? (s.result ? s.result.text : s.awaited) : say("to_decide", { colour: say(s.to_move) });
  status.className = s.over ? "" : s.to_move;
  // Plain words first (the header is for everyone at the table and on their phones), the
  // notation after them, smaller, for those who type it.
  document.getElementById("awaited").textContent = s.over ? "" : s.awaited_words || s.awaited;
  // A lesson on the board: what the learner is told, for whoever watches.
  const lesson = document.getElementById("lesson");
  lesson.hidden = !s.lesson;
  lesson.textContent = s.lesson ? `${s.lesson.title} ${s.lesson.step}/${s.lesson.steps} · ${s.lesson.say}` : "";
  const codes = s.over || !s.notation ? [] : s.notation;
  document.getElementById("notation").textContent = codes.length ? say("notation", { codes: codes.join(" · ") }) : "";
  drawPieces(s);
  drawPlayers(s);
  drawBoard(s);
  drawLog(s);
  drawResult(s);
  document.getElementById("meta").textContent = say("meta", { seed: s.seed, n: s.decisions, digest: s.digest });
}

PHONE.addEventListener("change", () => {
  document.getElementById("island").classList.toggle("phone", PHONE.matches);
  if (latest) (ownView(latest) || drawPieces)(latest);
});

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("snapshot", (e) => draw(JSON.parse(e.data)));
  source.onerror = () => {
    const status = document.getElementById("status");
    status.textContent = latest ? say("lost") : "cannot reach the companion (scan the QR code again?)";
    status.className = "stale";
  };
}

async function start() {
  const reply = await fetch("/geometry.json", { credentials: "same-origin", cache: "no-store" });
  if (!reply.ok) {
    document.getElementById("status").textContent = "no access: scan the QR code on the companion's screen";
    return;
  }
  geo = await reply.json();
  const select = document.getElementById("palette");
  select.addEventListener("change", () => choosePalette(select.value, true));
  choosePalette(null, false);
  const island = document.getElementById("island");
  island.classList.toggle("phone", PHONE.matches);
  drawBase(island);
  connect();
}

start();
