// Haleakala's drawing: the island (bands, beaches, discs and their sums, shamans, statues,
// boat, lava, the card slots, the last move outlined) from a snapshot's ``island`` and
// ``last`` and the fixed geometry (haleakala.games.haleakala.views.live). The live view
// (app.js) draws it for watchers; a phone seat draws the same and plays on it: what a
// decision can name carries its id (draw.js's ``target``): beaches, land spaces, craters,
// card slots, the boat. Uses draw.js's helpers.
"use strict";

const HALEAKALA_BANDS = ["sea", "water", "beach", "grassland", "forest", "mountain", "crater"];
const HALEAKALA_LAND = { grassland: 0, forest: 1, mountain: 2 };
// Each player's initial on its shamans and statues: colour is never the only sign.
const HALEAKALA_LETTER = { red: "R", yellow: "Y" };

function haleakalaCentre(poly) {
  const n = poly.length;
  return [poly.reduce((a, p) => a + p[0], 0) / n, poly.reduce((a, p) => a + p[1], 0) / n];
}

function haleakalaBase(svg, geo, ctx) {
  svg.setAttribute("viewBox", geo.view.join(" "));
  svg.replaceChildren();
  svg.dataset.drawn = "haleakala";
  const base = el("g", { id: "base" }, svg);
  for (const band of HALEAKALA_BANDS) {
    geo.bands[band].forEach((poly, seg) => {
      const node = el("polygon", { points: points(poly), class: `band band-${band}`, id: `${band}-${seg}` }, base);
      if (band === "beach") target(node, `beach-${seg}`, say("t_beach", { n: seg }), ctx, haleakalaCentre(poly));
      else if (band === "crater") target(node, `crater-${seg}`, say("t_crater", { n: seg }), ctx, haleakalaCentre(poly));
      else if (band in HALEAKALA_LAND) {
        const space = seg * 3 + HALEAKALA_LAND[band];
        target(node, `space-${space}`, say("t_space", { space: `${seg}${"GFM"[HALEAKALA_LAND[band]]}` }), ctx, haleakalaCentre(poly));
      }
    });
  }
  geo.labels.forEach((p, seg) => el("text", { x: p[0], y: p[1], class: "seg-label" }, base, String(seg)));
  el("g", { id: "pieces" }, svg);
}

function haleakalaCounted(part) {
  // The words of a card's part, a count kept with its word ("1 Schmetterling"): a line
  // holding a lone "1" says nothing, in any language.
  const out = [];
  for (const word of part.split(" ")) {
    const last = out.length - 1;
    if (last >= 0 && /^\d+$/.test(out[last])) out[last] += " " + word;
    else out.push(word);
  }
  return out;
}

function haleakalaHyphenated(word, width) {
  // "Lava-Priesterin" -> "Lava-", "Priesterin" when the whole word is too long for a line.
  if (word.length <= width || !word.includes("-")) return [word];
  return word.split(/(?<=-)/);
}

function haleakalaCardLines(name, width) {
  // "Fish: 1 basket, 1 butterfly" -> three short lines that fit the card (in any language),
  // of at most ``width`` characters where the words allow.
  const [head, rest] = name.includes(":") ? name.split(/:\s*/, 2) : [name, ""];
  const parts = head.split(/,\s*/).concat(rest ? rest.split(/,\s*/) : []);
  const lines = [];
  for (const part of parts) {
    let line = "";
    for (const word of haleakalaCounted(part.trim()).flatMap((w) => haleakalaHyphenated(w, width))) {
      if (line && (line + " " + word).length > width) {
        lines.push(line);
        line = word;
      } else line = line ? line + " " + word : word;
    }
    lines.push(line);
  }
  return lines.slice(0, 3);
}

function haleakalaCardRect(geo, [x, y, w, h], phone) {
  // On a phone a card grows by 16 units each way, kept inside the island's view.
  if (!phone) return [x, y, w, h];
  const [vx, vy, vw, vh] = geo.view;
  const W = w + 16, H = h + 16;
  const nx = Math.min(Math.max(x - 8, vx + 1), vx + vw - W - 1);
  const ny = Math.min(Math.max(y - 8, vy + 1), vy + vh - H - 1);
  return [nx, ny, W, H];
}

