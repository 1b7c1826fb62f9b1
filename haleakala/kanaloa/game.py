"""The state of a game of Kanaloa and the rules that change it: pure, no I/O, no clock.

Same shape as the other games behind ``haleakala.gameapi.GameState``: int decision codes
inside (``notation``), canonical text outside, ``apply`` returns the automatic events that
followed (turns, draws, the reserve, eruptions, stuns, lost turns, the volcano's removal,
temples, cards, the result). Rulings N1–N52 of KANALOA-RULINGS.md, and the local ones in
docs/KANALOA-LOCAL-RULINGS.md (L1..), are cited where they are enforced.

Representation: short int lists (fish per current, pieces per player, hands as counts per
tile code) so that ``clone`` is a handful of list copies. All chance is the deal (N8), fixed
at setup; a state never carries a generator. The legal decisions and the fish graph live in
``legal``, sacrifices and cards in ``cards``, the automatic steps in ``turns``; each is bound
here as methods, so a module stays one concern (and under the project's 600 lines).
"""

from __future__ import annotations

from typing import Any, ClassVar

from .cards import card, do_done, next_in_line, settle, too_much_kane
from .legal import (
    change_ok,
    endstep_options,
    generate,
    main_options,
    masks,
    reach,
    strong,
    way_off,
)
from .material import KANE, Material, default_material
from .notation import NotationError, codes_for, format_decision, parse_decision
from .state import (
    DOLPHIN,
    FISH,
    GIVE,
    KANALOA,
    KU,
    LONO,
    NOBODY,
    OVER,
    PELE,
    PHASE_NAMES,
    ROB,
    SACRIFICE,
    SEA,
    START,
    SUPPLY,
    TAKE,
    VETO,
    Deal,
    IllegalDecision,
    Result,
    deal,
    score,
)
from .turns import after_upkeep, after_volcano, begin_turn, end_turn, endstep, finish, refill


