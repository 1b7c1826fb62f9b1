"use strict";
// A phone's seat (haleakala.web.host): the host sends this seat's view, already filtered;
// the page only draws it and sends the decision chosen. Its place survives a reload or a
// lost connection: the number of decisions it knows, its log and a decision not yet
// acknowledged live in sessionStorage; it asks the host for "the view since N" (the
// position, then the decisions it missed) and sends the pending decision again until the
// host answers (the host recognises a decision sent twice by its seq).
//
// For screen readers (docs/accessibility.md): one live region (#said, a polite log) says
// each event once, in order: every decision as this seat saw it and its effects, whose turn
// it is, who is away and back, the result. What it has said is kept with the seat's place,
// so a reload says nothing again. The status line is not live (it would say the turn twice).
// The decisions are buttons named by their words, in the order of a turn; when a decision
// of this seat is awaited, focus moves to the first of them, and otherwise it is left alone
// (a re-drawn page keeps the focused button; a refused or paused one is aria-disabled, so
// it keeps the focus too).
//
// For the eyes and the fingers (issue 43): the game's own drawing (GAME_DRAWINGS, the same
// one the live view draws, from the seat's filtered view). Each legal decision comes with
// the taps that make it (``steps``: target ids, a list among them in any order); the page
// marks the targets a next tap may take (the palette's "legal" colour and a dashed ring),
// takes taps until one decision is formed, then asks to confirm it; Undo takes back the
// last tap. A tap on anything else gets the rules' sentence (``board.refusals``) or says
// what cannot be chosen. The drawing is hidden from screen readers: the list is their way.

const seat = decodeURIComponent(location.pathname.split("/")[2] || "");
const KEY = "haleakala-seat-" + seat;
const KEPT = 40;
const SAID_KEPT = 1000; // the live region's paragraphs: more than a whole game says
let kept = null;
try { kept = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { kept = null; }
const place = kept && typeof kept.known === "number" ? kept : { known: 0, log: [], pending: null };
let view = null;
let sending = false;
let drawn = ""; // the decisions the buttons show (seq and notations): redrawn only when new
let focusedAt = -1; // the decision (seq) at which focus last moved to the first button
let lostSaid = false;
let taps = []; // the targets tapped so far: a decision half formed
let tapsAt = -1; // the decision (seq) they were tapped for

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const fill = (template, values) =>
  String(template || "").replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));

function save() {
  try { sessionStorage.setItem(KEY, JSON.stringify(place)); } catch (e) { /* private mode */ }
}

function merge(v) {
  announce(v);
  if (v.fresh || v.since !== place.known) {
    place.log = v.moves.slice();
  } else {
    place.log = place.log.concat(v.moves);
  }
  place.log = place.log.slice(-KEPT);
  place.known = v.seq;
  if (place.pending && v.seq >= place.pending.seq) place.pending = null; // made, or moved on
  save();
}

function text(node, value) { node.textContent = value; return node; }

function sayOut(sentence) {
  if (!sentence) return;
  const region = $("said");
  const line = document.createElement("p");
  line.textContent = sentence;
  region.append(line);
  while (region.childElementCount > SAID_KEPT) region.firstElementChild.remove();
}

// What the live region has said, kept with the seat's place: the last decision said (its
// seq), whose turn ("me" or a colour), who was away, whether the result was said. A page
// that starts afresh says the last decision only, not the whole game.
function announce(v) {
  const L = v.labels;
  if (!place.said) place.said = { n: Math.max(0, v.seq - 1), turn: "", away: [], over: false };
  const said = place.said;
  let others = false; // someone else decided since: this seat's turn is a new one
  for (const m of v.moves) {
    if (m.n <= said.n) continue;
    sayOut(fill(L.said_move, { colour: m.name, what: m.text }));
    for (const effect of m.effects) sayOut(effect);
    said.n = m.n;
    others = others || m.player !== v.seat;
  }
  const away = v.players.filter((p) => p.away !== null && p.away !== undefined);
  for (const p of away) {
    if (!said.away.includes(p.colour)) sayOut(fill(L.said_away, { colour: p.name }));
  }
  for (const p of v.players) {
    if (said.away.includes(p.colour) && !away.includes(p)) sayOut(fill(L.said_back, { colour: p.name }));
  }
  said.away = away.map((p) => p.colour);
  if (v.over) {
    if (!said.over) sayOut(v.result || L.over);
    said.over = true;
    said.turn = "";
  } else {
    const turn = v.your_turn ? "me" : v.to_move || "";
    if (turn && (turn !== said.turn || (v.your_turn && others))) {
      sayOut(v.your_turn ? L.your_turn : fill(L.waiting, { colour: v.to_move_name }));
    }
    said.turn = turn;
  }
  if (lostSaid) sayOut(L.back);
  lostSaid = false;
}

