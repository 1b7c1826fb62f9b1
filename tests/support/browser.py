"""Debian's headless Chromium, driven over the DevTools protocol (a WebSocket, through
aiohttp's client): load a page, wait for a condition in its DOM, take screenshots.

``--dump-dom``/``--screenshot`` wait for the network to go quiet, which a page holding an
event stream never does; the protocol lets a test wait for exactly what it expects instead.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import re
import shutil
import subprocess
import tempfile
import time
from typing import Any

import pytest

HANG_GUARD_S = 60.0


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


needs_chromium = pytest.mark.skipif(
    chromium_path() is None,
    reason="Debian's chromium is not installed (./test installs it when run as root: "
    "apt-get install chromium)",
)
"""The mark of a test module that drives the real browser."""


class Browser:
    """One headless Chromium with one page; use ``async with Browser() as page``."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.profile = tempfile.TemporaryDirectory(  # its helpers may outlive it briefly
            prefix="haleakala-chromium-", ignore_cleanup_errors=True
        )
        self.ws: Any = None
        self.session: Any = None
        self.ids = itertools.count(1)
        self.events: list[dict] = []
        """DevTools events that arrived while ``call`` waited (``Network.*`` once enabled)."""

    async def __aenter__(self) -> Browser:
        import aiohttp

        path = chromium_path()
        assert path is not None
        self.process = subprocess.Popen(
            [path, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile.name}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        port = await asyncio.to_thread(self._devtools_port)
        self.session = aiohttp.ClientSession()
        deadline = time.monotonic() + HANG_GUARD_S
        while True:
            async with self.session.get(f"http://127.0.0.1:{port}/json/list") as reply:
                pages = [t for t in await reply.json() if t.get("type") == "page"]
            if pages or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.05)
        assert pages, "Chromium opened no page"
        self.ws = await self.session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        await self.call("Page.enable")
        return self

    def _devtools_port(self) -> int:
        assert self.process is not None and self.process.stderr is not None
        for line in self.process.stderr:
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if found:
                return int(found.group(1))
        raise AssertionError("Chromium did not start its DevTools endpoint")

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.profile.cleanup()

    async def call(self, method: str, **params: Any) -> dict:
        """One DevTools command; its result (events arriving meanwhile go to ``events``)."""
        number = next(self.ids)
        await self.ws.send_str(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = await asyncio.wait_for(self.ws.receive(), HANG_GUARD_S)
            data = json.loads(message.data)
            if data.get("id") == number:
                if "error" in data:
                    raise AssertionError(f"{method}: {data['error']}")
                return data.get("result", {})
            if "method" in data:
                self.events.append(data)

    async def viewport(self, width: int, height: int, *, mobile: bool = False) -> None:
        await self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=2 if mobile else 1, mobile=mobile,
        )  # fmt: skip

    async def open(self, url: str) -> None:
        await self.call("Page.navigate", url=url)

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def wait_for(self, expression: str, what: str) -> Any:
        """Evaluate ``expression`` until it is truthy (the DOM is updated by events)."""
        deadline = time.monotonic() + HANG_GUARD_S
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed: {what}")
            await asyncio.sleep(0.05)

    async def screenshot(self, *, full_page: bool = False) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = await self.call("Page.getLayoutMetrics")
            content = size["cssContentSize"]
            params["clip"] = {
                "x": 0, "y": 0, "width": content["width"], "height": content["height"], "scale": 1,
            }  # fmt: skip
        result = await self.call("Page.captureScreenshot", **params)
        return base64.b64decode(result["data"])
