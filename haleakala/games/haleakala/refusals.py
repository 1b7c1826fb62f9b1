"""Refusals: why a decision the rules do not allow now is refused, as a ``Refusal`` whose
``kind`` and ``ruling`` programs match and whose sentence a player reads.

Every sentence follows one pattern, because a refused player needs three things: which rule
(its number in RULINGS.md, so a dispute can be looked up), what the rule says in the words
of the game, and what to do instead (a legal decision, in notation, taken from the legal
list so it is never wrong). The refused player is addressed as "you"; the other player by
colour.

Each message is a function of its own that takes its counts as parameters and chooses the
singular or plural sentence through ``ngettext`` (same signature as ``gettext.ngettext``),
so the translation issue can swap in a catalog without rewriting any message.

Apart from ``game`` because the explanations are long and change for wording, never for the
rules; ``reason`` takes the game as ``self`` and is bound as ``Game._reason``, naming only
what it reads (``Position``), so this module does not import ``game``.
"""

from __future__ import annotations

from haleakala.core.text import Param, Term, Text

from .decision import N_, Refusal
from .deck import BOARD_ITEMS
from .legal import generate
from .messages import discs_left_in_supply as discs_left_in_supply
from .messages import either, shells_too_few
from .messages import game_over as game_over
from .messages import ngettext as ngettext
from .messages import not_your_decision as not_your_decision
from .notation import (
    BOAT,
    BUY,
    KEEP,
    LAVA,
    LAVA_NONE,
    PASS,
    PLACE,
    RETURN,
    SHAMAN,
    STAY,
    TAKE,
    format_decision,
)
from .state import (
    CHOOSE_CARD,
    FACE_DOWN,
    MOVE_SHAMAN,
    NO_OWNER,
    PLAYERS,
    PRESCORE,
    PRIESTESS,
    SHELL,
    TURN,
    Position,
)

BANDS = (N_("grassland"), N_("forest"), N_("mountain"))


# -- helpers that find a legal alternative ---------------------------------------------


def _texts(self: Position, codes: list[int]) -> list[Param]:
    return [format_decision(c, self.board) for c in codes]


def _turn_instead(
    self: Position, legal: list[int], near: int | None = None, value: int = 0
) -> Text:
    """``instead ...``: legal turn actions, the same disc or the same beach first."""
    options = _turn_options(self, legal, near, value)
    return (
        Text.of(N_("instead {options}"), options=options)
        if options
        else Text(N_("no turn action is possible now"))
    )


