// The live view of a Kanaloa game: the map and the players from each snapshot (s.game is
// "kanaloa"; haleakala.games.kanaloa.views.live builds it), with draw.js's helpers and app.js's
// drawLog. A phone seat draws the same map (GAME_DRAWINGS.kanaloa) and plays on it.
// Kanaloa hides only the bag's order, so a watcher sees what every player sees.
"use strict";

const KANALOA_COLOUR = { red: "#d6342c", yellow: "#f0cc28", green: "#34a048", blue: "#3468d6", white: "#f6f6f0" };
// The colour mode's own (haleakala.palette.css: --kanaloa-red ...), so the live view's
// "colour-blind" choice reaches Kanaloa's pieces and fish; the constants above if it has none.
function kanaloaColour(c) {
  const v = getComputedStyle(document.documentElement).getPropertyValue(`--kanaloa-${c}`).trim();
  return v || KANALOA_COLOUR[c];
}
const KANALOA_GOD = { Kanaloa: "#50a0dc", Ku: "#ba6046", Pele: "#f08028", Lono: "#78be64", Kane: "#dec882" };
const KANALOA_LETTER = { red: "R", yellow: "Y", green: "G", blue: "B" };

function kanaloaTile(parent, code, x, y, w, h) {
  // An offering tile: its god's colour (two bands for a two-god tile) and its code.
  const gods = Object.keys(KANALOA_GOD).filter((g) => code.startsWith(g) || code.includes("/" + g)).slice(0, 2);
  const bands = gods.length ? gods : ["Kane"];
  const g = el("g", { class: "k-tile-group" }, parent);
  bands.forEach((god, k) => el("rect", { x: x + (k * w) / bands.length, y, width: w / bands.length, height: h, fill: KANALOA_GOD[god] }, g));
  el("rect", { x, y, width: w, height: h, class: "k-tile" }, g);
  // A long code ("Kanaloa/Lono4") is squeezed to the tile's width, never past its edge.
  const fit = code.length > 8 ? { textLength: w - 6, lengthAdjust: "spacingAndGlyphs" } : {};
  el("text", { x: x + w / 2, y: y + h / 2, class: "k-tile-text", ...fit }, g, code);
  return g;
}

function kanaloaPiece(parent, colour, x, y, stunned) {
  const g = el("g", { class: `k-piece ${colour}`, "data-colour": colour }, parent);
  el("circle", { cx: x, cy: y, r: 13, fill: kanaloaColour(colour), class: "k-piece-disc" }, g);
  el("text", { x, y, class: "k-piece-letter" }, g, KANALOA_LETTER[colour]);
  if (stunned) {
    el("line", { x1: x - 9, y1: y - 9, x2: x + 9, y2: y + 9, class: "k-stun" }, g);
    el("line", { x1: x - 9, y1: y + 9, x2: x + 9, y2: y - 9, class: "k-stun" }, g);
  }
}

function kanaloaFish(parent, fish) {
  // An ellipse in the colour it shows, its tail fin behind, turned to swim to its head.
  const [x, y] = fish.at;
  const angle = (Math.atan2(fish.towards[1], fish.towards[0]) * 180) / Math.PI;
  const g = el("g", { class: "k-fish", transform: `translate(${x} ${y}) rotate(${angle})`,
    "data-tail": fish.tail, "data-head": fish.head, "data-shows": fish.shows }, parent);
  el("polygon", { points: "-14,0 -28,10 -28,-10", fill: kanaloaColour(fish.shows), class: "k-fish-body" }, g);
  el("ellipse", { cx: 0, cy: 0, rx: 18, ry: 8, fill: kanaloaColour(fish.shows), class: "k-fish-body" }, g);
  el("circle", { cx: 10, cy: -3, r: 2, fill: "#111" }, g);
}

function kanaloaVolcano(parent, x, y) {
  el("polygon", { points: `${x - 30},${y + 24} ${x + 30},${y + 24} ${x + 10},${y - 18} ${x - 10},${y - 18}`, class: "k-volcano" }, parent);
  el("ellipse", { cx: x, cy: y - 18, rx: 12, ry: 6, fill: "#f05a1e" }, parent);
}

