"""Loading saves and game logs within limits (issue 11, item 5): each crash the issue lists
is now one line naming a line of the file, and the running game survives a bad load."""

from __future__ import annotations

import io
import json
import random

import pytest

from haleakala.cli import main
from haleakala.games.haleakala import Game, NotationError, SaveError, parse_decision
from haleakala.games.haleakala.serialize import MAX_DEPTH, MAX_DIGITS, from_json, load_json
from haleakala.games.haleakala.views import render
from haleakala.games.haleakala.views.terminal import TerminalGame
from haleakala.toolkit.gamelog import play_log
from haleakala.toolkit.textfile import UnreadableFile, read_text

DEEP = "[" * 1000 + "]" * 1000
HUGE = "9" * 4300


def played(seed: int = 3, decisions: int | None = 60, variant: str = "base") -> Game:
    """Random play for ``decisions`` decisions (None: until just after the first scoring)."""
    game, rng = Game(variant, seed), random.Random(seed)
    while not game.is_terminal() and (
        len(game.history) < decisions if decisions is not None else not game.scorings
    ):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def save_text(edit=None, game: Game | None = None, indent: int | None = 1) -> str:
    doc = json.loads((game or played()).to_json())
    if edit:
        edit(doc)
    return json.dumps(doc, indent=indent)


def huge_seed(text: str) -> str:
    return text.replace('"seed": 3', f'"seed": {HUGE}')


def deep_queue(text: str) -> str:
    return text.replace('"queue": [', f'"queue": [{DEEP},', 1)


def in_game_load(tmp_path, text: str) -> tuple[TerminalGame, Game, str]:
    path = tmp_path / "bad.json"
    path.write_text(text)
    running = played(seed=8, decisions=10)
    out = io.StringIO()
    tg = TerminalGame(running, [None, None], read=lambda _: "quit", out=out)
    tg.load(str(path))
    return tg, running, out.getvalue().strip()


# -- the crashes of the issue -------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "needle"),
    [(deep_queue, f"nested deeper than {MAX_DEPTH} levels"),
     (huge_seed, f"a number with more than {MAX_DIGITS} digits")],
)  # fmt: skip
def test_deep_nesting_or_a_4300_digit_integer_in_a_save_is_one_line_everywhere(
    tmp_path, capsys, damage, needle
):
    """RecursionError and int()'s ValueError used to escape all three loaders."""
    text = damage(save_text())
    line = next(n for n, raw in enumerate(text.splitlines(), 1) if HUGE in raw or DEEP in raw)
    path = tmp_path / "save.json"
    path.write_text(text)
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("haleakala play: cannot load") and needle in err
    assert f"line {line}" in err and "\n" not in err
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and f"line {line}" in err and "\n" not in err
    tg, running, said = in_game_load(tmp_path, text)
    assert said.startswith("cannot load") and needle in said and said.endswith("game goes on")
    assert tg.game is running


def test_deep_nesting_or_a_huge_integer_in_a_log_is_caught_on_its_line(tmp_path, capsys):
    bots = [__import__("haleakala.ai", fromlist=["make_bot"]).make_bot("random", s) for s in (1, 2)]
    lines = list(play_log(Game("base", 4), bots))
    for damaged, needle in (
        (DEEP, f"nested deeper than {MAX_DEPTH} levels"),
        (HUGE, f"a number with more than {MAX_DIGITS} digits"),
    ):
        changed = list(lines)
        changed[6] = changed[6][:-1] + f',"x":{damaged}}}'
        path = tmp_path / "game.jsonl"
        path.write_text("\n".join(changed) + "\n")
        assert main(["replay", str(path)]) == 1
        assert capsys.readouterr().out.strip() == f"line 7: not a JSON record ({needle})"


@pytest.mark.parametrize("text", [">²G", "take ²a", "3@②", "-3@①", "lava ٣>4", "3@٢", "²@1"])
def test_digits_that_are_not_ascii_are_a_notation_error(text):
    """² and ① pass str.isdigit() but int() cannot read them; Arabic-Indic digits are not
    the notation either."""
    with pytest.raises(NotationError, match="is not part of the notation"):
        parse_decision(text)


