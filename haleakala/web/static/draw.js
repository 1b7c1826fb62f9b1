// The drawings' helpers, shared by the live view's page (app.js), the seats' page (seat.js)
// and every game's own drawing (views.js, made from the games' packages): one drawing per
// game, which a watcher sees and a seat plays on. Nothing here knows a game.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
let words = {};
// Each game's drawing registers itself here by its game's name:
//   board(svg, data, ctx)  draws the game's board into the <svg>
//   tray(box, data, ctx)   draws what lies beside the board (cards, tiles) into a <div>
// ``ctx``: {seat: the seat's colour or null for a watcher, taps: whether the page plays on
// the drawing, phone: a small screen}.
window.GAME_DRAWINGS = window.GAME_DRAWINGS || {};

// A label of the page's language with its {placeholders} filled in.
function say(key, values) {
  const text = words[key] === undefined ? key : words[key];
  return String(text).replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));
}

function el(name, attrs, parent, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function points(poly) { return poly.map((p) => p.join(",")).join(" "); }

// A thing of the drawing a seat may tap: ``id`` is what the seat's decisions name it by
// (their ``steps``), ``label`` what a refusal calls it. ``anchor`` [x, y]: the point a tap
// aims at, where its legal mark is drawn (a shape's box centre can lie outside it).
function target(node, id, label, ctx, anchor) {
  node.dataset.target = id;
  node.dataset.label = label;
  if (anchor) node.dataset.anchor = anchor.map((v) => Math.round(v)).join(",");
  if (ctx && ctx.taps) node.classList.add("tappable");
  return node;
}

// A card or token beside the board (a div, not a button: the decisions' list is the page's
// keyboard and screen reader way; the drawing is for the eyes and the fingers).
function trayItem(box, id, label, ctx, cls) {
  const item = html("div", undefined, "tray-item " + (cls || ""));
  target(item, id, label, ctx);
  box.append(item);
  return item;
}