// The legal decisions as buttons, in the order of a turn: redrawn only when they change (a
// page answered unchanged keeps the focused button), disabled by aria-disabled (it keeps the
// focus and tells the screen reader) while a decision is on its way or the game is paused.
function drawDecisions(v) {
  const list = $("decisions");
  const waiting = Boolean(place.pending) || v.paused;
  list.dataset.paused = v.paused ? "1" : "0";
  const key = JSON.stringify([v.seq, v.legal.map((d) => d.text)]);
  const hadFocus = list.contains(document.activeElement);
  if (key !== drawn) {
    drawn = key;
    list.replaceChildren();
    v.legal.forEach((d, i) => {
      const button = hel("button");
      button.type = "button";
      button.dataset.decision = d.text;
      const words = hel("span", "words", d.words);
      words.id = `decision-${i}`;
      button.setAttribute("aria-labelledby", words.id);
      const code = hel("span", "code", d.text);
      code.id = `decision-${i}-code`;
      button.append(words, code);
      // The notation is the button's description, unless it is its name already.
      if (d.words !== d.text) button.setAttribute("aria-describedby", code.id);
      button.addEventListener("click", () => decide(d.text));
      const item = hel("li");
      item.append(button);
      list.append(item);
    });
  }
  for (const b of list.querySelectorAll("button")) b.setAttribute("aria-disabled", String(waiting));
  $("decide").hidden = v.legal.length === 0;
  const first = list.querySelector("button");
  if (v.your_turn && first && v.seq !== focusedAt) { // a decision of this seat is awaited
    focusedAt = v.seq;
    first.focus({ preventScroll: true }); // a player tapping the drawing stays where it is
  } else if (hadFocus && !list.contains(document.activeElement)) {
    $("title").focus(); // its button is gone: the top of the page, not nowhere
  }
}

function hel(tag, cls, value) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (value !== undefined) node.textContent = value;
  return node;
}

function render(v) {
  const L = v.labels;
  document.documentElement.lang = v.lang;
  document.documentElement.dataset.palette = v.palette || "default";
  const game = v.game.charAt(0).toUpperCase() + v.game.slice(1);
  document.title = fill(L.title, { game, colour: v.seat_name });
  text($("title"), document.title);
  const status = $("status");
  status.className = v.your_turn ? "mine" : "";
  text(status, v.over ? L.over : v.your_turn ? L.your_turn : fill(L.waiting, { colour: v.to_move_name }));
  const away = v.players.filter((p) => p.away !== null && p.away !== undefined);
  $("away").hidden = away.length === 0;
  text($("away"), away.map((p) => fill(L.away, { colour: p.name, n: p.away })).join(" · "));
  const last = $("last");
  last.hidden = !v.last;
  if (v.last) {
    text(last, fill(L.last, { colour: v.last.name, text: v.last.text }));
    for (const effect of v.last.effects) last.append(hel("span", "effect", effect));
  }
  const scores = Object.entries((v.board && v.board.scores) || {});
  $("scores").hidden = scores.length === 0;
  text($("scores"), scores.map(([c, n]) => `${v.players.find((p) => p.colour === c).name} ${n}`).join(" · "));
  drawBoard(v);
  $("result").hidden = !v.result;
  text($("result"), v.result || "");
  text($("decisions-title"), L.decisions);
  $("said").setAttribute("aria-label", L.said);
  drawDecisions(v);
  const position = $("position");
  position.setAttribute("aria-label", L.position);
  position.replaceChildren();
  $("hand").replaceChildren();
  // The drawing shows the hand: its words stay for screen readers, out of sight.
  $("hand").className = $("board").hidden || !$("drawing").dataset.drawn ? "" : "unseen";
  for (const s of v.sections) {
    if (s.hand) { // what the seat holds goes first, above its decisions
      $("hand").append(hel("p", "hand", s.lines.join(" ")));
      continue;
    }
    if (s.title) position.append(hel("h2", "", s.title));
    if (s.wide) {
      // The drawing shows it; the words stay one tap away (wrapped: nothing cut off).
      const more = hel("details", "wide");
      more.append(hel("summary", "", L.position), hel("pre", "", s.lines.join("\n")));
      position.append(more);
    } else {
      const box = hel("div", "lines");
      for (const line of s.lines) box.append(hel("p", "", line.trim()));
      position.append(box);
    }
  }
  text($("log-title"), L.log);
  const log = $("log");
  log.replaceChildren();
  for (const m of place.log.slice().reverse()) {
    const item = hel("li", m.n === place.known ? "newest" : "", `${m.name}: ${m.text}`);
    item.value = m.n;
    for (const effect of m.effects) item.append(hel("span", "effect", effect));
    log.append(item);
  }
  text($("meta"), `${v.seat} · ${v.seq}`);
  document.body.dataset.seq = String(v.seq);
  document.body.dataset.turn = v.your_turn ? "1" : "0";
  document.body.dataset.over = v.over ? "1" : "0";
}

