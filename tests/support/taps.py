"""A phone seat played by taps on its drawing, as a finger would: Chromium's own hit testing
(``Input.dispatchMouseEvent`` at a point of the screen), never the decisions' list.

``tap_target`` finds a target of the drawing by its id (``data-target``), scrolls it into
sight, checks that the point tapped is that target (nothing covers it) and that it is
marked legal, then taps there. ``tap_decision`` taps each step of one legal decision of the
seat's view, then Confirm.
"""

from __future__ import annotations

import asyncio
import json

from support.browser import Browser

POINT = """(() => {
  const node = document.querySelector('#board [data-target=' + JSON.stringify(%s) + ']');
  if (!node) return null;
  node.scrollIntoView({ block: 'center', inline: 'nearest' });
  let x, y;
  if (node.dataset.anchor && node.getScreenCTM) {
    const [ax, ay] = node.dataset.anchor.split(',').map(Number);
    const p = new DOMPoint(ax, ay).matrixTransform(node.getScreenCTM());
    x = p.x; y = p.y;
  } else {
    const r = node.getBoundingClientRect();
    x = r.left + r.width / 2; y = r.top + r.height / 2;
  }
  const hit = document.elementFromPoint(x, y);
  const found = hit && hit.closest('[data-target]');
  return { x, y, legal: node.classList.contains('legal'),
           found: found ? found.dataset.target : null };
})()"""


CONFIRM = """(() => {
  const b = document.querySelector('#confirm');
  b.scrollIntoView({ block: 'nearest' });
  const r = b.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
})()"""


async def tap_at(page: Browser, x: float, y: float) -> None:
    for kind in ("mousePressed", "mouseReleased"):
        await page.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                        clickCount=1)  # fmt: skip


async def tap_target(page: Browser, target: str) -> None:
    """Tap the drawing's target ``target`` (it must be drawn, marked legal and on top)."""
    where = None
    try:
        async with asyncio.timeout(30):
            while True:
                where = await page.evaluate(POINT % json.dumps(target))
                if where and where["legal"] and where["found"] == target:
                    break
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"cannot tap {target}: {where}") from None
    await tap_at(page, where["x"], where["y"])


def step_ids(steps: list) -> list[str]:
    """The targets of a decision's steps in one order that makes it."""
    out: list[str] = []
    for step in steps:
        out += step if isinstance(step, list) else [step]
    return out


async def tap_decision(page: Browser, decision: dict) -> None:
    """Tap every step of ``decision`` (an entry of the seat view's ``legal``), check that
    the page formed exactly it, and tap Confirm."""
    for target in step_ids(decision["steps"]):
        await tap_target(page, target)
    await page.wait_for(
        f"document.body.dataset.formed === {json.dumps(decision['text'])}"
        " && !document.querySelector('#confirm').hidden",
        f"the decision {decision['text']} formed",
    )
    where = await page.evaluate(CONFIRM)
    assert where["w"] >= 44 and where["h"] >= 44, where
    await tap_at(page, where["x"], where["y"])