// The map (s.map of the live snapshot, a seat's board.map): islands with their tiles and
// pieces, the currents and their fish, the Dolphin, the volcano and its track. What a
// decision can name carries its id (draw.js's ``target``): islands, currents, tiles, the
// Dolphin; a seat taps them (ctx.taps), a watcher's page only carries the ids.
function kanaloaBoard(svg, m, ctx) {
  svg.setAttribute("viewBox", m.view.join(" "));
  svg.replaceChildren();
  svg.dataset.drawn = "kanaloa";
  el("rect", { x: m.view[0], y: m.view[1], width: m.view[2], height: m.view[3], class: "k-sea" }, svg);
  for (const c of m.currents) el("line", { x1: c.a[0], y1: c.a[1], x2: c.b[0], y2: c.b[1], class: "k-current" }, svg);
  for (const c of m.currents) if (c.fish) kanaloaFish(svg, c.fish);
  for (const c of m.currents) {
    // Over the current and its fish, under the islands: what a tap on either finds (a
    // band along it, and a disc at its middle as wide as a finger on a phone).
    const mid = [(c.a[0] + c.b[0]) / 2, (c.a[1] + c.b[1]) / 2];
    const hit = el("g", { class: "k-current-hit" }, svg);
    el("line", { x1: c.a[0], y1: c.a[1], x2: c.b[0], y2: c.b[1], class: "hit-line" }, hit);
    el("circle", { cx: mid[0], cy: mid[1], r: 48, class: "hit" }, hit);
    target(hit, `current-${c.name}`, c.name, ctx, mid);
  }
  const r = m.radius;
  for (const isl of m.islands) {
    const g = el("g", { class: "k-island", id: `island-${isl.name}` }, svg);
    if (!isl.in_play) {
      el("circle", { cx: isl.x, cy: isl.y, r, class: "k-out" }, g);
      el("text", { x: isl.x, y: isl.y - 8, class: "k-name k-dim" }, g, isl.name);
      el("text", { x: isl.x, y: isl.y + 12, class: "k-small k-dim" }, g, say("k_out"));
      continue;
    }
    el("circle", { cx: isl.x, cy: isl.y, r, class: "k-sand" }, g);
    el("circle", { cx: isl.x, cy: isl.y, r: r - 6, class: "k-grass" }, g);
    target(el("circle", { cx: isl.x, cy: isl.y, r: r + 8, class: "hit" }, g), `island-${isl.name}`, isl.name, ctx, [isl.x, isl.y - 22]);
    el("text", { x: isl.x, y: isl.y - 22, class: "k-name" }, g, isl.name);
    isl.tiles.forEach((t, k) => {
      const tile = kanaloaTile(g, t, isl.x - 42, isl.y - 8 + k * 20, 84, 18);
      target(tile, `tile-${isl.name}-${t}`, `${t} (${isl.name})`, ctx, [isl.x, isl.y + 1 + k * 20]);
    });
    if (isl.volcano) kanaloaVolcano(g, isl.x, isl.y);
    isl.pieces.forEach((p, k) => {
      const a = ((-150 + 40 * k) * Math.PI) / 180;
      kanaloaPiece(g, p.colour, isl.x + Math.cos(a) * (r + 8), isl.y + Math.sin(a) * (r + 8), p.stunned);
    });
  }
  if (m.sea_volcano) kanaloaVolcano(svg, m.sea_volcano[0], m.sea_volcano[1]);
  const d = m.dolphin;
  const dolphin = el("ellipse", { cx: d.x, cy: d.y - 20, rx: 75, ry: 24, class: "k-dolphin" }, svg);
  target(dolphin, "dolphin", say("k_dolphin"), ctx, [d.x, d.y - 20]);
  el("text", { x: d.x, y: d.y - 20, class: "k-name" }, svg, say("k_dolphin"));
  d.pieces.forEach((c, k) => kanaloaPiece(svg, c, d.x + 92 + 30 * k, d.y - 20, false));
  const t = m.track;
  el("text", { x: 16, y: t.y + 15, class: "k-track-label" }, svg, say("k_volcano", { drawn: t.drawn, end: t.end }));
  for (let k = 1; k <= t.end; k++) {
    const x = 300 + (k - 1) * 40;
    el("rect", { x, y: t.y, width: 32, height: 30, rx: 4, class: "k-track" + (k <= t.drawn ? " drawn" : "") + (k % 2 === 0 ? " erupts" : "") }, svg);
    el("text", { x: x + 16, y: t.y + 15, class: "k-small k-light" }, svg, String(k));
  }
}

