"""Everything the terminal game prints fits 80 columns (issue 13, Build 3): boards, prompts,
refusals, bot moves in words, scorings and the result, over whole games of many seeds."""

from __future__ import annotations

import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.ai import make_bot
from haleakala.games.haleakala import Game
from haleakala.games.haleakala.notation import all_codes, format_decision
from haleakala.games.haleakala.views.terminal import HELP, TerminalGame, fit

WIDTH = 80


class Player:
    """A person who mostly decides legally, but also mistypes, asks for the legal list,
    the board and help, so every kind of output appears."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.tg: TerminalGame | None = None

    def __call__(self, prompt: str) -> str:
        assert self.tg is not None
        game, roll = self.tg.game, self.rng.random()
        if roll < 0.15:  # an illegal decision: a refusal of some kind
            legal = set(game.legal_actions())
            codes = [c for c in all_codes(game.board) if c not in legal]
            return format_decision(self.rng.choice(codes), game.board)
        if roll < 0.18:
            return self.rng.choice(["legal", "board", "help", "lava 3>0", "yellow 1@1"])
        return self.rng.choice(game.legal_decisions())


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    variant=st.sampled_from(["base", "tactical"]),
    bot_seat=st.sampled_from([None, 0, 1]),
)
def test_no_line_of_a_whole_game_exceeds_80_columns(seed, variant, bot_seat):
    player = Player(seed)
    seats = [None, None]
    if bot_seat is not None:
        seats[bot_seat] = make_bot("greedy", seed)
    out = io.StringIO()
    tg = TerminalGame(
        Game(variant, seed=seed), seats, read=player, out=out, watch=bot_seat is not None
    )
    player.tg = tg
    assert tg.run() == 0
    assert tg.game.is_terminal()
    text = out.getvalue()
    long = [line for line in text.splitlines() if len(line) > WIDTH]
    assert not long, long[:3]
    assert "refused: R" in text  # refusals were among the lines measured


def test_help_fits_80_columns():
    assert max(len(line) for line in HELP.splitlines()) <= WIDTH


@given(st.text(alphabet=st.sampled_from("ab cd-–@ "), max_size=300), st.integers(0, 6))
def test_fit_breaks_at_spaces_within_the_width_and_keeps_every_word(text, indent):
    line = " " * indent + text
    parts = fit(line)
    if len(line) <= WIDTH:
        assert parts == [line]
        return
    words = [w for part in parts for w in part.split()]
    assert words == line.split()
    assert all(len(p) <= WIDTH for p in parts if " " in p.strip())  # one long word may overflow
