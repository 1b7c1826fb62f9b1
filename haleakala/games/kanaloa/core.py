"""The Kanaloa position: its state (set up from N8's deal) and the facts read from it.

The base of ``Game``: the rules that change the position are mixed in from ``legal`` (the
fish graph and the legal decisions), ``cards`` (sacrifices and cards), ``turns`` (the
automatic steps) and ``game`` (the decisions). Each reads the state declared here, so none
of them imports another, and a module stays one concern.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .material import Material, default_material
from .notation import codes_for
from .state import (
    FISH,
    KANE,
    KU,
    LONO,
    NOBODY,
    OVER,
    PHASE_NAMES,
    SEA,
    SUPPLY,
    TAKE,
    Deal,
    Result,
    deal,
    score,
)


class Core:
    """The position of a game of Kanaloa; ``Game`` adds the rules."""

    def __init__(
        self,
        seed: int = 0,
        players: int = 4,
        material: Material | None = None,
        dealt: Deal | None = None,
        start: str | None = None,
    ):
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise ValueError(f"Kanaloa is for 2, 3 or 4 players, not {players!r} (N9)")
        if start is not None:
            raise ValueError("Kanaloa has no --start: the Ku player begins (N13, N17)")
        m = self.m = material or default_material()
        self.n = players
        self.players: tuple[str, ...] = m.colours[:players]
        self.seed = seed
        self.lay = m.layout(players)
        self.c = codes_for(m)
        self.volcano_tile = len(m.tiles)
        self.end_count = m.volcano_tiles(players)  # N47
        d = self.dealt = dealt or deal(m, players, seed)
        nt = len(m.tiles)
        self.tiles: list[list[int]] = [sorted(d.tiles.get(i, [])) for i in range(len(m.islands))]
        self.reserve: list[int] | None = list(d.reserve)
        self.bag: list[int] = list(d.bag)
        self.setup_gods = [list(g) for g in d.gods]
        self.gods = [NOBODY] * 4  # holder of each gods card (N10)
        for p, held in enumerate(d.gods):
            for g in held:
                self.gods[g] = p
        self.prot = [NOBODY] * 4  # protection cards, four players only (N10, N49)
        self.hands = [[0] * nt for _ in range(players)]
        self.temples = [[0] * 5 for _ in range(players)]
        self.spent = [0] * nt  # sacrificed or given to the Dolphin: out of the game
        ncur = len(m.currents)
        self.fish_tail = [-1] * ncur  # island at the tail, -1: no fish
        self.fish_owner = [-1] * ncur  # colour index of the fish's coloured side
        self.fish_col = [False] * ncur  # coloured side up
        self.loc = [[SUPPLY, SUPPLY] for _ in range(players)]
        self.stun = [[False, False] for _ in range(players)]
        self.volcanoes = 0
        self.volcano = -1  # island, SEA + sea space, or -1
        self.placer = -1  # N30: "the Pele player" of the volcano on the map
        self.volcano_turns = 0  # N33: the placer's turns ended since placing it
        self.eruption_due = False
        self.erupt_count = 0
        self.turn = 0
        self.current = self.decider = self.gods[KU]
        self.eruption_turn = False
        self.action_used = False  # N19
        self.forbidden: list[int] = []  # N42: fish vetoed this turn
        self.pending = -1  # N42: the proposed change's code during a veto
        self.sac_god = -1
        self.sac_tiles: list[int] = []
        self.arrive = -1  # the island moved or landed on
        self.victim = -1  # N43: the player the Ku player must rob
        self.after_rob = TAKE
        ku = self.gods[KU]
        order = [(ku + i) % players for i in range(players)]
        if players == 2:  # N13: the neutral fish first, Ku holder first
            self.placements = [(p, True) for p in order] + [(p, False) for p in order] * 7
        else:
            self.placements = [(p, False) for p in order] * 7
        self.placed = 0
        self.phase = FISH
        self.decider = self.placements[0][0]
        self.outcome: Result | None = None
        self.history: list[int] = []
        self.snapshots = False
        self._legal: list[int] | None = None

    # -- whose decision ---------------------------------------------------------------

    @property
    def to_move(self) -> str | None:
        return None if self.phase == OVER else self.players[self.decider]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # -- facts about the position -------------------------------------------------------

    def barred(self) -> list[bool]:
        """N31: islands nobody may enter (the volcano island, or a sea space's islands)."""
        out = [False] * len(self.m.islands)
        v = self.volcano
        if v >= SEA:
            for i in self.lay.affected[v - SEA]:
                out[i] = True
        elif v >= 0:
            out[v] = True
        return out

    def occupied(self) -> list[bool]:
        out = [False] * len(self.m.islands)
        for locs in self.loc:
            for x in locs:
                if x >= 0:
                    out[x] = True
        return out

    def shows(self, cur: int) -> int:
        """The colour a fish shows: -1 white, else its owner's colour index."""
        return self.fish_owner[cur] if self.fish_col[cur] else -1

    def head(self, cur: int) -> int:
        a, b = self.m.currents[cur]
        return b if self.fish_tail[cur] == a else a

    def lono_card(self, p: int) -> bool:
        return self.gods[LONO] == p or self.prot[LONO] == p

    def eligible(self, p: int, g: int) -> bool:  # N35
        t = self.temples[p]
        return t[g] >= t[KANE]

    def hand_tiles(self, p: int) -> list[str]:
        names = self.m.tiles
        return [names[t] for t, k in enumerate(self.hands[p]) for _ in range(k)]

    def scores(self) -> tuple[int, ...]:
        return tuple(score(t) for t in self.temples)

    # -- rules of the mixins that others call: declared for the type checker only; the
    # one class that is ever built, ``game.Game``, takes them from ``legal``, ``turns`` and
    # itself (a ``Core`` alone is never made).
    if TYPE_CHECKING:

        def _endstep_options(self, p: int) -> list[int]: ...

        # ``ev`` holds ``events.Event`` values; named loosely, as ``events`` reads ``Core``.
        def _endstep(self, ev: list[Any]) -> None: ...

        def _end_turn(self, ev: list[Any]) -> None: ...

        def clone(self) -> Core: ...

        def legal_actions(self) -> list[int]: ...
