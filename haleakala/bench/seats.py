"""``haleakala bench seats``: a game of the hosted game (``gameapi.DEFAULT_HOSTED_GAME``)
between phone seats over the host's HTTP.

The host (``web.host``) on loopback and a plain HTTP client in this process playing both
seats as a page does: send the ``decide`` message, then ask for the view since the last
decision it knew. Figures:

- ``decide_p50_ms`` / ``_p99_ms``: the decision posted until its acknowledgement is read;
- ``round_trip_p50_ms`` / ``_p99_ms``: the same, then the seat's new view read (what a
  phone waits between a tap and its page drawn again, less the drawing);
- ``view_bytes_p50`` / ``_max``: one seat's whole view (a reload: ``since=0``);
  ``update_bytes_p50``: the view after one decision (``since`` = the one before).

Client and server share this process (and its interpreter lock): the times are an upper
bound for a phone on a LAN, less the radio.
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
import urllib.request

from haleakala.ai.stats import percentile
from haleakala.remote.wire import VERSION


def run(args: argparse.Namespace) -> int:
    for name, value in measure(args.games or 3).items():
        print(f"{name}: {value}")
    return 0


def measure(games: int, cap: int | None = None) -> dict[str, float | int]:
    """The figures of ``games`` games (each stopped after ``cap`` decisions if given)."""
    from haleakala.gameapi import DEFAULT_HOSTED_GAME, new_game
    from haleakala.web.host import HostView
    from haleakala.web.seats import Table

    decide_s: list[float] = []
    round_s: list[float] = []
    whole: list[int] = []
    update: list[int] = []
    for seed in range(games):
        game = new_game(DEFAULT_HOSTED_GAME, seed=seed)
        table = Table(game, dict.fromkeys(game.players, "phone"))
        for colour in table.players:
            table.arrived(colour)
        view = HostView(table, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{view.port}"
        try:
            game = table.game
            while not game.is_terminal() and (cap is None or table.seq < cap):
                mover = game.to_move
                whole.append(len(ask(base, table.tokens[mover], mover, "state?since=0")))
                legal = game.legal_actions()
                text = game.format(legal[(seed + table.seq) % len(legal)])
                message = {
                    "v": VERSION,
                    "kind": "decide",
                    "table": table.name,
                    "game": table.game_id,
                    "sender": mover,
                    "seq": table.seq + 1,
                    "decision": text,
                    "nonce": secrets.token_hex(8),
                    "mac": "",
                }  # fmt: skip  (what seat.js sends: the core's version)
                start = time.perf_counter()
                ask(base, table.tokens[mover], mover, "decide", json.dumps(message).encode())
                acked = time.perf_counter()
                after = ask(base, table.tokens[mover], mover, f"state?since={table.seq - 1}")
                done = time.perf_counter()
                decide_s.append(acked - start)
                round_s.append(done - start)
                update.append(len(after))
        finally:
            view.close()
    ms = 1000.0
    return {
        "games": games,
        "decisions": len(decide_s),
        "decide_p50_ms": round(percentile(decide_s, 0.5) * ms, 1),
        "decide_p99_ms": round(percentile(decide_s, 0.99) * ms, 1),
        "round_trip_p50_ms": round(percentile(round_s, 0.5) * ms, 1),
        "round_trip_p99_ms": round(percentile(round_s, 0.99) * ms, 1),
        "view_bytes_p50": round(percentile(whole, 0.5)),
        "view_bytes_max": max(whole, default=0),
        "update_bytes_p50": round(percentile(update, 0.5)),
    }


def ask(base: str, token: str, colour: str, path: str, body: bytes | None = None) -> bytes:
    """One request of a seat's page to the host on loopback; the body of the answer."""
    request = urllib.request.Request(
        f"{base}/seat/{colour}/{path}", data=body, headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request) as reply:
        return bytes(reply.read())