// Beside the map, for a seat: every player's gods cards, score and tiles (its own to add
// or sacrifice, the others' for Ku's robbery).
function kanaloaTray(box, b, ctx) {
  box.replaceChildren();
  for (const [colour, p] of Object.entries(b.players)) {
    const row = html("div", undefined, `tray-row k-player ${colour}` + (b.current === colour ? " turn" : ""));
    row.append(html("span", `${p.name} · ${say("score", { n: p.score })}`, "tray-title"));
    const cards = p.cards.concat(p.protection.map((g) => `(${g})`));
    if (cards.length) row.append(html("span", cards.join(" "), "k-cards"));
    for (const tile of p.tiles) trayItem(row, `held-${colour}-${tile}`, `${tile} (${p.name})`, ctx, "k-held").textContent = tile;
    const temples = Object.entries(p.temples).map(([god, v]) => `${god} ${v}`).join(" · ");
    row.append(html("span", `${say("k_temples")}: ${temples}`, "k-cards"));
    box.append(row);
  }
}

window.GAME_DRAWINGS = window.GAME_DRAWINGS || {};
window.GAME_DRAWINGS.kanaloa = { board: (svg, b, ctx) => kanaloaBoard(svg, b.map, ctx), tray: kanaloaTray };

function drawKanaloaPlayers(s) {
  const box = document.getElementById("players");
  box.replaceChildren();
  const legend = html("p", say("k_legend"), "k-legend");
  box.append(legend);
  for (const [colour, p] of Object.entries(s.players)) {
    const turn = s.current === colour;
    const div = html("div", undefined, `player ${colour}` + (turn ? " turn" : ""));
    div.id = `player-${colour}`;
    const h = html("h3");
    h.append(html("span", p.name + (s.to_move === colour ? ` — ${say("deciding")}` : "")));
    h.append(html("span", say("score", { n: p.score }), "score"));
    div.append(h);
    const cards = [say("k_cards", { cards: p.cards.join(", ") || say("none") })];
    if (p.protection.length) cards.push(say("k_protection", { cards: p.protection.join(", ") }));
    div.append(html("p", cards.join(" · ")));
    const temples = Object.entries(p.temples).map(([god, v]) => `${god} ${v}`).join(" · ");
    div.append(html("p", `${say("k_temples")}: ${temples}`));
    div.append(html("p", say("k_tiles", { tiles: p.tiles.join(" ") || say("none") })));
    box.append(div);
  }
}

function drawKanaloa(s) {
  document.title = say("k_title");
  document.querySelector("header h1").firstChild.textContent = "Kanaloa ";
  document.getElementById("variant").textContent = say("k_players", { n: s.players_count, turn: s.turn });
  const status = document.getElementById("status");
  status.textContent = s.over ? s.result.text : say("to_decide", { colour: s.players[s.to_move].name });
  status.className = s.over ? "" : s.to_move;
  document.getElementById("awaited").textContent = s.awaited;
  document.getElementById("notation").textContent = s.legal.length ? say("notation", { codes: s.legal.join(" · ") }) : "";
  const svg = document.getElementById("island");
  kanaloaBoard(svg, s.map, { taps: false });
  svg.setAttribute("aria-label", say("k_map"));
  drawKanaloaPlayers(s);
  drawLog(s);
  document.getElementById("result").hidden = true;
  document.getElementById("meta").textContent = say("meta", { seed: s.seed, n: s.decisions, digest: s.digest });
}

(window.GAME_VIEWS = window.GAME_VIEWS || {}).kanaloa = drawKanaloa;