def test_a_non_ascii_digit_typed_at_the_terminal_is_refused_and_the_game_goes_on():
    lines = iter([">²G", "take ²a", "3@2", ">stay"])

    def read(_prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    tg = TerminalGame(Game("base", seed=3, start="red"), [None, None], read=read, out=out)
    assert tg.run() == 0
    refusals = [x for x in out.getvalue().splitlines() if "refused" in x]
    assert len(refusals) == 2 and all("'²' is not part of the notation" in x for x in refusals)
    assert [tg.game.format(d) for d in tg.game.history] == ["3@2", ">stay"]


def test_a_save_with_a_non_ascii_disc_number_is_refused_naming_the_field():
    text = save_text(lambda d: d["discs"]["red"].update({"²": 1}))
    with pytest.raises(SaveError, match=r"^\$\.discs\.red\.² \(line \d+\): there is no such"):
        from_json(text)


def test_a_hand_edited_scoring_record_is_refused_before_it_can_crash_rendering():
    """``"scorings":[{"round":1}]`` used to pass validation, then crash the board view."""
    game = played(decisions=None)
    assert len(game.scorings) == 1
    text = save_text(lambda d: d.__setitem__("scorings", [{"round": 1}]), game)
    with pytest.raises(SaveError, match=r"^\$\.scorings\[0\]\.players \(line \d+\): missing"):
        from_json(text)


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (lambda s: s["players"]["red"]["points"].__setitem__("fish", "3"),
         "$.scorings[0].players.red.points.fish"),
        (lambda s: s["players"]["red"]["points"].__setitem__("fish", 1000),
         "$.scorings[0].players.red.points.fish"),
        (lambda s: s["players"]["yellow"].__setitem__("total", 99),
         "$.scorings[0].players.yellow.total"),
        (lambda s: s["players"]["red"]["statues"].append("9Z"),
         "$.scorings[0].players.red.statues["),
        (lambda s: s["players"]["red"]["cards"].append(7), "$.scorings[0].players.red.cards["),
        (lambda s: s["players"]["red"]["scoring_cards"].append("lunch"),
         "$.scorings[0].players.red.scoring_cards["),
        (lambda s: s["players"]["red"].pop("shells"), "$.scorings[0].players.red.shells"),
        (lambda s: s["players"].__setitem__("blue", {}), "$.scorings[0].players.blue"),
        (lambda s: s.__setitem__("round", 2), "$.scorings[0].round"),
    ],
)  # fmt: skip
def test_every_field_of_a_scoring_record_is_checked(edit, path):
    game = played(decisions=None)
    text = save_text(lambda d: edit(d["scorings"][0]), game)
    with pytest.raises(SaveError) as exc:
        from_json(text)
    assert str(exc.value).startswith(path)


def test_scoring_records_must_match_the_round():
    """Round 2 follows exactly one scoring; a fresh game has none."""
    game = played(decisions=None)
    with pytest.raises(SaveError, match=r"^\$\.scorings \(line \d+\): expected 1 scoring"):
        from_json(save_text(lambda d: d.__setitem__("scorings", []), game))
    records = [scoring.to_record() for scoring in game.scorings]
    with pytest.raises(SaveError, match=r"^\$\.scorings \(line \d+\): expected 0 scoring"):
        from_json(save_text(lambda d: d.__setitem__("scorings", records), played()))


# -- the history leads to the position ----------------------------------------------------


def test_play_load_refuses_a_save_whose_history_does_not_lead_to_its_position(tmp_path, capsys):
    game = played()
    text = save_text(lambda d: d.__setitem__("boat", (d["boat"] + 1) % 6), game)
    line = next(n for n, raw in enumerate(text.splitlines(), 1) if '"boat"' in raw)
    path = tmp_path / "save.json"
    path.write_text(text)
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"haleakala play: cannot load {path}: $.boat (line {line}): ")
    assert "the saved position is not where its history leads" in err
    assert f"{len(game.history)} decisions lead to {game.boat}" in err


def test_play_load_refuses_a_history_with_an_illegal_decision(tmp_path, capsys):
    text = save_text(lambda d: d["history"].__setitem__(1, "boat"))
    path = tmp_path / "save.json"
    path.write_text(text)
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert "$.history[1] (line " in err and "'boat' is not legal here" in err


def test_the_in_game_load_of_a_save_its_history_does_not_reach_keeps_the_game(tmp_path):
    text = save_text(lambda d: d["history"].pop())
    tg, running, said = in_game_load(tmp_path, text)
    assert tg.game is running and said.endswith("the game goes on")
    assert "not where its history leads" in said