def _turn_options(self: Position, legal: list[int], near: int | None, value: int) -> Param:
    places = [c for c in legal if c < RETURN]
    returns = [c for c in legal if RETURN <= c < BOAT]
    options: list[Param] = []
    same_beach = [c for c in places if near is not None and c % 10 == near and c < 100]
    same_disc = [c for c in places if value and c % 100 // 10 == value and c < 100]
    if same_beach:
        options.append(
            Text.of(N_("place another disc here ({texts})"), texts=_texts(self, same_beach[:1])[0])
        )
    if same_disc and value:
        options.append(
            Text.of(
                N_("place {value} on another beach ({texts})"),
                value=value,
                texts=_texts(self, same_disc[:1])[0],
            )
        )
    if not options and places:
        options.append(Text.of(N_("place a disc ({texts})"), texts=_texts(self, places[:1])[0]))
    if returns:
        options.append(Text.of(N_("take one back ({texts})"), texts=_texts(self, returns[:1])[0]))
    if BOAT in legal:
        options.append(Text(N_("move the boat (boat)")))
    return either(options[:3])


def _buy_instead(self: Position, legal: list[int], phase: int) -> Param:
    items: list[Param] = [
        Term(self.deck.board_items[BOARD_ITEMS[c - BUY]][0]) for c in legal if c < KEEP
    ]
    none = Text(N_("keep the shell (keep)") if phase == SHELL else N_("buy nothing (pass)"))
    if items:
        return Text.of(
            N_("buy what you can pay for ({choices}) or {none}"), choices=either(items), none=none
        )
    return none


def _space(self: Position, space: int) -> Text:
    """``forest 2F``: the band in words and the space in notation."""
    return Text.of(
        N_("{land} {space}"), land=Term(BANDS[space % 3]), space=self.board.space_name(space)
    )


def _expecting(self: Position, p: int) -> Refusal:
    """A decision of another kind: say what is awaited now, with its rule."""
    phase, legal = self.phase, generate(self)
    if phase == TURN:
        text = Text.of(
            N_(
                "R6: it is your turn, so a turn action comes first (place a number "
                "disc, take one back or move the boat): {turn_options}"
            ),
            turn_options=_turn_options(self, legal, None, 0),
        )
        return Refusal("wrong_phase", text, "R6")
    if phase == MOVE_SHAMAN:
        text = Text.of(
            N_(
                "R6: after your disc comes the shaman: move it (like {texts}) or leave "
                "it where it is (>stay)"
            ),
            texts=_texts(self, legal[1:2] or legal[:1])[0],
        )
        return Refusal("wrong_phase", text, "R6")
    if phase == CHOOSE_CARD:
        offers = _card_offers(self, legal)
        text = Text.of(
            N_("R11: a card offered must be taken first: {choices}"), choices=either(offers)
        )
        return Refusal("wrong_phase", text, "R11")
    if phase == PRIESTESS:
        if legal == [LAVA_NONE]:
            what: Param = Text(N_("there is no lava on the island, so say lava none"))
        else:
            what = Text.of(
                N_("move a lava disc to a neighbouring crater ({choices})"),
                choices=either(_texts(self, legal[:2])),
            )
        return Refusal(
            "wrong_phase",
            Text.of(N_("R16: the Lava Priestess comes first: {what}"), what=what),
            "R16",
        )
    if phase == SHELL:
        text = Text.of(
            N_("R17: you received a shell: first {buy_instead}"),
            buy_instead=_buy_instead(self, legal, phase),
        )
        return Refusal("wrong_phase", text, "R17")
    text = Text.of(
        N_("R19: before the scoring you may buy one item: {buy_instead}"),
        buy_instead=_buy_instead(self, legal, phase),
    )
    return Refusal("wrong_phase", text, "R19")


def _card_offers(self: Position, legal: list[int]) -> list[Param]:
    """``take 1a (Shell)`` for every card offered now (empty slots are never offered)."""
    names: list[Param] = []
    for c in legal:
        slot = c - TAKE
        card = self.deck.cards[self.slots[slot]].name
        names.append(
            Text.of(N_("take {slot} ({card})"), slot=self.board.slot_name(slot), card=Term(card))
        )
    return names


# -- the refusals ------------------------------------------------------------------------


def reason(self: Position, d: int, p: int) -> Refusal:
    """Why decision ``d`` is not legal for player ``p`` now, naming the ruling it breaks
    and a legal decision to make instead.

    Called only for a decision outside ``legal_actions``; bound as ``Game._reason``.
    """
    phase = self.phase
    if d < BOAT:
        return _turn(self, d, p) if phase == TURN else _expecting(self, p)
    if d == BOAT:
        if phase != TURN:
            return _expecting(self, p)
        supply = [v for v in self.board.discs if self.disc_at[p][v] < 0]
        instead = _turn_instead(self, generate(self))
        return Refusal("discs_in_supply", discs_left_in_supply(len(supply), instead), "R6")
    if d == STAY or SHAMAN <= d < TAKE:
        return _shaman(self, d, p) if phase == MOVE_SHAMAN else _expecting(self, p)
    if TAKE <= d < LAVA_NONE:
        return _card(self, d) if phase == CHOOSE_CARD else _expecting(self, p)
    if LAVA_NONE <= d < BUY:
        return _lava(self, d) if phase == PRIESTESS else _expecting(self, p)
    if BUY <= d <= PASS and phase in (SHELL, PRESCORE):
        return _buy(self, d, p)
    return _expecting(self, p)


def _turn(self: Position, d: int, p: int) -> Refusal:
    kind, rest = divmod(d, 100)
    v, beach = divmod(rest, 10)
    own, opp = self.totals[p][beach], self.totals[1 - p][beach]
    other = Term(PLAYERS[1 - p])
    where = self.disc_at[p][v]
    legal = generate(self)
    if kind == 2:  # return
        if where != beach:
            if where < 0:
                fix = (
                    Text.of(N_("place it ({v}@{beach})"), v=v, beach=beach)
                    if PLACE + v * 10 + beach in legal
                    else ""
                )
                text = Text.of(
                    N_(
                        "R6: your disc {v} is in your supply, not on beach {beach}, so there is"
                        " nothing to take back"
                    ),
                    v=v,
                    beach=beach,
                )
            else:
                back = RETURN + v * 10 + where
                fix = (
                    Text.of(N_("take it back from there (-{v}@{where})"), v=v, where=where)
                    if back in legal
                    else ""
                )
                text = Text.of(
                    N_("R6: your disc {v} is on beach {where}, not on beach {beach}"),
                    v=v,
                    where=where,
                    beach=beach,
                )
            return Refusal(
                "disc_not_there",
                Text.of(
                    N_("{first}; {rest}"),
                    first=text,
                    rest=Text.of(N_("instead {options}"), options=fix)
                    if fix
                    else _turn_instead(self, legal, beach),
                ),
                "R6",
            )
        return Refusal(
            "sum_rule",
            Text.of(
                N_(
                    "R7 sum rule: taking back {v} would leave you {n} against {other}'s "
                    "{opp} on beach {beach}, and a beach's two totals must differ (unless "
                    "both are 0); {turn_instead}"
                ),
                v=v,
                n=own - v,
                other=other,
                opp=opp,
                beach=beach,
                turn_instead=_turn_instead(self, legal, beach),
            ),
            "R7",
        )
    if where >= 0:
        back = RETURN + v * 10 + where
        later = (
            Text.of(
                N_("take {v} back this turn (-{v}@{where}) and place it on a later turn"),
                v=v,
                where=where,
            )
            if back in legal
            else ""
        )
        places = [c for c in legal if c < RETURN]
        now = (
            Text.of(
                N_("place a disc from your supply ({texts})"), texts=_texts(self, places[:1])[0]
            )
            if places
            else ""
        )
        if not places and BOAT in legal:
            now = Text(N_("move the boat (boat)"))
        return Refusal(
            "disc_already_out",
            Text.of(
                N_(
                    "R6: your disc {v} is already on beach {where}, and a turn is one "
                    "action; instead {value}"
                ),
                v=v,
                where=where,
                value=(
                    either([t for t in (now, later) if t]) or _turn_options(self, legal, None, 0)
                ),
            ),
            "R6",
        )
    if kind == 1:
        plain = PLACE + v * 10 + beach
        without = (
            Text.of(N_("place it without the invocation disc ({v}@{beach})"), v=v, beach=beach)
            if plain in legal
            else ""
        )
        if self.invocation[p] == -2:
            return Refusal(
                "invocation_tactical_only",
                Text.of(
                    N_(
                        "R25: invocation discs are used only in the tactical variant; "
                        "instead {value}"
                    ),
                    value=without or _turn_options(self, legal, beach, v),
                ),
                "R25",
            )
        if self.invocation[p] >= 0:
            return Refusal(
                "invocation_on_island",
                Text.of(
                    N_(
                        "R27: your invocation disc is still on beach {invocation}; it comes "
                        "back when the boat stops there or with a Lava Priestess; instead "
                        "{value}"
                    ),
                    invocation=self.invocation[p],
                    value=without or _turn_options(self, legal, beach, v),
                ),
                "R27",
            )
        if beach != self.boat:
            there = self.boat
            ok = 100 + v * 10 + there in legal
            alt = Text.of(N_("{v}@{there}* beside the boat"), v=v, there=there) if ok else ""
            return Refusal(
                "invocation_beach",
                Text.of(
                    N_(
                        "R26: the invocation disc goes only with a number disc on the beach "
                        "next to the boat (beach {there}); instead {value}"
                    ),
                    there=there,
                    value=(
                        either([t for t in (alt, without) if t])
                        or _turn_options(self, legal, beach, v)
                    ),
                ),
                "R26",
            )
        if sum(self.lava) >= self.board.lava_discs:
            return Refusal(
                "lava_exhausted",
                Text.of(
                    N_(
                        "R26: all {lava_discs} lava discs are on the island, so no more can be "
                        "invoked; instead {value}"
                    ),
                    lava_discs=self.board.lava_discs,
                    value=without or _turn_options(self, legal, beach, v),
                ),
                "R26",
            )
    return Refusal(
        "sum_rule",
        Text.of(
            N_(
                "R7 sum rule: with {v} on beach {beach} you would have {n} against "
                "{other}'s {opp}, and a beach's two totals must differ (unless both are"
                " 0); {turn_instead}"
            ),
            v=v,
            beach=beach,
            n=own + v,
            other=other,
            opp=opp,
            turn_instead=_turn_instead(self, legal, beach, v),
        ),
        "R7",
    )


def _shaman(self: Position, d: int, p: int) -> Refusal:
    legal = generate(self)
    moves = [c for c in legal if c != STAY]
    options = either([*_texts(self, moves[:4]), N_(">stay")])  # notation: the same everywhere
    dest = d - SHAMAN
    if dest == self.shaman[p]:
        return Refusal(
            "shaman_reach",
            Text.of(
                N_("R8: your shaman is already on {space}; to leave it there say >stay"),
                space=_space(self, dest),
            ),
            "R8",
        )
    if dest == self.shaman[1 - p]:
        return Refusal(
            "shaman_occupied",
            Text.of(
                N_(
                    "R8: the {colour} shaman stands on {space}; yours may pass it but not "
                    "stop there; instead {options}"
                ),
                colour=Term(PLAYERS[1 - p]),
                space=_space(self, dest),
                options=options,
            ),
            "R8",
        )
    here = self.shaman[p]
    start = (
        Text.of(N_("the hut on beach {n}"), n=here - self.board.land_spaces)
        if here >= self.board.land_spaces
        else _space(self, here)
    )
    return Refusal(
        "shaman_reach",
        Text.of(
            N_(
                "R8: from {start} your shaman cannot reach {space} – it goes at most 2 "
                "steps over grassland, forest and mountain, at most one of them uphill;"
                " instead {options}"
            ),
            start=start,
            space=_space(self, dest),
            options=options,
        ),
        "R8",
    )


def _card(self: Position, d: int) -> Refusal:
    legal = generate(self)
    offers = either(_card_offers(self, legal))
    slot = d - TAKE
    seg = self.context[0]
    if slot // self.board.slots_per_segment != seg:
        return Refusal(
            "card_segment",
            Text.of(
                N_("R10: the cards go out in segment {seg}, where the boat is; {offers}"),
                seg=seg,
                offers=offers,
            ),
            "R10",
        )
    return Refusal(
        "slot_empty",
        Text.of(
            N_("R10: slot {slot} is empty, so there is no card to take; {offers}"),
            slot=self.board.slot_name(slot),
            offers=offers,
        ),
        "R10",
    )


def _lava(self: Position, d: int) -> Refusal:
    legal = generate(self)
    if d == LAVA_NONE:
        return Refusal(
            "lava_must_move",
            Text.of(
                N_(
                    "R16: there is lava on the island, so the Lava Priestess must move a "
                    "lava disc to a neighbouring crater: {choices}"
                ),
                choices=either(_texts(self, legal[:4])),
            ),
            "R16",
        )
    src = (d - LAVA) // 2
    craters = sorted({(c - LAVA) // 2 for c in legal if c != LAVA_NONE})
    if not craters:
        instead: Param = Text(N_("there is no lava on the island, so say lava none"))
    else:
        word = ngettext(
            "lava is on crater {c}",
            "lava is on craters {c}",
            len(craters),
            c=either([str(c) for c in craters]),
        )
        example = format_decision(legal[0], self.board)
        instead = Text.of(N_("{decision}, like {example}"), decision=word, example=example)
    return Refusal(
        "no_lava_there",
        Text.of(
            N_("R16: crater {src} holds no lava disc to move; {instead}"), src=src, instead=instead
        ),
        "R16",
    )


def _buy(self: Position, d: int, p: int) -> Refusal:
    phase = self.phase
    ruling = "R17" if phase == SHELL else "R19"
    legal = generate(self)
    instead = _buy_instead(self, legal, phase)
    if d == KEEP and phase == PRESCORE:
        return Refusal(
            "say_pass",
            N_(
                "R19: keep is for a shell just received; before a scoring say pass to "
                "buy nothing, or buy one item"
            ),
            "R19",
        )
    if d == PASS and phase == SHELL:
        return Refusal(
            "say_keep",
            N_(
                "R17: pass is for the purchase before a scoring; after receiving a "
                "shell say keep to buy nothing, or buy one item"
            ),
            "R17",
        )
    i = d - BUY
    code = BOARD_ITEMS[i]
    item, cost = self.deck.board_items[code]
    owner = self.board_owner[i]
    if owner == FACE_DOWN:
        return Refusal(
            "priestess_face_down",
            Text.of(
                N_(
                    "R17: the board's Lava Priestess was used this round and stays face "
                    "down until the next scoring; {instead}"
                ),
                instead=instead,
            ),
            "R17",
        )
    if owner != NO_OWNER:
        whose = (
            Text(N_("you already have"))
            if owner == p
            else Text.of(N_("{colour} already has"), colour=Term(PLAYERS[owner]))
        )
        return Refusal(
            "item_taken",
            Text.of(
                N_("{ruling}: {whose} the {item} card; {instead}"),
                ruling=ruling,
                whose=whose,
                item=item,
                instead=instead,
            ),
            ruling,
        )
    return Refusal(
        "too_few_shells",
        shells_too_few(item, cost, len(self.shells[p]), ruling, instead),
        ruling,
    )