function showLost() {
  const status = $("status");
  status.className = "stale";
  if (view) text(status, view.labels.lost);
  if (view && !lostSaid) sayOut(view.labels.lost);
  lostSaid = true;
}

// -- the drawing ---------------------------------------------------------------------------

// Where ``taps`` lead in one decision's steps: the ids a next tap may take, or null when
// the taps are not a start of it. Complete when nothing is left.
function stepsAfter(steps, tapped) {
  const groups = steps.map((s) => (Array.isArray(s) ? s.slice() : [s]));
  let g = 0;
  let rest = groups.length ? groups[0].slice() : [];
  const advance = () => { while (!rest.length && g < groups.length - 1) rest = groups[++g].slice(); };
  for (const t of tapped) {
    advance();
    const k = rest.indexOf(t);
    if (k < 0) return null;
    rest.splice(k, 1);
  }
  advance();
  return rest;
}

function canTap(v) { return v.your_turn && !v.paused && !place.pending && !v.over; }

function drawBoard(v) {
  const board = $("board");
  const drawing = v.board && window.GAME_DRAWINGS && window.GAME_DRAWINGS[v.board.game];
  const L = v.labels;
  if (v.seq !== tapsAt) { taps = []; tapsAt = v.seq; }
  const mine = canTap(v);
  const open = mine ? v.legal.map((d) => ({ d, rest: stepsAfter(d.steps || [], taps) })).filter((c) => c.rest) : [];
  if (mine && taps.length && !open.length) taps = []; // the decisions changed under the taps
  const next = new Set(open.flatMap((c) => c.rest));
  const formed = open.filter((c) => c.rest.length === 0);
  board.hidden = !(v.board && (v.board.data || v.legal.length));
  board.dataset.taps = mine ? "1" : "0";
  document.body.dataset.formed = formed.length ? formed[0].d.text : "";
  words = Object.assign({}, L, (v.board && v.board.labels) || {});
  const ctx = { seat: v.seat, taps: mine, phone: true };
  const svg = $("drawing");
  svg.setAttribute("role", "img");
  if (drawing && v.board.data) {
    svg.hidden = false;
    drawing.board(svg, v.board.data, ctx);
    if (drawing.tray) drawing.tray($("tray"), v.board.data, ctx);
  } else {
    svg.hidden = true;
    $("tray").replaceChildren();
  }
  // A next step the drawing does not show, or shows smaller than a finger (44 CSS px: a
  // tile on an island, a crater), is also a button beside it, named in words.
  const chips = $("chips");
  chips.replaceChildren();
  const drawn = {};
  for (const n of board.querySelectorAll("[data-target]")) drawn[n.dataset.target] = n;
  const named = (v.board && v.board.words) || {};
  for (const id of next) {
    const box = drawn[id] && drawn[id].getBoundingClientRect();
    if (box && Math.min(box.width, box.height) >= 44) continue;
    trayItem(chips, id, named[id] || id, ctx, drawn[id] ? "chip twin" : "chip").textContent = named[id] || id;
  }
  for (const node of board.querySelectorAll("[data-target]")) mark(node, next.has(node.dataset.target), taps.includes(node.dataset.target));
  const bar = $("tapbar");
  bar.hidden = !mine && !taps.length;
  text($("hint"), mine ? (taps.length ? L.then : L.marked) : "");
  $("hint").hidden = !mine || formed.length > 0;
  $("undo").hidden = taps.length === 0;
  text($("undo"), L.undo);
  $("confirm").hidden = formed.length === 0;
  text($("confirm"), L.confirm);
  $("chosen").hidden = formed.length === 0;
  if (formed.length) text($("chosen"), fill(L.chosen, { what: formed[0].d.words }));
}

