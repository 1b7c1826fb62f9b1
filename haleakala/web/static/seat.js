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

function say(sentence) {
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
    say(fill(L.said_move, { colour: m.name, what: m.text }));
    for (const effect of m.effects) say(effect);
    said.n = m.n;
    others = others || m.player !== v.seat;
  }
  const away = v.players.filter((p) => p.away !== null && p.away !== undefined);
  for (const p of away) {
    if (!said.away.includes(p.colour)) say(fill(L.said_away, { colour: p.name }));
  }
  for (const p of v.players) {
    if (said.away.includes(p.colour) && !away.includes(p)) say(fill(L.said_back, { colour: p.name }));
  }
  said.away = away.map((p) => p.colour);
  if (v.over) {
    if (!said.over) say(v.result || L.over);
    said.over = true;
    said.turn = "";
  } else {
    const turn = v.your_turn ? "me" : v.to_move || "";
    if (turn && (turn !== said.turn || (v.your_turn && others))) {
      say(v.your_turn ? L.your_turn : fill(L.waiting, { colour: v.to_move_name }));
    }
    said.turn = turn;
  }
  if (lostSaid) say(L.back);
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
      const button = el("button");
      button.type = "button";
      button.dataset.decision = d.text;
      const words = el("span", "words", d.words);
      words.id = `decision-${i}`;
      button.setAttribute("aria-labelledby", words.id);
      const code = el("span", "code", d.text);
      code.id = `decision-${i}-code`;
      button.append(words, code);
      // The notation is the button's description, unless it is its name already.
      if (d.words !== d.text) button.setAttribute("aria-describedby", code.id);
      button.addEventListener("click", () => decide(d.text));
      const item = el("li");
      item.append(button);
      list.append(item);
    });
  }
  for (const b of list.querySelectorAll("button")) b.setAttribute("aria-disabled", String(waiting));
  $("decide").hidden = v.legal.length === 0;
  const first = list.querySelector("button");
  if (v.your_turn && first && v.seq !== focusedAt) { // a decision of this seat is awaited
    focusedAt = v.seq;
    first.focus();
  } else if (hadFocus && !list.contains(document.activeElement)) {
    $("title").focus(); // its button is gone: the top of the page, not nowhere
  }
}

function el(tag, cls, value) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (value !== undefined) node.textContent = value;
  return node;
}

function render(v) {
  const L = v.labels;
  document.documentElement.lang = v.lang;
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
    for (const effect of v.last.effects) last.append(el("span", "effect", effect));
  }
  $("result").hidden = !v.result;
  text($("result"), v.result || "");
  text($("decisions-title"), L.decisions);
  $("said").setAttribute("aria-label", L.said);
  drawDecisions(v);
  const position = $("position");
  position.setAttribute("aria-label", L.position);
  position.replaceChildren();
  $("hand").replaceChildren();
  for (const s of v.sections) {
    if (s.hand) { // what the seat holds goes first, above its decisions
      $("hand").append(el("p", "hand", s.lines.join(" ")));
      continue;
    }
    if (s.title) position.append(el("h2", "", s.title));
    if (s.wide) {
      position.append(el("pre", "wide", s.lines.join("\n")));
    } else {
      const box = el("div", "lines");
      for (const line of s.lines) box.append(el("p", "", line.trim()));
      position.append(box);
    }
  }
  text($("log-title"), L.log);
  const log = $("log");
  log.replaceChildren();
  for (const m of place.log.slice().reverse()) {
    const item = el("li", m.n === place.known ? "newest" : "", `${m.name}: ${m.text}`);
    item.value = m.n;
    for (const effect of m.effects) item.append(el("span", "effect", effect));
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
  if (view && !lostSaid) say(view.labels.lost);
  lostSaid = true;
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

follow();