@pytest.mark.parametrize(("variant", "seed"), [("base", 11), ("tactical", 12)])
def test_saves_of_real_games_pass_the_history_check_at_every_stage(variant, seed):
    game, rng = Game(variant, seed), random.Random(seed)
    while not game.is_terminal():
        if len(game.history) % 37 == 0:
            loaded = from_json(game.to_json(), check_history=True)
            assert loaded.digest() == game.digest()
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    loaded = from_json(game.to_json(), check_history=True)
    assert render.describe_result(loaded.result()) == render.describe_result(game.result())


# -- line numbers, sizes, bytes -----------------------------------------------------------


def test_a_bad_field_in_a_pretty_printed_save_names_its_line():
    text = save_text(lambda d: d["piles"][2].__setitem__(0, 999))
    lines = text.splitlines()
    pile_2 = next(n for n, raw in enumerate(lines, 1) if raw.strip() == "999,")
    with pytest.raises(SaveError, match=rf"^\$\.piles\[2\]\[0\] \(line {pile_2}\): expected"):
        from_json(text)


def test_a_missing_field_is_reported_on_its_objects_line():
    text = save_text(lambda d: d["shamans"].pop("red"))
    line = next(n for n, raw in enumerate(text.splitlines(), 1) if '"shamans"' in raw)
    with pytest.raises(SaveError, match=rf"^\$\.shamans\.red \(line {line}\): missing"):
        from_json(text)


def test_nan_and_infinity_are_not_json_numbers():
    for constant in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(json.JSONDecodeError, match=f"{constant.lstrip('-')} is not a JSON"):
            load_json(f'{{"a":\n[{constant}]}}')
    text = save_text().replace('"boat": ', '"boat": NaN, "x": ', 1)
    line = next(n for n, raw in enumerate(text.splitlines(), 1) if "NaN" in raw)
    with pytest.raises(SaveError, match=rf"^not a saved game: line {line}: NaN is not a JSON"):
        from_json(text)


def test_json_inside_the_limits_loads_as_json_loads_would():
    """Brackets and digits inside strings are not nesting or numbers."""
    text = json.dumps({"a": [[1, -2.5, '[[[\\"]]]', "9" * 500]], "b": -(10**MAX_DIGITS - 1)})
    assert load_json(text) == json.loads(text)
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_json(deepest) == json.loads(deepest)


def test_a_file_over_the_size_cap_is_refused_without_reading_it_all(tmp_path, capsys):
    assert main(["play", "--load", "/dev/zero"]) == 2
    assert "it is larger than 1024 kB" in capsys.readouterr().err
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 101)
    with pytest.raises(UnreadableFile, match="larger than 0 kB"):
        read_text(str(path), 100)
    assert read_text(str(path), 101) == " " * 101


def test_bytes_that_are_not_utf8_are_refused_naming_their_line(tmp_path, capsys):
    path = tmp_path / "save.json"
    path.write_bytes(b'{\n"format":\n"\xff"}')
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("line 3: not UTF-8 text, so not a game log or a saved game")
    tg = TerminalGame(played(), [None, None], read=lambda _: "quit", out=io.StringIO())
    running = tg.game
    tg.load(str(path))
    assert tg.game is running and "line 3: not UTF-8" in tg.out.getvalue()


def test_control_characters_and_lone_surrogates_in_a_save_stay_on_one_printable_line():
    text = save_text(lambda d: d["statues"].update({"\n\ud800": "red"}))
    with pytest.raises(SaveError) as exc:
        from_json(text)
    message = str(exc.value)
    assert message.startswith("$.statues.\\n\\ud800 (line ") and "\n" not in message
    message.encode("utf-8")


def test_a_file_name_with_a_nul_is_refused_by_save_and_load_and_the_game_goes_on():
    lines = iter(["save a\x00b", "load a\x00b", "3@2"])

    def read(_prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    tg = TerminalGame(Game("base", seed=3, start="red"), [None, None], read=read, out=out)
    assert tg.run() == 0
    said = out.getvalue()
    assert "cannot save to a\\x00b: embedded null byte" in said
    assert "cannot load a\\x00b: embedded null byte; the game goes on" in said
    assert [tg.game.format(d) for d in tg.game.history] == ["3@2"]
