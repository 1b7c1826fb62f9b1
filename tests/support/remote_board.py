"""A seat kit's physical board in this process: a ``RemoteKit`` (its loop on a thread) joined
to a ``RemoteCompanion`` on the sim backend's RFID kit, with a hand-driven clock, and a test
driver that lays the discs (or presses select) as the OLED asks."""

from __future__ import annotations

import io
import threading
import time
from dataclasses import replace

from haleakala.companion.hands import events_for
from haleakala.config import Config
from haleakala.hal.simulated import SimClock, SimHardware
from haleakala.remote.broker import LocalBroker
from haleakala.remote.kit import RemoteKit
from haleakala.remote.mqtt import parse_url
from haleakala.remote.policy import pick
from haleakala.remote.table import BoardLink, RemoteCompanion
from haleakala.remote.wire import table_key
from support.remote_kits import KEY


class Board:
    """``board.c`` is the companion, ``board.kit`` the kit, ``board.out`` its lines."""

    def __init__(
        self, tmp, broker: LocalBroker, seat: str, table: str = "t1", host_seed: int | None = None
    ) -> None:
        """``host_seed``: this board's kit is the host and deals the game of that seed."""
        from haleakala.gameapi import new_game

        self.out = io.StringIO()
        state_dir = tmp / f"{seat}-board"
        state_dir.mkdir(exist_ok=True)
        self.kit = RemoteKit(
            parse_url(f"{broker.url}/{table}"), seat, host=host_seed is not None,
            state_dir=state_dir, out=self.out, key=table_key(KEY),
            new_game=lambda: new_game("haleakala", seed=host_seed or 0),
        )  # fmt: skip
        self.link = BoardLink(self.kit)
        if self.kit.authority is not None:
            self.link.begin(self.kit.authority.seq, self.kit.authority.game.clone())
        self.stop = threading.Event()
        self.ended: list[int] = []
        self.thread = threading.Thread(target=lambda: self.ended.append(self.kit.run(self.stop)))
        self.thread.start()
        self.c: RemoteCompanion | None = None

    def join(self, timeout: float = 30.0) -> RemoteCompanion:
        """Once the host's snapshot has come: the board, started from the agreed game."""
        assert self.link.ready.wait(timeout), f"no snapshot from the host:\n{self.out.getvalue()}"
        assert self.link.first is not None
        self.clock = SimClock(100.0)
        config = replace(Config(), kit="rfid")
        self.hw = SimHardware.from_config(config, clock=self.clock, history=8)
        self.c = RemoteCompanion(
            self.hw, config, here=self.kit.seat, game=self.link.first[1], send=self.link.send,
            clock=self.clock,
        )  # fmt: skip
        self.link.attach(self.c)
        self.c.start()
        return self.c

    def close(self) -> None:
        self.stop.set()
        self.kit.events.put(("release",))
        self.thread.join(10)
        if self.c is not None:
            self.c.say_bye()
            self.c.moves.close()

    def text(self) -> str:
        assert self.c is not None
        return " ".join(self.c.prompt)

    def pump_until(self, predicate, what: str, timeout: float = 30.0) -> None:
        """Handle the companion's events (and let its clock run) until ``predicate()``."""
        assert self.c is not None
        deadline = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < deadline, f"{what}: {self.c.prompt}\n{self.out.getvalue()}"
            self.c.pump(timeout=0.02)
            self.clock.advance(0.5)
            self.c.tick()

    def stuck(self) -> str:
        c = self.c
        assert c is not None
        m = self.kit.mirror
        return (
            f"stuck at {len(c.game.history)} decisions ({c.game.to_move} to move), sent "
            f"{c.waiting}, agreed {m.seq if m else '?'}; the OLED: {c.prompt}; message "
            f"{c.panel.message}\n{self.out.getvalue()[-1500:]}"
        )

    def play(
        self, policy: int, until: int | None = None, timeout: float = 240.0, to_move: str = ""
    ) -> None:
        """Play on: this seat's decisions by ``policy.pick`` (as an ``--autoplay`` kit picks
        them), the remote seat's as the OLED asks; until the game is over or has ``until``
        decisions (and then, with ``to_move``, until that seat is to move)."""
        c = self.c
        assert c is not None
        deadline = time.monotonic() + timeout

        def going() -> bool:
            if c.game.is_terminal():
                return False
            if until is None or len(c.game.history) < until:
                return True
            return bool(to_move) and (c.game.to_move != to_move or c.awaiting_host)

        while going():
            assert time.monotonic() < deadline, self.stuck()
            c.pump(timeout=0.02)
            if c.awaiting_host or c.game.is_terminal():
                continue
            game = c.game
            if game.to_move == self.kit.seat:
                seq = len(game.history) + 1
                d = game.parse(pick(sorted(game.legal_decisions()), policy, seq))
            else:
                d = c.seat.proposal_for(game)
                if d is None:
                    continue  # the remote player's decision has not come yet
            for event in events_for(c, d):
                c.handle(event)
            self.clock.advance(0.5)
            c.tick()