class Game:
    """A game of Kanaloa for 2, 3 or 4 players (red, yellow, green, blue in seat order)."""

    game_name: ClassVar[str] = "kanaloa"

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

    # -- the fish graph and legal decisions: in ``legal``, bound here -------------------

    _masks = masks
    _reach = staticmethod(reach)
    _strong = strong
    _way_off = way_off
    _change_ok = change_ok
    _generate = generate
    _main = main_options
    _endstep_options = endstep_options

    # -- legal decisions --------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Ascending codes of the legal decisions; cached until the next ``apply``."""
        legal = self._legal
        if legal is None:
            legal = self._legal = sorted(set(self._generate()))
        return legal

    def legal_decisions(self) -> list[str]:
        """The legal list of N52: the canonical texts, sorted by code point."""
        return sorted(format_decision(a, self.m) for a in self.legal_actions())

    # -- explaining refusals ----------------------------------------------------------

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        """None when the decision is legal now; else a sentence naming the ruling."""
        try:
            d = decision if isinstance(decision, int) else parse_decision(decision, self.m)
            text = format_decision(d, self.m)
        except NotationError as exc:
            return str(exc)
        if self.phase == OVER:
            return "the game is over (N47)"
        me = self.players[self.decider]
        if player is not None and player != me:
            return f"{me} decides now, not {player} (N52)"
        if d in self.legal_actions():
            return None
        from .refusals import reason

        return reason(self, d, text)

    # -- applying decisions -------------------------------------------------------------

    def apply(self, decision: int | str, player: str | None = None) -> list[tuple]:
        """Apply one decision and its automatic effects; return the events, in the order of
        KANALOA-NOTATION: ``("turn", number, p, eruption)``, ``("draw", tile, island)``,
        ``("volcano tile", count)``, ``("reserve", tiles)``, ``("eruption", count, p)``,
        ``("stun", p, island)``, ``("lost", p)``, ``("removed", where)``, ``("temple", p,
        god, value)``, ``("card", kind, god, from, to)``, ``("result", Result)``. Raises
        ``IllegalDecision`` (state unchanged) with the reason when not allowed."""
        if isinstance(decision, int):
            d = decision
        else:
            try:
                d = parse_decision(decision, self.m)
            except NotationError as exc:
                raise IllegalDecision(str(exc)) from None
        if (player is not None and player != self.to_move) or d not in self.legal_actions():
            raise IllegalDecision(self.why_illegal(d, player) or "not legal now (N52)")
        self._legal = None
        self.history.append(d)
        ev: list[tuple] = []
        kind, i = self.c.kind(d)
        getattr(self, "_do_" + kind)(i, ev)
        return ev

    def _do_fish(self, i: int, ev: list[tuple]) -> None:
        c, rest = divmod(i, 10)
        heading, side = divmod(rest, 5)
        a, b = self.m.currents[c]
        placer, neutral = self.placements[self.placed]
        self.fish_tail[c] = a if heading == 0 else b
        self.fish_owner[c] = 2 if neutral else placer  # N7: neutral fish are the 3rd colour
        self.fish_col[c] = side != 0
        self.placed += 1
        if self.placed < len(self.placements):
            self.decider = self.placements[self.placed][0]
        else:  # N17: first pieces, Ku holder first
            self.phase = START
            self.placed = 0
            self.decider = self.gods[KU]

    def _do_start(self, i: int, ev: list[tuple]) -> None:
        self.loc[self.decider][0] = i
        self.placed += 1
        if self.placed < self.n:
            self.decider = (self.decider + 1) % self.n
        else:
            self._begin_turn(self.gods[KU], False, ev)  # N17: the Ku player begins

    def _do_volcano(self, i: int, ev: list[tuple]) -> None:
        self._place_volcano(i, [x for _, x in self.lay.adjacent[i]], ev)

    def _do_sea(self, i: int, ev: list[tuple]) -> None:
        self._place_volcano(SEA + i, list(self.lay.affected[i]), ev)

    def _place_volcano(self, where: int, hit: list[int], ev: list[tuple]) -> None:
        """N30, N32: place it, stun the pieces next to it (or on the affected islands)."""
        p = self.current
        self.volcano, self.placer, self.volcano_turns = where, p, 0
        self.action_used = True  # N19
        hit_set = set(hit)
        for q in range(self.n):
            if self.n == 4 and (
                self.prot[PELE] == q or (self.gods[PELE] == q and self.temples[q][PELE] > 0)
            ):
                continue  # N32, N46: exempt with four players only
            for k in sorted(range(2), key=lambda k: self.loc[q][k]):
                x = self.loc[q][k]
                if x >= 0 and x in hit_set and not self.stun[q][k]:
                    self.stun[q][k] = True
                    ev.append(("stun", q, x))
        self._after_volcano(ev)

    def _do_remove(self, i: int, ev: list[tuple]) -> None:
        p = self.current
        x = DOLPHIN if i == len(self.m.islands) else i
        locs = self.loc[p]
        # L2: of two pieces on one island the stunned one goes back to the supply.
        k = 0 if locs[0] == x and (locs[1] != x or self.stun[p][0]) else 1
        locs[k], self.stun[p][k] = SUPPLY, False
        self._after_upkeep(ev)

    def _do_land(self, i: int, ev: list[tuple]) -> None:
        p = self.current
        k = self.loc[p].index(DOLPHIN)
        self.loc[p][k] = i
        self._arrive(i, GIVE)

    def _arrive(self, x: int, then: int) -> None:
        """N43: a robbery by the Ku player when a piece arrives where he stands."""
        p, ku = self.current, self.gods[KU]
        self.arrive = x
        if (
            ku not in (NOBODY, p)
            and self.prot[KU] != p
            and any(self.hands[p])
            and any(self.loc[ku][k] == x and not self.stun[ku][k] for k in range(2))
        ):
            self.phase, self.victim, self.after_rob, self.decider = ROB, p, then, ku
        else:
            self.phase = then

    def _do_give(self, i: int, ev: list[tuple]) -> None:
        x = self.arrive
        self.tiles[x].remove(i)
        self.spent[i] += 1
        self._refill(x, ev)
        if self.phase != OVER:
            self._end_turn(ev)  # N25: the landing is the whole turn

    def _do_swap(self, i: int, ev: list[tuple]) -> None:
        nt = len(self.m.tiles)
        c, rest = divmod(i, nt * nt)
        ta, tb = divmod(rest, nt)
        a, b = self.m.currents[c]
        self.tiles[a].remove(ta)
        self.tiles[b].remove(tb)
        self.tiles[a] = sorted(self.tiles[a] + [tb])
        self.tiles[b] = sorted(self.tiles[b] + [ta])
        self.action_used = True  # N19, N44

    def _piece_at(self, p: int, x: int) -> int:
        """Index of p's piece on x that can act (not stunned)."""
        locs, st = self.loc[p], self.stun[p]
        return 0 if locs[0] == x and not st[0] else 1

    def _do_move(self, i: int, ev: list[tuple]) -> None:
        c, heading = divmod(i, 2)
        a, b = self.m.currents[c]
        tail, head = (a, b) if heading == 0 else (b, a)
        p = self.current
        self.loc[p][self._piece_at(p, tail)] = head
        self.fish_col[c] = not self.fish_col[c]  # N21: turned over, same heading
        self._arrive(head, TAKE)

    def _do_rob(self, i: int, ev: list[tuple]) -> None:
        q, t = divmod(i, len(self.m.tiles))
        ku = self.gods[KU]
        self.hands[q][t] -= 1
        self.hands[ku][t] += 1
        if ku == self.current:
            self.action_used = True  # N19: his own robbery is his gods card action
        self.phase, self.decider = self.after_rob if self.phase == ROB else TAKE, self.current

    def _do_take(self, i: int, ev: list[tuple]) -> None:
        x, p = self.arrive, self.current
        self.tiles[x].remove(i)
        self.hands[p][i] += 1
        self._refill(x, ev)
        if self.phase == OVER:
            return
        if self.eruption_due:
            self._end_turn(ev)  # N29: no end step
        else:
            self._endstep(ev)

    def _do_whiten(self, i: int, ev: list[tuple]) -> None:
        self.fish_col[i // 2] = False  # N23
        self._endstep(ev)

    def _do_dolphin(self, i: int, ev: list[tuple]) -> None:
        p = self.current
        self.loc[p][self._piece_at(p, i)] = DOLPHIN  # N24
        self._endstep(ev)

    def _do_sacrifice(self, i: int, ev: list[tuple]) -> None:
        t, g = divmod(i, 5)
        self.hands[self.current][t] -= 1
        self.sac_god, self.sac_tiles = g, [t]
        self.phase = SACRIFICE

    def _do_add(self, i: int, ev: list[tuple]) -> None:
        self.hands[self.current][i] -= 1
        self.sac_tiles.append(i)

    # -- sacrifices and cards: in ``cards``, bound here ---------------------------------

    _do_done = do_done
    _card = card
    _settle = settle
    _next_in_line = next_in_line
    _too_much_kane = too_much_kane

    def _do_reverse(self, i: int, ev: list[tuple]) -> None:
        self._propose(self.c.start["reverse"] + i, i, ev)

    def _do_flip(self, i: int, ev: list[tuple]) -> None:
        self._propose(self.c.start["flip"] + i, i, ev)

    def _propose(self, code: int, cur: int, ev: list[tuple]) -> None:
        """N42: a fish of the Kanaloa protection holder's colour waits for his word."""
        r = self.prot[KANALOA]
        if self.n == 4 and r != NOBODY and self.fish_owner[cur] == r:
            self.pending, self.phase, self.decider = code, VETO, r
        else:
            self._change(code, ev)

    def _change(self, code: int, ev: list[tuple]) -> None:
        kind, cur = self.c.kind(code)
        if kind == "reverse":
            self.fish_tail[cur] = self.head(cur)
        else:
            self.fish_col[cur] = not self.fish_col[cur]
        self.action_used = True  # N19, N40
        self._endstep(ev)

    def _do_allow(self, i: int, ev: list[tuple]) -> None:
        code, self.pending = self.pending, -1
        self.decider = self.current
        self._change(code, ev)

    def _do_forbid(self, i: int, ev: list[tuple]) -> None:
        _, cur = self.c.kind(self.pending)
        self.forbidden.append(cur)  # N42: not again this turn, in either way
        self.pending = -1
        self.decider = self.current
        self._endstep(ev)

    def _do_place(self, i: int, ev: list[tuple]) -> None:
        p = self.current
        self.loc[p][self.loc[p].index(SUPPLY)] = i
        if self.prot[LONO] != p:
            self.action_used = True  # N19: the gods card placement
        self._endstep(ev)

    def _do_end(self, i: int, ev: list[tuple]) -> None:
        self._end_turn(ev)

    # -- automatic steps: in ``turns``, bound here ----------------------------------------

    _refill = refill
    _endstep = endstep
    _end_turn = end_turn
    _begin_turn = begin_turn
    _after_volcano = after_volcano
    _after_upkeep = after_upkeep
    _finish = finish

    def result(self) -> Result | None:
        return self.outcome

    def returns(self) -> tuple[float, ...]:
        """1/k for each of k winners, 0 for the others, 1/n each while the game runs."""
        r = self.outcome
        if r is None:
            return tuple(1.0 / self.n for _ in range(self.n))
        share = 1.0 / len(r.winners)
        return tuple(share if p in r.winners else 0.0 for p in range(self.n))

    # -- copies, identity, notation -------------------------------------------------------

    def clone(self) -> Game:
        g = Game.__new__(Game)
        d = g.__dict__
        d.update(self.__dict__)
        g.tiles = [t[:] for t in self.tiles]
        g.bag = self.bag[:]
        g.reserve = None if self.reserve is None else self.reserve[:]
        g.gods = self.gods[:]
        g.prot = self.prot[:]
        g.hands = [h[:] for h in self.hands]
        g.temples = [t[:] for t in self.temples]
        g.spent = self.spent[:]
        g.fish_tail = self.fish_tail[:]
        g.fish_owner = self.fish_owner[:]
        g.fish_col = self.fish_col[:]
        g.loc = [x[:] for x in self.loc]
        g.stun = [x[:] for x in self.stun]
        g.forbidden = self.forbidden[:]
        g.sac_tiles = self.sac_tiles[:]
        g.history = self.history[:]
        return g

    def digest(self) -> str:
        from .serialize import digest

        return digest(self)

    def to_json(self) -> str:
        from .serialize import to_json

        return to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        from .serialize import from_json

        return from_json(text)

    def format(self, action: int) -> str:
        return format_decision(action, self.m)

    def parse(self, text: str) -> int:
        return parse_decision(text, self.m)

    # -- hidden information (N12): in ``hidden`` ----------------------------------------

    def observation(self, player: int) -> dict:
        from .hidden import observation

        return observation(self, player)

    def determinize(self, observer: int, rng: Any) -> Game:
        from .hidden import determinize

        return determinize(self, observer, rng)

    def evaluate(self, player: int) -> float:
        from .hidden import evaluate

        return evaluate(self, player)

    def __repr__(self) -> str:
        return (
            f"<Kanaloa seed={self.seed} players={self.n} turn={self.turn} {self.phase_name} "
            f"{self.to_move} decisions={len(self.history)}>"
        )
