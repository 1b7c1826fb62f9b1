// Kahuna's drawing: the twelve islands, the lines between them (dotted while free, a bridge
// in its owner's colour with its initial), the Kahuna stones, and beside the board the
// display, the pile and the seat's own hand (haleakala.games.kahuna.views.live builds the
// data, filtered for whoever looks: a watcher gets no hand). A phone seat draws it and
// plays on it (GAME_DRAWINGS.kahuna). Uses draw.js's helpers.
"use strict";

// Each owner's initial on its bridges and stones: colour is never the only sign.
const KAHUNA_LETTER = { white: "W", black: "B" };

function kahunaBoard(svg, b, ctx) {
  svg.setAttribute("viewBox", b.view.join(" "));
  svg.replaceChildren();
  svg.dataset.drawn = "kahuna";
  el("rect", { x: b.view[0], y: b.view[1], width: b.view[2], height: b.view[3], class: "h-sea" }, svg);
  for (const line of b.lines) {
    const [a, z] = [line.a, line.b];
    if (line.last) el("line", { x1: a[0], y1: a[1], x2: z[0], y2: z[1], class: "h-last" }, svg);
    if (line.bridge) {
      el("line", { x1: a[0], y1: a[1], x2: z[0], y2: z[1], class: `h-bridge-edge ${line.bridge}` }, svg);
      el("line", { x1: a[0], y1: a[1], x2: z[0], y2: z[1], class: `h-bridge ${line.bridge}` }, svg);
      const [mx, my] = [(a[0] + z[0]) / 2, (a[1] + z[1]) / 2];
      el("circle", { cx: mx, cy: my, r: 12, class: `h-bridge-mark ${line.bridge}` }, svg);
      el("text", { x: mx, y: my, class: `h-letter ${line.bridge}` }, svg, KAHUNA_LETTER[line.bridge]);
    } else {
      el("line", { x1: a[0], y1: a[1], x2: z[0], y2: z[1], class: "h-free" }, svg);
    }
  }
  const r = b.radius;
  for (const isl of b.islands) {
    const g = el("g", { class: "h-island", id: `island-${isl.name}` }, svg);
    el("circle", { cx: isl.x, cy: isl.y, r, class: "h-sand" }, g);
    el("circle", { cx: isl.x, cy: isl.y, r: r - 7, class: "h-grass" }, g);
    el("text", { x: isl.x, y: isl.y - 13, class: "h-name" }, g, isl.name);
    if (isl.stone) {
      el("circle", { cx: isl.x, cy: isl.y + 14, r: 15, class: `h-stone ${isl.stone}` }, g);
      el("text", { x: isl.x, y: isl.y + 14, class: `h-letter ${isl.stone}` }, g, "K");
    } else {
      el("text", { x: isl.x, y: isl.y + 14, class: "h-need" }, g, `${isl.need}/${isl.lines}`);
    }
    // What a tap finds: wider than the island (44 CSS px on a 360 px phone).
    const hit = el("circle", { cx: isl.x, cy: isl.y, r: 54, class: "hit" }, svg);
    target(hit, `island-${isl.name}`, say("h_island", { island: isl.name }), ctx, [isl.x, isl.y]);
  }
}

function kahunaCard(item, island, note) {
  item.append(html("span", island, "h-card-name"));
  if (note) item.append(html("span", note, "h-small"));
  return item;
}

// Beside the board: the pile and the display (what a turn draws from), then the seat's own
// hand (the cards a bridge is laid or cut with). A watcher sees the sizes only.
function kahunaTray(box, b, ctx) {
  box.replaceChildren();
  const draw = html("div", undefined, "tray-row h-draw");
  draw.append(html("span", say("h_display"), "tray-title"));
  const pile = trayItem(draw, "pile", say("h_draw_pile"), ctx, "h-pile");
  pile.append(html("span", "KAHUNA", "h-card-name"), html("span", say("h_pile", { n: b.pile }), "h-small"));
  b.display.forEach((card, i) => {
    if (card) kahunaCard(trayItem(draw, `slot-${i + 1}`, say("h_slot", { n: i + 1, island: card }), ctx, "h-card"), card);
    else draw.append(html("span", say("h_empty"), "tray-item h-card empty"));
  });
  const discard = b.discard.top ? `${b.discard.top} · ` : "";
  draw.append(html("span", discard + say("h_discards", { n: b.discard.count }), "h-discards"));
  box.append(draw);
  if (b.hand) {
    const hand = html("div", undefined, "tray-row h-hand");
    hand.append(html("span", say("h_hand"), "tray-title"));
    const counts = {};
    for (const card of b.hand) counts[card] = (counts[card] || 0) + 1;
    for (const [card, n] of Object.entries(counts)) {
      kahunaCard(trayItem(hand, `hand-${card}`, say("h_card", { island: card }), ctx, "h-card"), card, n > 1 ? `×${n}` : "");
    }
    if (!b.hand.length) hand.append(html("span", say("h_empty")));
    box.append(hand);
  }
  box.append(html("p", say("h_legend"), "h-legend"));
}

window.GAME_DRAWINGS = window.GAME_DRAWINGS || {};
window.GAME_DRAWINGS.kahuna = { board: kahunaBoard, tray: kahunaTray };

// The watchers' page (app.js's index.html): the same board for nobody's seat, the players,
// the display and the pile beside it, the log (app.js's drawLog).
function drawKahuna(s) {
  document.title = say("h_title");
  document.querySelector("header h1").firstChild.textContent = "Kahuna ";
  const b = s.board;
  document.getElementById("variant").textContent = say("h_round", { n: b.round });
  const status = document.getElementById("status");
  status.textContent = s.over ? s.result.text : say("to_decide", { colour: s.to_move_name });
  status.className = s.over ? "" : s.to_move;
  document.getElementById("awaited").textContent = "";
  document.getElementById("notation").textContent = "";
  const svg = document.getElementById("island");
  kahunaBoard(svg, b, { taps: false });
  svg.setAttribute("aria-label", say("h_board"));
  const box = document.getElementById("players");
  box.replaceChildren();
  for (const [colour, p] of Object.entries(b.players)) {
    const div = html("div", undefined, `player ${colour}` + (s.to_move === colour ? " turn" : ""));
    const h = html("h3");
    h.append(html("span", p.name + (s.to_move === colour ? ` — ${say("deciding")}` : "")));
    h.append(html("span", say("score", { n: p.score }), "score"));
    div.append(h, html("p", say("h_cards", { n: p.hand })));
    box.append(div);
  }
  const tray = html("div", undefined, "tray");
  kahunaTray(tray, b, { taps: false });
  box.append(tray);
  drawLog(s);
  document.getElementById("result").hidden = true;
  document.getElementById("meta").textContent = say("meta", { seed: "–", n: s.decisions, digest: s.digest });
}

(window.GAME_VIEWS = window.GAME_VIEWS || {}).kahuna = drawKahuna;
