"""``haleakala bench remote``: two kits over a local Mosquitto (issue 28).

Both kits (the host with red, a seat with yellow, each a ``RemoteKit`` with its own MQTT
connection) run in this process on two threads against a private Mosquitto on a free
loopback port (``remote.broker``), so one clock (``time.monotonic``) stamps both sides.
Sharing one interpreter lock makes the figures a little pessimistic, never optimistic.

- ``shown_p50_ms`` / ``_p99_ms``: a decision made on one kit (the autoplayer's call) until
  the other kit tells its board about it — through the broker, the host's checks and its
  fsynced journal; also split by direction (``host_to_seat_*``: one hop; ``seat_to_host_*``:
  the seat's decision judged and journalled by the host).
- ``bytes_per_decision``: MQTT payload bytes both kits published, over the decisions made
  (acknowledgements, both seats' views and the final reveal included; MQTT's own headers,
  2–4 bytes plus the topic per message, are not counted); ``messages_per_decision`` likewise.
- ``resync_s`` (median of ``--restarts``): the broker killed (SIGKILL) in the middle of a
  game and started again, from the moment it accepts connections until the seat kit holds
  the host's snapshot again (paho's reconnection back-off, 1 s at first, dominates).
"""

from __future__ import annotations

import io
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from haleakala.ai.stats import percentile

HANG_GUARD_S = 120.0


def _wait(condition: Any, what: str) -> None:
    deadline = time.monotonic() + HANG_GUARD_S
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"bench remote: still waiting for {what}")
        time.sleep(0.002)


class _Pair:
    """A host kit (red) and a seat kit (yellow) on one table, each on its own thread."""

    def __init__(self, broker: Any, root: Path, table: str, seed: int, hold: int | None) -> None:
        from haleakala.games.haleakala import Game
        from haleakala.remote.kit import RemoteKit
        from haleakala.remote.mqtt import parse_url
        from haleakala.remote.wire import table_key

        url = parse_url(f"{broker.url}/{table}")
        self.stamps: list[tuple[str, str, int, float]] = []
        kits = {}
        for name, seat, host in (("host", "red", True), ("seat", "yellow", False)):
            state = root / table / name
            state.mkdir(parents=True)
            kit = RemoteKit(
                url, seat, host=host, state_dir=state, autoplay=seed,
                new_game=lambda: Game("base", seed), out=io.StringIO(),
                key=table_key("bench"),  # every message signed, as at every table now
                autoplay_until=hold if not host else None,
            )  # fmt: skip
            kit.trace = self._stamper(name)
            kits[name] = kit
        self.host, self.seat = kits["host"], kits["seat"]
        self.threads = [threading.Thread(target=k.run, daemon=True) for k in kits.values()]

    def _stamper(self, name: str) -> Any:
        def stamp(what: str, seq: int) -> None:
            self.stamps.append((name, what, seq, time.monotonic()))

        return stamp

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def join(self) -> None:
        for t in self.threads:
            t.join(HANG_GUARD_S)
        if any(t.is_alive() for t in self.threads):
            raise TimeoutError("bench remote: a kit did not finish its game")

    def latencies(self) -> dict[str, list[float]]:
        decided = {(seq, name): t for name, what, seq, t in self.stamps if what == "decided"}
        shown = {(seq, name): t for name, what, seq, t in self.stamps if what == "shown"}
        out: dict[str, list[float]] = {"host_to_seat": [], "seat_to_host": []}
        for (seq, name), t0 in decided.items():
            other = "seat" if name == "host" else "host"
            if (seq, other) in shown:
                out[f"{name}_to_{other}"].append(shown[(seq, other)] - t0)
        return out


def run(args: Any) -> int:
    from haleakala.remote.broker import LocalBroker, mosquitto_path

    if mosquitto_path() is None:
        print("bench remote: mosquitto is not installed (apt-get install mosquitto)")
        return 2
    games = getattr(args, "games", None) or 2
    restarts = getattr(args, "restarts", None) or 3
    with tempfile.TemporaryDirectory(prefix="bench-remote-") as tmp:
        root = Path(tmp)
        broker = LocalBroker(root / "broker")
        broker.start()
        try:
            lat: dict[str, list[float]] = {"host_to_seat": [], "seat_to_host": []}
            sent_bytes = sent_messages = decisions = 0
            for g in range(games):
                pair = _Pair(broker, root, f"g{g}", seed=g + 1, hold=None)
                pair.start()
                pair.join()
                for key, values in pair.latencies().items():
                    lat[key] += values
                decisions += pair.host.authority.seq  # type: ignore[union-attr]
                sent_bytes += pair.host.link.bytes_sent + pair.seat.link.bytes_sent
                sent_messages += pair.host.link.messages_sent + pair.seat.link.messages_sent
            resyncs = _resyncs(broker, root, restarts)
        finally:
            broker.stop()
    every = lat["host_to_seat"] + lat["seat_to_host"]
    print(f"games: {games}")
    print(f"decisions: {decisions}")
    for name, values in (("shown", every), *lat.items()):
        print(f"{name}_p50_ms: {percentile(values, 0.5) * 1000:.2f}")
        print(f"{name}_p99_ms: {percentile(values, 0.99) * 1000:.2f}")
    print(f"bytes_per_decision: {sent_bytes / decisions:.0f}")
    print(f"messages_per_decision: {sent_messages / decisions:.2f}")
    print(f"resync_s: {statistics.median(resyncs):.2f}")
    print(f"resync_max_s: {max(resyncs):.2f}")
    return 0


def _resyncs(broker: Any, root: Path, restarts: int) -> list[float]:
    """Kill and restart the broker ``restarts`` times, each with the game held mid-way."""
    out = []
    for r in range(restarts):
        pair = _Pair(broker, root, f"r{r}", seed=100 + r, hold=60)
        pair.start()
        _wait(lambda pair=pair: pair.seat.holding, "the seat to reach decision 60")
        broker.kill()
        _wait(
            lambda pair=pair: all(not k.link.client.is_connected() for k in (pair.host, pair.seat)),
            "both kits to notice the broker is gone",
        )
        broker.start()
        back = time.monotonic()
        _wait(
            lambda pair=pair, back=back: any(
                n == "seat" and w == "snapshot" and t > back for n, w, _, t in pair.stamps
            ),
            "the seat's snapshot after the restart",
        )
        out.append(
            min(t for n, w, _, t in pair.stamps if n == "seat" and w == "snapshot" and t > back)
            - back
        )
        pair.seat.events.put(("release",))
        pair.join()
    return out
