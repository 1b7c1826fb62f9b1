"""Kanaloa's legal decisions: the fish graph (N15, N40, N41) and the generator of each
decision point's codes (N13–N45), apart from the state changes in ``game``.

Functions of the game, bound on ``Game`` as methods (``self`` is the game): they only read
the position. The fish graph is kept as bit masks of out- and in-neighbours per island, so
strong connectivity is two bit-set closures over 12 islands.
"""

from __future__ import annotations

from .core import Core
from .material import KANE
from .state import (
    DOLPHIN,
    ENDSTEP,
    FISH,
    GIVE,
    KANALOA,
    KU,
    LAND,
    LONO,
    MAIN,
    OVER,
    REMOVE,
    ROB,
    SACRIFICE,
    START,
    SUPPLY,
    TAKE,
    VETO,
    VOLCANO,
)


class LegalRules(Core):
    """The fish graph and the legal decisions of ``Game``."""

    def _masks(self, extra: tuple[int, int] | None, mixed: bool, skip: int = -1):
        """Out- and in-neighbour bit masks of the islands along the fish (tail to head);
        with ``mixed`` empty currents count both ways; ``extra`` is (current, tail) in
        place of what lies there; ``skip`` leaves one current out."""
        out = [0] * len(self.m.islands)
        inn = out[:]
        ends, tails = self.m.currents, self.fish_tail
        for c in self.lay.currents:
            if c == skip:
                continue
            tail = extra[1] if extra is not None and extra[0] == c else tails[c]
            a, b = ends[c]
            if tail < 0:
                if mixed:
                    out[a] |= 1 << b
                    out[b] |= 1 << a
                    inn[a] |= 1 << b
                    inn[b] |= 1 << a
            elif tail == a:
                out[a] |= 1 << b
                inn[b] |= 1 << a
            else:
                out[b] |= 1 << a
                inn[a] |= 1 << b
        return out, inn

    @staticmethod
    def _reach(masks: list[int], start: int) -> int:
        seen = frontier = 1 << start
        while frontier:
            nxt = 0
            while frontier:
                low = frontier & -frontier
                nxt |= masks[low.bit_length() - 1]
                frontier ^= low
            frontier = nxt & ~seen
            seen |= nxt
        return seen

    @staticmethod
    def _reaches(masks: list[int], start: int, goal: int) -> bool:
        """``goal`` is reachable from ``start`` along ``masks`` (stops as soon as it is)."""
        want = 1 << goal
        seen = frontier = 1 << start
        while frontier:
            if seen & want:
                return True
            nxt = 0
            while frontier:
                low = frontier & -frontier
                nxt |= masks[low.bit_length() - 1]
                frontier ^= low
            frontier = nxt & ~seen
            seen |= nxt
        return bool(seen & want)

    def _strong(self, extra: tuple[int, int] | None = None, mixed: bool = False) -> bool:
        """N15: the islands in play strongly connected by the fish (tail to head). With
        ``mixed`` empty currents count both ways; ``extra`` is (current, tail) in place
        of what lies there."""
        out, inn = self._masks(extra, mixed)
        start = self.lay.islands[0]
        full = self.lay.mask
        return self._reach(out, start) == full and self._reach(inn, start) == full

    def _way_off(self, p: int, island: int, change: tuple[int, int, bool] | None = None) -> bool:
        """N41: some fish leaves ``island`` (tail there) showing white or p's colour; a
        ``change`` (current, tail, coloured) replaces that fish's state."""
        for c, _ in self.lay.adjacent[island]:
            tail, col = self.fish_tail[c], self.fish_col[c]
            if change is not None and change[0] == c:
                tail, col = change[1], change[2]
            if tail == island and (not col or self.fish_owner[c] == p):
                return True
        return False

    def _change_ok(self, cur: int, reverse: bool, fwd: list[int] | None = None) -> bool:
        """N40, N41, N31: may the Kanaloa player reverse or flip the fish on ``cur``?
        ``fwd``: the fish's out-masks (``_masks``), when the caller has them."""
        if self.n == 2:
            bar = self.barred()
            a, b = self.m.currents[cur]
            if bar[a] or bar[b]:
                return False
        tail, col = self.fish_tail[cur], self.fish_col[cur]
        if reverse:
            # A strongly connected map stays so when the fish a>b is reversed exactly when
            # a still reaches b without it.
            a, tail = self.fish_tail[cur], self.head(cur)
            if fwd is None:
                fwd = self._masks(None, False)[0]
            fwd[a] ^= 1 << tail
            still = self._reaches(fwd, a, tail)
            fwd[a] ^= 1 << tail
            if not still:
                return False
        else:
            col = not col
        ends = self.m.currents[cur]
        for q, locs in enumerate(self.loc):
            for x in locs:
                if x in ends and self._way_off(q, x) and not self._way_off(q, x, (cur, tail, col)):
                    return False
        return True

    def _generate(self) -> list[int]:
        ph, s, m, lay = self.phase, self.c.start, self.m, self.lay
        p = self.decider
        nt = len(m.tiles)
        out: list[int] = []
        if ph == OVER:
            return out
        if ph == FISH:  # N13–N16
            placer, neutral = self.placements[self.placed]
            sides = [m.colours.index(m.colours[2]) + 1] if neutral else [0, placer + 1]
            # The mixed graph (empty currents both ways) is strongly connected now (N15 keeps
            # it so); it stays so without the arc head>tail exactly when head still reaches tail.
            fwd, _ = self._masks(None, True)
            for c in lay.currents:
                if self.fish_tail[c] >= 0:
                    continue
                for heading, tail in enumerate(m.currents[c]):
                    head = m.currents[c][1 - heading]
                    fwd[head] ^= 1 << tail  # the empty current now runs tail>head only
                    if self._reaches(fwd, head, tail):
                        out += [s["fish"] + c * 10 + heading * 5 + side for side in sides]
                    fwd[head] ^= 1 << tail
            return out
        if ph == START:  # N17
            occ = self.occupied()
            return [s["start"] + i for i in lay.islands if not occ[i]]
        if ph == VOLCANO:  # N30
            if self.n == 2:
                return [s["sea"] + k for k in lay.sea]
            occ = self.occupied()
            return [s["volcano"] + i for i in lay.islands if not occ[i]]
        if ph == REMOVE:  # N20
            return [s["remove"] + (len(m.islands) if x == DOLPHIN else x) for x in self.loc[p]]
        if ph == LAND:  # N25, N31
            bar = self.barred()
            return [s["land"] + i for i in lay.islands if not bar[i]]
        if ph == GIVE:
            return [s["give"] + t for t in self.tiles[self.arrive]]
        if ph == ROB:  # N43: compulsory, out of turn
            v = self.victim
            return [s["rob"] + v * nt + t for t, k in enumerate(self.hands[v]) if k]
        if ph == TAKE:  # N26, N43 (the Ku player's own optional robbery), L3
            out = [s["take"] + t for t in self.tiles[self.arrive]]
            if self.gods[KU] == p and not self.action_used and not self.eruption_turn:
                for q in range(self.n):
                    if q != p and self.arrive in self.loc[q] and self.prot[KU] != q:
                        out += [s["rob"] + q * nt + t for t, k in enumerate(self.hands[q]) if k]
            return out
        if ph == MAIN:
            return self._main(p)
        if ph == SACRIFICE:  # N34
            g = self.sac_god
            gods = m.tile_gods
            out = [s["done"]]
            for t, k in enumerate(self.hands[p]):
                if k and (KANE in gods[t] or (g != KANE and g in gods[t])):
                    out.append(s["add"] + t)
            return out
        if ph == ENDSTEP:
            out = self._endstep_options(p)
            out.append(s["end"])
            return out
        if ph == VETO:  # N42
            return [s["allow"], s["forbid"]]
        return out

    def _main(self, p: int) -> list[int]:
        s, m, lay = self.c.start, self.m, self.lay
        nt = len(m.tiles)
        out: list[int] = []
        bar = self.barred()
        if self.gods[LONO] == p and not self.action_used and not self.eruption_turn:  # N44
            for c in lay.currents:
                a, b = m.currents[c]
                if (bar[a] and self.n == 2) or (bar[b] and self.n == 2):
                    continue
                for ta in set(self.tiles[a]):
                    for tb in set(self.tiles[b]):
                        if ta != tb:
                            out.append(s["swap"] + c * nt * nt + ta * nt + tb)
        for k, x in enumerate(self.loc[p]):
            if x < 0 or self.stun[p][k]:  # N32: a stunned piece does nothing
                continue
            moves = 0
            for c, other in lay.adjacent[x]:
                if self.fish_tail[c] != x:
                    continue
                shown = self.shows(c)
                if (shown == -1 or shown == p) and not bar[other]:  # N21
                    out.append(s["move"] + c * 2 + (0 if m.currents[c][0] == x else 1))
                    moves += 1
            if not moves:  # N22: blocked
                for c, _ in lay.adjacent[x]:
                    if self.fish_tail[c] == x and self.shows(c) not in (-1, p):  # N23
                        out.append(s["whiten"] + c * 2 + (0 if m.currents[c][0] == x else 1))
                out.append(s["dolphin"] + x)  # N24
        for t, k in enumerate(self.hands[p]):  # N34
            if k:
                for g in m.tile_gods[t]:
                    out.append(s["sacrifice"] + t * 5 + g)
        return out

    def _endstep_options(self, p: int) -> list[int]:
        """N18 step 7: the Kanaloa change (N40) and the second piece (N45), without ``end``."""
        s, lay = self.c.start, self.lay
        out: list[int] = []
        if self.gods[KANALOA] == p and not self.action_used and not self.eruption_turn:
            fwd = self._masks(None, False)[0]
            for c in lay.currents:
                if c in self.forbidden:
                    continue
                if self._change_ok(c, True, fwd):
                    out.append(s["reverse"] + c)
                if self._change_ok(c, False):
                    out.append(s["flip"] + c)
        if SUPPLY in self.loc[p] and (
            self.prot[LONO] == p
            or (
                self.gods[LONO] == p
                and self.temples[p][LONO] > 0
                and not self.action_used
                and not self.eruption_turn
            )
        ):
            occ, bar = self.occupied(), self.barred()
            out += [s["place"] + i for i in lay.islands if not occ[i] and not bar[i]]
        return out
