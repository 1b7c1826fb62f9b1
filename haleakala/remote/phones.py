"""Phones and kits at one table: ``run --remote … --host --seat COLOUR=phone --web
[HOST:]PORT`` serves phone seats from the host kit, beside the kits that join over the
broker (and the host's own seat and bots).

Why one authority for both: a game has one place that numbers, checks and journals its
decisions. The phone seats' table (``web.seats.Table``, behind ``web.host.HostView``)
adopts the host kit's ``Authority`` instead of making its own: a phone's decision is judged
there and the kits hear of it over the broker (``Table.outbox`` → the kit's loop); a kit's
or the host's decision is recorded for the phones as each of them saw it (``KitTable.sync``).
Both sides hold the table's lock (``Table.changed``) while they touch the authority. Nothing
addressed to a phone ever goes over the broker (a hidden hand must not travel to a broker
for a phone seat either).
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from haleakala.web.seats import PHONE, Table


class KitTable(Table):
    """The phone seats of a host kit's game (see the module's docstring)."""

    def __init__(self, kit: Any, start: Any, phones: set[str]) -> None:
        self._at: Any = None  # the game after the decisions recorded so far (``moves``)
        authority = kit.authority
        seats = {c: PHONE if c in phones else "kit" for c in authority.players}
        for colour in kit.bots:
            seats[colour] = kit.bot_names.get(colour, "bot")
        seats[kit.seat] = "kit"
        super().__init__(start, seats, name=kit.url.table, clock=kit.clock, authority=authority)
        self._at = authority.game.clone()
        self._tick = authority.tick

    def _record(self, before: Any, colour: str, text: str) -> None:
        super()._record(before, colour, text)
        if self._at is not None:
            after = before.clone()
            after.apply(text, colour)
            self._at = after

    def sync(self) -> None:
        """After the kit's loop changed the game or who is here: the decisions the host and
        the kits made are recorded as each phone saw them, and the phones are woken."""
        with self.changed:
            while len(self.moves) < self.authority.seq:
                seat, text = self.authority.history[len(self.moves)]
                self._record(self._at.clone(), seat, text)  # wakes the phones
            if self.authority.tick != self._tick:
                self._tick = self.authority.tick
                self._changed()


def serve(kit: Any, start: Any, address: str, out: TextIO | None = None) -> Any:
    """Serve the kit's phone seats at ``address`` ([HOST:]PORT): the table, its server
    started, each seat's link and QR code printed. ``ValueError`` with a sentence when the
    address cannot be listened on."""
    from haleakala.cli.host import print_qr
    from haleakala.web.host import HostView
    from haleakala.web.server import AddressError, parse_address

    out = out or sys.stdout
    try:
        host, port = parse_address(address)
    except AddressError as exc:
        raise ValueError(f"--web {exc}") from None
    table = KitTable(kit, start, kit.phones)
    table.outbox = lambda messages: kit.events.put(("send", messages))
    kit.lock = table.changed
    kit.after_change = table.sync
    view = HostView(table, host, port)
    try:
        view.start()
    except OSError as exc:
        raise ValueError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}): choose another port"
        ) from None
    for colour in table.phone_seats():
        url = view.seat_url(colour)
        print(f"\nphone seat {colour}: {url}", file=out)
        if out is sys.stdout:
            print_qr(url)
    out.flush()
    return view
