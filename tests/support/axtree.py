"""A page as a screen reader meets it: Chromium's accessibility tree (DevTools'
``Accessibility`` domain) queried by role and accessible name, and the keyboard
(``Input.dispatchKeyEvent``). No CSS selector and no script of the page's: what a test finds
here is what assistive technology is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from support.browser import Browser

KEYS = {
    # key: (DOM key, DOM code, Windows virtual key code, the text the key types)
    "Tab": ("Tab", "Tab", 9, ""),
    "Enter": ("Enter", "Enter", 13, "\r"),
    "Space": (" ", "Space", 32, " "),
}


@dataclass(frozen=True)
class Node:
    """One accessibility node: its role, its accessible name and the states a screen reader
    announces with it."""

    role: str
    name: str
    backend: int  # the DOM node it stands for (to query beneath it)
    focused: bool
    disabled: bool
    properties: dict


def _node(raw: dict) -> Node:
    props = {p["name"]: p.get("value", {}).get("value") for p in raw.get("properties", [])}
    return Node(
        role=str(raw.get("role", {}).get("value", "")),
        name=str(raw.get("name", {}).get("value", "")),
        backend=int(raw.get("backendDOMNodeId", 0)),
        focused=bool(props.get("focused")),
        disabled=bool(props.get("disabled")),
        properties=props,
    )


async def query(page: Browser, role: str | None = None, name: str | None = None,
                within: int | None = None) -> list[Node]:  # fmt: skip
    """The nodes of ``role`` (and accessible ``name``) in document order, under the DOM node
    ``within`` (the whole document by default); nodes the tree ignores are left out."""
    if within is None:
        within = (await page.call("DOM.getDocument", depth=0))["root"]["backendNodeId"]
    params: dict = {"backendNodeId": within}
    if role is not None:
        params["role"] = role
    if name is not None:
        params["accessibleName"] = name
    found = await page.call("Accessibility.queryAXTree", **params)
    return [_node(n) for n in found["nodes"] if not n.get("ignored")]


async def texts(page: Browser, role: str, name: str) -> list[str]:
    """The text a container (``role`` named ``name``: a live region, a list) holds, one
    string per text node in reading order; [] while it is not in the tree."""
    containers = await query(page, role, name)
    if not containers:
        return []
    return [n.name for n in await query(page, "StaticText", within=containers[0].backend)]


async def press(page: Browser, key: str) -> None:
    """One key pressed and released, as the keyboard would (``KEYS``)."""
    dom_key, code, vk, typed = KEYS[key]
    common = {"key": dom_key, "code": code, "windowsVirtualKeyCode": vk}
    if typed:
        await page.call("Input.dispatchKeyEvent", type="keyDown", text=typed, **common)
    else:
        await page.call("Input.dispatchKeyEvent", type="rawKeyDown", **common)
    await page.call("Input.dispatchKeyEvent", type="keyUp", **common)
