"""Every text a player meets in each front-end of each game, collected for the language check
(issue 39): the terminal (a person typing commands, mistakes and decisions against bots; two
bots watched), the window (every label drawn over a game), the live view (every text of every
snapshot), the phone seats (every seat's page over a game) and the lessons (a scripted learner
who also asks for help and makes mistakes). Each game is reached through its description only,
so a game added to the registry is checked without a change here.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from haleakala import i18n
from haleakala.gameapi import describe, hook, new_game

COUNTS_CHECKED = 2
"""Player counts checked per game: its smallest and its largest (Kanaloa: 2 and 4)."""


def counts(game: str) -> list[int]:
    allowed = describe(game).player_counts
    return sorted({min(allowed), max(allowed)})


def _playout(state: Any, rng: random.Random, limit: int = 2000) -> Iterator[Any]:
    """The positions of a random game from ``state`` on (each a clone), the last one over."""
    yield state.clone()
    for _ in range(limit):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
        yield state.clone()


# -- the terminal ---------------------------------------------------------------------------


def _refused_decision(state: Any) -> str | None:
    """A well-formed decision that is not legal now (its refusal is a sentence of the rules)."""
    legal = set(state.legal_actions())
    for code in hook(describe(state.game_name).all_codes)():
        if code not in legal:
            try:
                return str(state.format(code))
            except (ValueError, IndexError, KeyError):
                continue
    return None


LOCAL_WORDS = {"de": ("hilfe", "erlaubt", "karte"), "fr": ("aide", "permis", "carte")}
"""Local command words typed (beside the English ones), so their answers are checked too."""


def terminal(game: str, players: int, tmp: Path, seed: int = 3) -> str:
    """A person (the first seat) against the game's random bots at the terminal: every
    command, a word that is nothing, a line of 300 characters, a refused decision, a save and
    a failed load, then random legal decisions to the end. Everything printed and prompted."""
    from haleakala.ai import make_bot

    state = new_game(game, seed, players=players)
    seats = [None] + [make_bot("random", seed=p, game=game) for p in range(1, players)]
    out = io.StringIO()
    session = hook(describe(game).terminal or "haleakala.toolkit.generic.terminal:open_session")(
        state, seats, out=out, tty=False, delay=0.0
    )
    rng = random.Random(seed)
    script = iter(
        [
            "help", "?", "legal", "hint", "board", "map", "xyzzy", "x" * 300,
            _refused_decision(state) or "xyzzy", "undo", f"save {tmp / 'saved.json'}",
            f"load {tmp / 'missing.json'}", "save", "load",
            *LOCAL_WORDS.get(i18n.current(), ()),
        ]
    )  # fmt: skip

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        line = next(script, None)
        if line is not None:
            return line
        g = session.game
        if g.is_terminal():
            raise EOFError
        if rng.random() < 0.02:
            return rng.choice(["legal", "hint", "xyzzy"])
        return str(g.format(rng.choice(g.legal_actions())))

    session.read = read
    session.run()
    return out.getvalue()


def terminal_bots(game: str, players: int, seed: int = 5) -> str:
    """``haleakala play`` with bots in every seat: the introduction, every decision and the
    result, as the command prints them."""
    from haleakala.cli import main

    colours = describe(game).colours[:players]
    argv = ["play", "--game", game, "--lang", i18n.current(), "--seed", str(seed)]
    if len(describe(game).player_counts) > 1:
        argv += ["--players", str(players)]
    for colour in colours:
        argv += ["--seat", f"{colour}=random"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main([*argv, "--delay", "0"])
    return out.getvalue()


# -- the window -----------------------------------------------------------------------------


def window(game: str, players: int, tmp: Path, monkeypatch: Any) -> list[str]:
    """Every text the game's window draws (``toolkit.window.Fonts.render``) at the start, in
    the middle and at the end of a game bots played (``sim --screenshot --decisions``)."""
    from haleakala.cli import main
    from haleakala.toolkit import window as shell

    texts: list[str] = []
    original = shell.Fonts.render

    def recording(self: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        texts.append(i18n.render(text))
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(shell.Fonts, "render", recording)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    language = i18n.current()
    for decisions in (0, 25, 3000):
        argv = ["sim", "--game", game, "--lang", language, "--seed", "4"]
        shot = str(tmp / f"{game}-{decisions}.png")
        argv += ["--screenshot", shot, "--decisions", str(decisions)]
        if len(describe(game).player_counts) > 1:
            argv += ["--players", str(players)]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(argv)
    return texts


# -- the live view and the phone seats ------------------------------------------------------

_MACHINE_KEYS_TEXT = """
    v lang palette digest game variant view colour to_move current phase owner seat table
    game_id who bot kind slot notation legal text_code code tiles name_code id away state
    pieces shows player
    """
MACHINE_KEYS = frozenset(_MACHINE_KEYS_TEXT.split())
"""Keys of a snapshot or a seat's page whose values are for the page's script (codes, a
colour's key, a game's name), never shown as they are."""
NOTATION_KEYS = frozenset({"legal", "notation", "text", "codes"})
"""Keys whose values are notation (checked like any text: notation is set aside by the check)."""


def strings(value: Any, key: str = "") -> Iterator[str]:
    """Every string a page shows from a JSON value, keys for the script left out."""
    if isinstance(value, str):
        if key not in MACHINE_KEYS or key in NOTATION_KEYS:
            yield re.sub(r"\{\w+\}", " ", value)  # a label's placeholders: "{colour}"
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in MACHINE_KEYS or k in NOTATION_KEYS:
                yield from strings(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, key)


def live_view(game: str, players: int, seed: int = 6) -> list[str]:
    """The texts of the snapshots a watcher receives over a whole random game (the opening
    and the end all, then every ``SAMPLE_EVERY``-th)."""
    from haleakala.web.server import LiveView

    live = LiveView()  # never started: publish builds and encodes the snapshot only
    texts: list[str] = []
    state = new_game(game, seed, players=players)
    for k, position in enumerate(_playout(state, random.Random(seed))):
        if looked_at(k) or position.is_terminal():
            texts += strings(json.loads(live.publish(position).data))
    return texts


SAMPLE_EVERY = 5
"""After the opening, every fifth position is looked at (and the end): a snapshot or a seat's
page costs milliseconds, a whole Kanaloa game is a thousand positions, and the same words
come back turn after turn (the live view's log keeps the lines between two looks)."""


def looked_at(k: int) -> bool:
    return k < 60 or k % SAMPLE_EVERY == 0


def phone_seats(game: str, players: int, seed: int = 7) -> list[str]:
    """Every text of every seat's page (``web.seats.Table.view``) over a whole random game,
    every seat a phone."""
    from haleakala.web.seats import Table

    state = new_game(game, seed, players=players)
    table = Table(state, {})
    rng = random.Random(seed)
    texts: list[str] = []
    first = str(state.format(random.Random(seed).choice(state.legal_actions())))
    mover = state.players[state.decider]
    texts.append(table.decide(mover, 1, first).text)  # nobody's page open yet: paused
    for colour in table.players:  # every phone's page is open: nobody is away
        table.arrived(colour)
    for k in range(3000):
        for colour in table.players if looked_at(k) or table.game.is_terminal() else ():
            texts += strings(table.view(colour))
        g = table.game
        if g.is_terminal():
            break
        colour = g.players[g.decider]
        text = str(g.format(rng.choice(g.legal_actions())))
        answer = table.decide(colour, table.seq + 1, text)
        assert answer.ok, answer
    return texts


# -- the lessons ----------------------------------------------------------------------------


def lessons(game: str) -> str:
    """Every lesson of the game at the terminal: a learner who asks for help and the legal
    decisions, types a word that is nothing, a wrong decision and a decision at a step to be
    read, then does what the step asks, and plays the free game after it to the end."""
    from haleakala.learn.cli import Terminal
    from haleakala.learn.lesson import lesson_paths, load

    out = io.StringIO()
    for path in lesson_paths():
        lesson = load(path)
        if lesson.game != game:
            continue
        terminal = Terminal(lesson, out=out)
        terminal.read = _learner(terminal, out)
        terminal.run()
    return out.getvalue()


def _learner(terminal: Any, out: io.StringIO) -> Callable[[str], str]:
    """The scripted learner of ``lessons``: at each new step first ``help``, ``legal``, a
    word that is nothing and a legal decision the step does not ask for; then the step's
    own answer (its scripted decision, or Enter)."""
    rng = random.Random(1)
    tried: dict[int, list[str]] = {}
    count = {"n": 0}

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        count["n"] += 1
        run = terminal.run_
        game = run.game
        if count["n"] > 3000 or (run.done and game.is_terminal()):
            raise EOFError
        if run.done:  # the free game after the lesson: random legal decisions
            return str(game.format(rng.choice(game.legal_actions())))
        queue = tried.setdefault(run.index, ["help", "legal", "xyzzy", "wrong"])
        if queue:
            word = queue.pop(0)
            if word != "wrong":
                return word
            expected = run.expected()
            others = [game.format(c) for c in game.legal_actions()]
            others = [t for t in others if t != expected]
            return str(others[0]) if others else ""
        if run.wrong is not None:
            return ""
        return run.expected() or ""

    return read