function haleakalaSqueeze(text, width) {
  // A word longer than the card ("Lava-Priesterin") is drawn narrower, never cut off.
  const natural = text.getComputedTextLength ? text.getComputedTextLength() : 0;
  if (natural > width) {
    text.setAttribute("textLength", String(width));
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

// The pieces into ``g`` (the base's "pieces" group): ``island`` and ``last`` as a live
// snapshot has them.
function haleakalaPieces(g, island, last, geo, phone, ctx) {
  g.replaceChildren();
  last = last || {};
  for (const space of island.threatened) {
    const band = ["grassland", "forest", "mountain"][space % 3];
    const poly = geo.bands[band][Math.floor(space / 3)];
    el("polygon", { points: points(poly), class: "threat" }, g);
  }
  island.slots.forEach((slot, i) => {
    const [x, y, w, h] = haleakalaCardRect(geo, geo.cards[i], phone);
    const card = el("g", { class: "slot", "data-slot": slot.slot }, g);
    el("rect", { x, y, width: w, height: h, rx: 4, class: slot.card ? "card" : "card empty" }, card);
    if (slot.card) {
      target(card, `slot-${slot.slot}`, say("t_slot", { slot: slot.slot }), ctx, [x + w / 2, y + h / 2]);
      const step = phone ? 19 : 13;
      const lines = haleakalaCardLines(slot.card, phone ? 10 : 13);
      const top = y + h / 2 - ((lines.length - 1) * step) / 2 + step * 0.3;
      lines.forEach((line, n) => {
        const text = el("text", { x: x + w / 2, y: top + n * step, class: "card-text" }, card, line);
        haleakalaSqueeze(text, w - 6);
      });
    }
    if (last.slot === slot.slot) el("rect", { x: x - 3, y: y - 3, width: w + 6, height: h + 6, rx: 6, class: "last" }, g);
  });
  const [bx, by] = geo.boat[island.boat];
  const boat = el("ellipse", { cx: bx, cy: by, rx: 19, ry: 10, class: "boat", id: "boat", "data-segment": island.boat }, g);
  island.beaches.forEach((beach) => {
    const seg = beach.segment;
    if (last.beach === seg) el("polygon", { points: points(geo.bands.beach[seg]), class: "last" }, g);
    for (const colour of ["red", "yellow"]) {
      const values = beach[colour].slice();
      if (beach[colour + "_invocation"]) values.push("*");
      values.forEach((v, i) => {
        const [x, y] = geo.discs[colour][seg][i];
        el("circle", { cx: x, cy: y, r: geo.disc_radius, class: `disc ${colour}`, "data-beach": seg, "data-value": v }, g);
        el("text", { x, y, class: "disc-label" }, g, String(v));
      });
      if (beach[colour].length) {
        const [x, y] = geo.sums[colour][seg];
        el("text", { x, y, class: `sum ${colour}`, "data-beach": seg }, g, `Σ${beach[colour + "_sum"]}`);
      }
    }
  });
  for (const statue of island.statues) {
    const [x, y] = geo.spaces.statue[statue.space];
    el("rect", { x: x - 6, y: y - 9, width: 12, height: 18, rx: 2, class: `statue ${statue.owner}`, "data-space": statue.space }, g);
    el("text", { x, y: y + 1, class: `piece-letter ${statue.owner}` }, g, HALEAKALA_LETTER[statue.owner]);
  }
  for (const colour of ["red", "yellow"]) {
    const space = island.shamans[colour];
    const [x, y] = geo.spaces[colour][space];
    el("polygon", { points: `${x},${y - 11} ${x - 8},${y + 8} ${x + 8},${y + 8}`, class: `shaman ${colour}`, id: `shaman-${colour}`, "data-space": space }, g);
    el("text", { x, y: y + 3, class: `piece-letter ${colour}` }, g, HALEAKALA_LETTER[colour]);
    if (last.space === space) el("circle", { cx: x, cy: y, r: 15, class: "last" }, g);
  }
  island.lava.forEach((count, seg) => {
    for (let i = 0; i < count; i++) {
      const [x, y] = geo.lava[seg][i];
      el("circle", { cx: x, cy: y, r: 7, class: "lava", "data-crater": seg }, g);
    }
  });
  if (last.boat !== undefined) el("ellipse", { cx: bx, cy: by, rx: 25, ry: 16, class: "last" }, g);
  // The boat is tapped on a target wider than it (44 CSS px on a phone).
  target(el("circle", { cx: bx, cy: by, r: 40, class: "hit" }, g), "boat", say("t_boat"), ctx, [bx, by]);
  boat.dataset.segment = island.boat;
}

// A seat's board: the island, then beside it the seat's own discs (the second tap of a
// placement) and the invocation disc.
function haleakalaBoard(svg, b, ctx) {
  haleakalaBase(svg, b.geo, ctx);
  haleakalaPieces(svg.querySelector("#pieces"), b.island, b.last, b.geo, true, ctx);
  svg.classList.add("phone");
}

function haleakalaTray(box, b, ctx) {
  box.replaceChildren();
  const row = html("div", undefined, "tray-row");
  row.append(html("span", say("t_supply"), "tray-title"));
  for (const v of b.supply) trayItem(row, `disc-${v}`, say("t_disc", { n: v }), ctx, `disc-token ${b.seat}`).textContent = String(v);
  if (b.invocation) trayItem(row, "invoke", say("t_invoke"), ctx, `disc-token ${b.seat}`).textContent = "*";
  box.append(row);
}

window.GAME_DRAWINGS = window.GAME_DRAWINGS || {};
window.GAME_DRAWINGS.haleakala = { base: haleakalaBase, pieces: haleakalaPieces, board: haleakalaBoard, tray: haleakalaTray };
