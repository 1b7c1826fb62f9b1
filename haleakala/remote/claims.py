"""Who hosts a table: a host kit's claim on ``presence/host``, and the answer to a claim that
is already there.

Why a liveness check: the retained claim a host finds when it starts may be a live host's
(then this kit must not host too), a crashed host's whose Last Will has not come yet, or a
stranger's replay of an old signed claim. A live host answers every other claim it sees by
claiming again; so a newcomer that finds a foreign claim publishes its own and waits
``GRACE_S``: a fresh claim of the other kit in that time means a live host (the newcomer
leaves, exit 2); silence means a dead or replayed claim, and the newcomer hosts. An
unsigned or wrongly signed claim is refused by the wire before it gets here, so a stranger
without the key cannot even cause the wait.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

GRACE_S = 5.0
"""How long a live host has to answer a newcomer's claim (its loop reads events twice a
second; a loaded Pi and a public broker's round trip fit well within this)."""


@dataclass(frozen=True)
class Claim:
    kit: str
    session: str
    tick: int


class HostClaim:
    """The host's side: ``seen(claim, online)`` for every signed presence on
    ``presence/host``, ``due()`` from the loop; ``established`` once this kit hosts,
    ``refused`` (a sentence) when a live host is there."""

    def __init__(self, kit: str, session: str, table: str, clock: Callable[[], float]) -> None:
        self.kit, self.session, self.table, self.clock = kit, session, table, clock
        self.established = False
        self.refused = ""
        self.rival: Claim | None = None
        self.echoed = False
        self.since: float | None = None  # when our own claim came back with a rival there

    def seen(self, claim: Claim, online: bool) -> str:
        """Judge one claim; returns what to do: "host" (this kit hosts now), "reclaim"
        (another kit tried: claim again), "check" (wait for the rival's answer), "leave"
        (a live host answered: ``refused`` says so) or ""."""
        ours = claim.session == self.session
        if self.established:
            if not ours and online and claim.kit != self.kit:
                return "reclaim"
            return ""
        if ours:
            if not online or self.echoed:
                return ""
            self.echoed = True
            if self.rival is None:
                self.established = True
                return "host"
            self.since = self.clock()
            return "check"
        if claim.kit == self.kit:
            return ""  # this kit's own earlier run (a restart): its claim is ours to take
        if not online:
            if self.rival is not None and claim.session == self.rival.session:
                self.rival = None  # it went away meanwhile
                if self.echoed:
                    self.established = True
                    return "host"
            return ""
        if self.echoed and self.rival is not None and claim.session == self.rival.session:
            if claim.tick > self.rival.tick:  # it answered our claim: alive
                self.refused = (
                    f"table {self.table} already has a host (kit {claim.kit}): join it with "
                    "--seat and without --host, or choose another table"
                )
                return "leave"
            return ""
        if not self.echoed:
            self.rival = claim
        elif self.rival is None:
            self.rival = claim  # a claim after ours: the same check
            self.since = self.clock()
            return "check"
        return ""

    def due(self) -> str:
        """ "host" once the rival has had ``GRACE_S`` to answer and did not."""
        if self.established or self.since is None or self.refused:
            return ""
        if self.clock() - self.since >= GRACE_S:
            self.established = True
            return "host"
        return ""
