"""Every word the companion keeps in its state is a value that renders in German and French.

The controller keeps its words as values (``core.text.Text``), not English: the OLED renders
them when it draws. Random games on the sim backend (both kits, solo or not, random presses,
turns, long presses, boards with stray discs and unknown tags, decisions carried out, time
passing) collect every word the controller holds after every event: titles, chooser lines
and details, notes and refusals, board disputes and their fixes, instructions. Each renders
in German and in French with no English word (``support.leaks``) and no unfilled
placeholder, and in English as its ``str()`` (the log's sentence); and every template and
term inside it is a message of the language's catalog (so the check does not rest on the
English-word finder alone, which cannot tell "PLACES" from French ``places``).
"""

from __future__ import annotations

import logging
import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.companion_rig import Rig
from support.leaks import english_words

from haleakala import i18n
from haleakala.companion.autoplay import choose
from haleakala.companion.hands import events_for
from haleakala.core.text import Capitalised, Term, Text, Upper
from haleakala.hal.base import BUTTONS
from haleakala.hal.events import (
    ALL_DISCS,
    BeachContents,
    ButtonHeld,
    ButtonPressed,
    EncoderTurned,
    LinkHealth,
)
from haleakala.i18n import catalogs

PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
"""A ``{name}`` left in a rendered sentence: a parameter the template or its translation
lost."""

PLAY = "play"
discs = st.frozensets(st.sampled_from(ALL_DISCS), max_size=3)
inputs = st.one_of(
    st.builds(ButtonPressed, st.sampled_from((*BUTTONS, "beach6", "nonsense"))),
    st.builds(ButtonHeld, st.sampled_from(("back", "select"))),
    st.builds(EncoderTurned, st.integers(-5, 5).filter(bool)),
    st.builds(BeachContents, st.integers(-1, 6), discs),
    st.builds(BeachContents, st.integers(0, 5), discs.map(lambda d: d | {"E0040150ABCD"})),
    st.builds(LinkHealth, st.booleans(), st.sampled_from(("", "Pico quiet", "beach 2 reader"))),
    st.tuples(st.just(PLAY), st.integers(0, 60)),
    st.tuples(st.just(PLAY), st.integers(0, 60)),
    st.floats(0.1, 3.0),
)


@pytest.fixture(autouse=True, scope="module")
def quiet_companion_log():
    """Refusals are logged by design; the controller counts its errors itself."""
    logger = logging.getLogger("haleakala")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


def words_held(rig: Rig) -> list:
    """Every word of the controller's state and of the scenes' ``UiState`` right now."""
    p = rig.c.panel
    held: list = []
    for chooser in (p.chooser, p.overlay):
        if chooser is not None:
            held.append(chooser.title)
            for option in chooser.options:
                held += [option.label, option.detail]
    if p.message is not None:
        held += [p.message.title, p.message.text]
    for mismatch in (p.mismatch, p.hold):
        if mismatch is not None:
            held += [mismatch.headline, mismatch.reason, *mismatch.fixes]
    held += [*p.instructions, *rig.c.notes]
    return [w for w in held if w != ""]


def step(rig: Rig, item, seen: list) -> None:
    if isinstance(item, tuple):  # a decision carried out through the inputs
        if rig.game.is_terminal():
            return
        legal = rig.game.legal_actions()
        d = legal[item[1] % len(legal)]
        made = len(rig.game.history)
        for _ in range(4):
            events = events_for(rig.c, d)
            if not events or len(rig.game.history) != made:
                break
            for event in events:
                rig.c.handle(event)
                seen += words_held(rig)
    elif isinstance(item, float):
        rig.advance(item)
    else:
        rig.c.handle(item)
    if rig.c.thinking:
        rig.await_bot()
    seen += words_held(rig)


@cache
def messages(language: str) -> frozenset[str]:
    """Every msgid (and plural msgid) the language's catalog translates."""
    ids: set[str] = set()
    for m in catalogs.read(catalogs.po_path(language), language):
        if m.id and m.string and not m.context:
            ids.update([m.id] if isinstance(m.id, str) else m.id)
    return frozenset(ids)


def unknown(value, language: str) -> list[str]:
    """Templates and terms inside ``value`` the language's catalog does not hold, and plain
    strings in it with English words (a sentence that was never a value)."""
    if isinstance(value, Text):
        found = [] if value.template in messages(language) else [value.template]
        for _, param in value.params:
            found += unknown(param, language)
        return found
    if isinstance(value, Capitalised | Upper):
        return unknown(value.value, language)
    if isinstance(value, Term):
        return [] if str(value) in messages(language) else [str(value)]
    if isinstance(value, str):
        return [value] if english_words(value, language) else []
    return []


def assert_spoken(words: list) -> None:
    """Each value in German and French: no English word, no ``{placeholder}``; in English
    the log's sentence."""
    values = list({repr(w): w for w in words}.values())
    for word in values:
        assert i18n.render(word) == str(word), word
    for language in ("de", "fr"):
        i18n.use(language)
        try:
            for word in values:
                said = i18n.render(word)
                leaked = english_words(said, language)
                assert not leaked, f"{language}: {said!r} (from {word!r}): {leaked}"
                assert not PLACEHOLDER.search(said), f"{language}: {said!r} (from {word!r})"
                assert not unknown(word, language), (language, word, unknown(word, language))
        finally:
            i18n.use("en")


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    kit=st.sampled_from(("buttons", "rfid")),
    variant=st.sampled_from(("base", "tactical")),
    solo=st.sampled_from((None, "yellow")),
    seed=st.integers(0, 10**6),
    opening=st.integers(0, 60),
    sequence=st.lists(inputs, max_size=10),
)
def test_every_companion_word_of_random_games_renders_in_german_and_french(
    kit, variant, solo, seed, opening, sequence
):
    options = {"solo": solo, "strength": "easy"} if solo else {}
    rig = Rig(kit, variant, seed=seed % 1000, history=2, **options)
    seen: list = []
    for _ in range(opening):  # start somewhere in the game: every phase is reached
        if rig.game.is_terminal():
            break
        if rig.c.thinking:
            rig.await_bot()
        if solo is not None and rig.game.to_move == solo:
            rig.advance(3.0)  # the companion's decision makes itself
            continue
        rig.carry_out(choose(rig.game, seed))
        seen += words_held(rig)
    for item in sequence:
        step(rig, item, seen)
    assert rig.c.errors == 0
    assert_spoken(seen)


def test_the_companions_words_are_values_not_english_strings():
    """Of what the controller shows in a game, every word a catalog holds is a ``Text``;
    only what no catalog holds (notation: a decision's code) is a plain str."""
    rig = Rig("buttons", "base", seed=1)
    seen: list = []
    for _ in range(40):
        rig.carry_out(choose(rig.game, 1))
        seen += words_held(rig)
        rig.press("back")  # the menu, at a turn start
        seen += words_held(rig)
        rig.press("back")
    plain = {w for w in seen if not isinstance(w, Text)}
    assert all(english_words(w, "de") == [] for w in plain), plain
    assert any(isinstance(w, Text) for w in seen)
