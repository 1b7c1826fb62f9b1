"use strict";
// A phone's seat (haleakala.web.host): the host sends this seat's view, already filtered;
// the page only draws it and sends the decision chosen. Its place survives a reload or a
// lost connection: the number of decisions it knows, its log and a decision not yet
// acknowledged live in sessionStorage; it asks the host for "the view since N" (the
// position, then the decisions it missed) and sends the pending decision again until the
// host answers (the host recognises a decision sent twice by its seq).

const seat = decodeURIComponent(location.pathname.split("/")[2] || "");
const KEY = "haleakala-seat-" + seat;
const KEPT = 40;
let kept = null;
try { kept = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { kept = null; }
const place = kept && typeof kept.known === "number" ? kept : { known: 0, log: [], pending: null };
let view = null;
let sending = false;

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const fill = (template, values) =>
  String(template || "").replace(/\{(\w+)\}/g, (m, key) => (key in values ? values[key] : m));

function save() {
  try { sessionStorage.setItem(KEY, JSON.stringify(place)); } catch (e) { /* private mode */ }
}

function merge(v) {
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
  const list = $("decisions");
  list.replaceChildren();
  // Nothing can be decided while a decision is on its way or the game is paused (someone
  // is away): the buttons say so by being disabled, as the status line says why.
  const waiting = Boolean(place.pending) || v.paused;
  list.dataset.paused = v.paused ? "1" : "0";
  for (const d of v.legal) {
    const button = el("button");
    button.type = "button";
    button.dataset.decision = d.text;
    button.disabled = waiting;
    button.append(el("span", "words", d.words), el("span", "code", d.text));
    button.addEventListener("click", () => decide(d.text));
    const item = el("li");
    item.append(button);
    list.append(item);
  }
  $("decide").hidden = v.legal.length === 0;
  const position = $("position");
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
  for (const b of document.querySelectorAll("#decisions button")) b.disabled = true;
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
