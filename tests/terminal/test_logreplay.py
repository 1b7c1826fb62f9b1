"""One replayer for the games that check their own logs (Kahuna, Kanaloa): reading, the
verdict line, the results and the exit status live once in ``terminal.logreplay``; a game
hands over only its hooks. Driven here with a stand-in game, so the shared part is proved
apart from any game's rules."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from haleakala.cli import UsageError
from haleakala.games.kahuna.views.replayer import KAHUNA
from haleakala.games.kanaloa.views.replayer import KANALOA
from haleakala.toolkit.replayer import Replayer


class Disagrees(Exception):
    pass


class BadSave(ValueError):
    pass


@dataclass
class Played:
    history: list[int] = field(default_factory=lambda: [1, 2, 3])


def replay_save(text: str) -> Played:
    if json.loads(text).get("broken"):
        raise BadSave("$.history: not a list")
    return Played()


def replay_log(lines: list[str], seeded: bool) -> list[Played]:
    if any("tampered" in line for line in lines):
        raise Disagrees("game 0 (seed 1), record 4: draw differs")
    return [Played(), Played([1])]


STANDIN = Replayer(
    title="Standin",
    save_format="standin-game",
    replay_save=replay_save,
    save_verdict="position reached",
    replay_log=replay_log,
    describe_result=lambda game: f"result after {len(game.history)}",
    inconsistent=Disagrees,
    save_error=BadSave,
)


def test_a_good_log_prints_the_verdict_and_every_games_result(capsys):
    assert STANDIN.run('{"type":"setup"}\n{"type":"action"}', "x.jsonl", False) == 0
    assert capsys.readouterr().out.splitlines() == [
        "replay OK: Standin game log x.jsonl, 2 games, 4 decisions",
        "result after 3",
        "result after 1",
    ]


def test_a_good_save_says_what_it_proved(capsys):
    assert STANDIN.run('{"format":"standin-game"}', "s.json", False) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "replay OK: saved Standin game s.json, 3 decisions, position reached"
    )


def test_a_disagreeing_log_names_the_record_and_exits_1(capsys):
    assert STANDIN.run('{"type":"setup"}\ntampered', "x.jsonl", False) == 1
    assert capsys.readouterr().out == "x.jsonl: game 0 (seed 1), record 4: draw differs\n"


def test_an_unreadable_save_is_a_usage_error_with_a_sentence():
    with pytest.raises(UsageError, match=r"s.json is not a valid saved Standin game: \$.history"):
        STANDIN.run('{"format":"standin-game","broken":true}', "s.json", False)


def test_kahuna_and_kanaloa_use_the_shared_replayer():
    assert isinstance(KAHUNA, Replayer) and isinstance(KANALOA, Replayer)
    assert (KAHUNA.save_format, KANALOA.save_format) == ("kahuna-game", "kanaloa-game")
