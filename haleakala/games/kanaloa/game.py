"""The state of a game of Kanaloa and the rules that change it: pure, no I/O, no clock.

Same shape as the other games behind ``haleakala.gameapi.GameState``: int decision codes
inside (``notation``), canonical text outside, ``apply`` returns the automatic events that
followed (turns, draws, the reserve, eruptions, stuns, lost turns, the volcano's removal,
temples, cards, the result). Rulings N1–N52 of KANALOA-RULINGS.md, and the local ones in
docs/KANALOA-LOCAL-RULINGS.md (L1..), are cited where they are enforced.

Representation: short int lists (fish per current, pieces per player, hands as counts per
tile code) so that ``clone`` is a handful of list copies. All chance is the deal (N8), fixed
at setup; a state never carries a generator. The position is ``core.Core``; the legal
decisions and the fish graph (``legal``), sacrifices and cards (``cards``) and the automatic
steps (``turns``) are mixins on it, so a module stays one concern (and under 600 lines).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from haleakala.core.refusal import Refusal
from haleakala.core.text import N_

from .cards import CardRules
from .events import Event, Stunned
from .legal import LegalRules
from .notation import NotationError, format_decision, parse_decision
from .refusals import refusal
from .state import (
    DOLPHIN,
    GIVE,
    KANALOA,
    KU,
    LONO,
    NOBODY,
    OVER,
    PELE,
    ROB,
    SACRIFICE,
    SEA,
    START,
    SUPPLY,
    TAKE,
    VETO,
    IllegalDecision,
    Result,
)
from .turns import TurnRules

# How a game is saved and identified lives in ``serialize``, and what a player may see in
# ``hidden``; both import this module, so this module does not import them back (no import
# cycle, not even at call time). They hand their functions over with ``use_codec`` when
# imported, which the package's ``__init__`` does before anyone can hold a game (as Kahuna).
_CODEC: dict[str, Callable[..., Any]] = {}


def use_codec(**functions: Callable[..., Any]) -> None:
    """Called once by ``serialize`` (digest, to_json, from_json) and ``hidden``
    (observation, determinize, evaluate)."""
    _CODEC.update(functions)


class Game(LegalRules, CardRules, TurnRules):
    """A game of Kanaloa for 2, 3 or 4 players (red, yellow, green, blue in seat order)."""

    game_name: ClassVar[str] = "kanaloa"

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

    def refusal(self, decision: int | str, player: str | None = None) -> Refusal | None:
        """None when the decision is legal now (for ``player``, if given); else why not, as
        a value (``refusals``): a kind and the ruling for programs, words that name the
        ruling for people, rendered in each viewer's language."""
        return refusal(self, decision, player)

    def why_illegal(self, decision: int | str, player: str | None = None) -> str | None:
        """None when the decision is legal now; else the English sentence naming the ruling
        (``refusal``'s text: logs, the replayer, tests)."""
        refused = refusal(self, decision, player)
        return None if refused is None else refused.text

    # -- applying decisions -------------------------------------------------------------

    def apply(self, decision: int | str, player: str | None = None) -> list[Event]:
        """Apply one decision and its automatic effects; return the events (``events``:
        frozen values, each with its log record), in the order of KANALOA-NOTATION: turns,
        draws, volcano tiles, the reserve, eruptions, stuns, lost turns, the volcano's
        removal, temples, cards, the result. Raises ``IllegalDecision`` (state unchanged)
        carrying the ``Refusal`` when the decision is not allowed."""
        if isinstance(decision, int):
            d = decision
        else:
            try:
                d = parse_decision(decision, self.m)
            except NotationError as exc:
                refused = Refusal("notation", exc.words, exc.ruling or "N52")
                raise IllegalDecision(refused.text, refused) from None
        if (player is not None and player != self.to_move) or d not in self.legal_actions():
            refused = refusal(self, d, player) or Refusal.of(
                "not_allowed", N_("not legal now (N52)"), "N52")  # fmt: skip
            raise IllegalDecision(refused.text, refused)
        self._legal = None
        self.history.append(d)
        ev: list[Event] = []
        kind, i = self.c.kind(d)
        getattr(self, "_do_" + kind)(i, ev)
        return ev

    def _do_fish(self, i: int, ev: list[Event]) -> None:
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

    def _do_start(self, i: int, ev: list[Event]) -> None:
        self.loc[self.decider][0] = i
        self.placed += 1
        if self.placed < self.n:
            self.decider = (self.decider + 1) % self.n
        else:
            self._begin_turn(self.gods[KU], False, ev)  # N17: the Ku player begins

    def _do_volcano(self, i: int, ev: list[Event]) -> None:
        self._place_volcano(i, [x for _, x in self.lay.adjacent[i]], ev)

    def _do_sea(self, i: int, ev: list[Event]) -> None:
        self._place_volcano(SEA + i, list(self.lay.affected[i]), ev)

    def _place_volcano(self, where: int, hit: list[int], ev: list[Event]) -> None:
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
                    ev.append(Stunned(q, x))
        self._after_volcano(ev)

    def _do_remove(self, i: int, ev: list[Event]) -> None:
        p = self.current
        x = DOLPHIN if i == len(self.m.islands) else i
        locs = self.loc[p]
        # L2: of two pieces on one island the stunned one goes back to the supply.
        k = 0 if locs[0] == x and (locs[1] != x or self.stun[p][0]) else 1
        locs[k], self.stun[p][k] = SUPPLY, False
        self._after_upkeep(ev)

    def _do_land(self, i: int, ev: list[Event]) -> None:
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

    def _do_give(self, i: int, ev: list[Event]) -> None:
        x = self.arrive
        self.tiles[x].remove(i)
        self.spent[i] += 1
        self._refill(x, ev)
        if self.phase != OVER:
            self._end_turn(ev)  # N25: the landing is the whole turn

    def _do_swap(self, i: int, ev: list[Event]) -> None:
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

    def _do_move(self, i: int, ev: list[Event]) -> None:
        c, heading = divmod(i, 2)
        a, b = self.m.currents[c]
        tail, head = (a, b) if heading == 0 else (b, a)
        p = self.current
        self.loc[p][self._piece_at(p, tail)] = head
        self.fish_col[c] = not self.fish_col[c]  # N21: turned over, same heading
        self._arrive(head, TAKE)

    def _do_rob(self, i: int, ev: list[Event]) -> None:
        q, t = divmod(i, len(self.m.tiles))
        ku = self.gods[KU]
        self.hands[q][t] -= 1
        self.hands[ku][t] += 1
        if ku == self.current:
            self.action_used = True  # N19: his own robbery is his gods card action
        self.phase, self.decider = self.after_rob if self.phase == ROB else TAKE, self.current

    def _do_take(self, i: int, ev: list[Event]) -> None:
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

    def _do_whiten(self, i: int, ev: list[Event]) -> None:
        self.fish_col[i // 2] = False  # N23
        self._endstep(ev)

    def _do_dolphin(self, i: int, ev: list[Event]) -> None:
        p = self.current
        self.loc[p][self._piece_at(p, i)] = DOLPHIN  # N24
        self._endstep(ev)

    def _do_sacrifice(self, i: int, ev: list[Event]) -> None:
        t, g = divmod(i, 5)
        self.hands[self.current][t] -= 1
        self.sac_god, self.sac_tiles = g, [t]
        self.phase = SACRIFICE

    def _do_add(self, i: int, ev: list[Event]) -> None:
        self.hands[self.current][i] -= 1
        self.sac_tiles.append(i)

    def _do_reverse(self, i: int, ev: list[Event]) -> None:
        self._propose(self.c.start["reverse"] + i, i, ev)

    def _do_flip(self, i: int, ev: list[Event]) -> None:
        self._propose(self.c.start["flip"] + i, i, ev)

    def _propose(self, code: int, cur: int, ev: list[Event]) -> None:
        """N42: a fish of the Kanaloa protection holder's colour waits for his word."""
        r = self.prot[KANALOA]
        if self.n == 4 and r != NOBODY and self.fish_owner[cur] == r:
            self.pending, self.phase, self.decider = code, VETO, r
        else:
            self._change(code, ev)

    def _change(self, code: int, ev: list[Event]) -> None:
        kind, cur = self.c.kind(code)
        if kind == "reverse":
            self.fish_tail[cur] = self.head(cur)
        else:
            self.fish_col[cur] = not self.fish_col[cur]
        self.action_used = True  # N19, N40
        self._endstep(ev)

    def _do_allow(self, i: int, ev: list[Event]) -> None:
        code, self.pending = self.pending, -1
        self.decider = self.current
        self._change(code, ev)

    def _do_forbid(self, i: int, ev: list[Event]) -> None:
        _, cur = self.c.kind(self.pending)
        self.forbidden.append(cur)  # N42: not again this turn, in either way
        self.pending = -1
        self.decider = self.current
        self._endstep(ev)

    def _do_place(self, i: int, ev: list[Event]) -> None:
        p = self.current
        self.loc[p][self.loc[p].index(SUPPLY)] = i
        if self.prot[LONO] != p:
            self.action_used = True  # N19: the gods card placement
        self._endstep(ev)

    def _do_end(self, i: int, ev: list[Event]) -> None:
        self._end_turn(ev)

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

    def seen_decision(self, text: str, decider: int, viewer: int | None) -> str:
        """The text ``viewer`` (a seat; None: a watcher) may see of ``decider``'s decision
        ``text``: every decision of this game is public, so all of it."""
        return text

    def digest(self) -> str:
        return _CODEC["digest"](self)

    def to_json(self) -> str:
        return _CODEC["to_json"](self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        return _CODEC["from_json"](text)

    def format(self, action: int) -> str:
        return format_decision(action, self.m)

    def parse(self, text: str) -> int:
        return parse_decision(text, self.m)

    # -- hidden information (N12): in ``hidden`` ----------------------------------------

    def observation(self, player: int) -> dict:
        return _CODEC["observation"](self, player)

    def determinize(self, observer: int, rng: Any) -> Game:
        return _CODEC["determinize"](self, observer, rng)

    def evaluate(self, player: int) -> float:
        return _CODEC["evaluate"](self, player)

    def __repr__(self) -> str:
        return (
            f"<Kanaloa seed={self.seed} players={self.n} turn={self.turn} {self.phase_name} "
            f"{self.to_move} decisions={len(self.history)}>"
        )