// A legal target: the class "legal" (the palette's colour) and a dashed ring drawn around
// it (a shape, not colour alone); a tapped one: a solid ring.
function mark(node, legal, chosen) {
  node.classList.toggle("legal", legal);
  node.classList.toggle("chosen", chosen);
  if (!(node instanceof SVGGraphicsElement) || !(legal || chosen)) return;
  const box = node.getBBox();
  const [x, y] = node.dataset.anchor ? node.dataset.anchor.split(",").map(Number) : [box.x + box.width / 2, box.y + box.height / 2];
  const r = Math.min(Math.max(box.width, box.height) / 2 + 4, 56);
  const svg = node.ownerSVGElement;
  const ring = (cls) => el("circle", { cx: x, cy: y, r: Math.max(r, 22), class: cls }, svg);
  if (chosen) ring("chosen-ring");
  else { ring("legal-back"); ring("legal-ring"); }
}

function tapped(event) {
  const node = event.target.closest && event.target.closest("[data-target]");
  if (!node || !view) return;
  const v = view;
  const L = v.labels;
  const id = node.dataset.target;
  const refuse = (sentence) => { $("refusal").hidden = false; text($("refusal"), sentence); };
  if (!canTap(v)) {
    refuse(v.paused ? L.paused_tap : v.over ? L.over : fill(L.not_now, { colour: v.to_move_name || "" }));
    return;
  }
  const next = new Set(v.legal.flatMap((d) => stepsAfter(d.steps || [], taps) || []));
  if (!next.has(id)) {
    const refusals = (v.board && v.board.refusals) || {};
    refuse(refusals[taps.concat([id]).join(" ")] || (taps.length ? "" : refusals[id])
           || fill(L.refused_tap, { what: node.dataset.label || id }));
    return;
  }
  $("refusal").hidden = true;
  taps.push(id);
  drawBoard(v);
}

function undo() {
  taps.pop();
  $("refusal").hidden = true;
  if (view) drawBoard(view);
}

function confirmed() {
  const formed = document.body.dataset.formed;
  if (formed) decide(formed);
}

async function decide(decision) {
  if (!view || place.pending || view.paused) return;
  $("refusal").hidden = true;
  // The core's decide message (docs/REMOTE-PROTOCOL.md, version 2): seq is the decision's
  // number, nonce a random id the host's answer carries back.
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(8)),
                           (b) => b.toString(16).padStart(2, "0")).join("");
  place.pending = { v: 2, kind: "decide", table: view.table, game: view.game_id, sender: view.seat,
                    seq: view.seq + 1, decision, nonce, mac: "" };
  save();
  for (const b of document.querySelectorAll("#decisions button")) b.setAttribute("aria-disabled", "true");
  text($("status"), view.labels.sending);
  await send();
}

async function send() {
  if (sending) return;
  sending = true;
  try {
    while (place.pending) {
      const p = place.pending;
      try {
        const reply = await fetch("decide", {
          method: "POST",
          credentials: "same-origin",
          cache: "no-store",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(p),
        });
        const answer = await reply.json();
        if (answer.final === false) { // the game is paused: the same decision, a bit later
          if (view) text($("status"), answer.error);
          await sleep(2000);
          continue;
        }
        if (place.pending === p) place.pending = null;
        save();
        if (!answer.ok) {
          $("refusal").hidden = false;
          text($("refusal"), answer.error);
          if (view) render(view);
        }
      } catch (e) {
        showLost();
        await sleep(1000); // sent again until the host answers
      }
    }
  } finally {
    sending = false;
  }
}

async function follow() {
  let wait = false;
  for (;;) {
    try {
      const reply = await fetch(`state?since=${place.known}${wait ? "&wait=1" : ""}`, {
        credentials: "same-origin",
        cache: "no-store",
      });
      const v = await reply.json();
      if (!reply.ok) {
        $("refusal").hidden = false;
        text($("refusal"), v.error || String(reply.status));
        await sleep(5000);
        continue;
      }
      merge(v);
      view = v;
      render(v);
      wait = true;
      if (place.pending) send();
    } catch (e) {
      showLost();
      wait = false;
      await sleep(1000);
    }
  }
}

$("board").addEventListener("click", tapped);
$("undo").addEventListener("click", undo);
$("confirm").addEventListener("click", confirmed);
follow();
