"""The one terminal session (``terminal.loop``) driven through a made-up game's hooks: the
shared commands, refusals, quitting, the end of the input, the pass-the-device screen, save
and load, and bad input answered with a sentence that changes nothing."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.core.errors import SaveError
from haleakala.games.haleakala.views.terminal import TerminalGame
from haleakala.games.kahuna.views.terminal import KahunaTerminalGame
from haleakala.games.kanaloa.views.terminal import KanaloaTerminalGame
from haleakala.toolkit.terminal import TerminalSession
from haleakala.toolkit.textfile import MAX_SAVE_BYTES, read_text


class Pile:
    """A made-up game: two players take 1 or 2 stones in turn; who takes the last wins."""

    players = ("red", "blue")

    def __init__(self, stones: int = 5) -> None:
        self.stones = stones
        self.decider = 0
        self.history: list[int] = []

    @property
    def to_move(self) -> str | None:
        return None if self.is_terminal() else self.players[self.decider]

    def is_terminal(self) -> bool:
        return self.stones == 0

    def legal_actions(self) -> list[int]:
        return [n for n in (1, 2) if n <= self.stones]

    def legal_decisions(self) -> list[str]:
        return [self.format(n) for n in self.legal_actions()]

    def format(self, action: int) -> str:
        return f"take {action}"

    def parse(self, text: str) -> int:
        word, _sep, n = text.strip().partition(" ")
        if word != "take" or n not in ("1", "2"):
            raise ValueError(f"{text!r} is no decision: take 1 or take 2")
        return int(n)

    def why_illegal(self, text: str) -> str | None:
        try:
            n = self.parse(text)
        except ValueError as exc:
            return str(exc)
        return None if n in self.legal_actions() else f"only {self.stones} stone is left"

    def apply(self, decision: int, player: object = None) -> list[str]:
        self.stones -= decision
        self.history.append(decision)
        events = [f"{self.players[self.decider]} took {decision}"]
        if not self.is_terminal():
            self.decider = 1 - self.decider
        return events

    def clone(self) -> Pile:
        copy = Pile(self.stones)
        copy.decider, copy.history = self.decider, self.history[:]
        return copy

    def to_json(self) -> str:
        return json.dumps({"stones": self.stones, "decider": self.decider, "history": self.history})

    @classmethod
    def from_json(cls, text: str) -> Pile:
        try:
            data = json.loads(text)
            game = cls(int(data["stones"]))
            game.decider, game.history = int(data["decider"]), list(data["history"])
        except (ValueError, KeyError, TypeError) as exc:
            raise SaveError(f"not a saved pile ({exc})") from None
        return game


class PileSession(TerminalSession[Pile]):
    """The made-up game's hooks: all a game gives the shared loop."""

    HELP = "take 1 or take 2; count: the stones left"
    TYPE_A_DECISION = "Type a decision (like take 1) or help."

    def render(self) -> str:
        return f"pile: {self.game.stones}"

    def introduction(self) -> str:
        return "Pile: " + ", ".join(
            f"{c} is {self.seat_name(p)}" for p, c in enumerate(self.game.players)
        )

    def result_text(self) -> str | None:
        return f"{self.game.players[self.game.decider]} wins"

    def compact_legal(self) -> str:
        return f"  {len(self.game.legal_actions())} legal decisions"

    def refuse(self, line: str) -> str | None:
        return self.game.why_illegal(line)

    def describe(self, events: list[str], viewer: int | None) -> list[str]:
        return events

    def pass_screen(self, p: int) -> str:
        self.say(f"pass the device to {self.game.players[p]}")
        return "press Enter "

    def read_save(self, name: str) -> Pile:
        return Pile.from_json(read_text(name, MAX_SAVE_BYTES))

    def loaded(self, name: str) -> None:
        self.say(f"loaded {name}", wrap=False)  # a file's line is one line, as the games say it

    def hint(self) -> None:
        self.say(f"hint: {self.game.format(self.game.legal_actions()[-1])}")

    def extra_commands(self) -> dict[str, Callable[[str], None]]:
        return {"count": lambda rest: self.say(f"{self.game.stones} stones")}


class FirstLegal:
    """A bot that takes the first legal decision."""

    name = "first"

    def decide(self, game: Pile) -> int:
        return game.legal_actions()[0]


def play(lines: list[str], seats: tuple | None = None, stones: int = 5):
    """The session after ``lines`` were typed (then the input ends), and what it printed."""
    typed = iter(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    seats = (None, FirstLegal()) if seats is None else seats
    session = PileSession(Pile(stones), list(seats), read=read, out=out)
    status = session.run()
    return session, out.getvalue().splitlines(), status, prompts


def test_a_game_played_to_its_end_names_the_winner_and_exits_0():
    session, lines, status, prompts = play(["take 2", "take 2"])
    assert status == 0 and session.game.is_terminal()
    assert lines[0] == "Pile: red is a person, blue is the first bot"
    assert lines[1] == "Type a decision (like take 1) or help."
    assert "blue (first): take 1" in lines  # a bot's decision is told with its name
    assert "  red took 2" in lines  # the events of a person's decision, indented
    assert lines[-1] == "red wins"
    assert prompts == ["red> ", "red> "]


def test_the_shared_commands_answer_and_leave_the_game_as_it_was():
    session, lines, status, _prompts = play(["help", "?", "board", "legal", "count", "hint", ""])
    assert session.game.history == [] and status == 0
    assert lines.count(PileSession.HELP) == 2  # help and ?
    assert "pile: 5" in lines  # board draws it
    assert "  take 1 | take 2" in lines  # legal lists every legal decision
    assert "5 stones" in lines  # the game's own command
    assert "hint: take 2" in lines


def test_a_line_that_is_no_legal_decision_is_refused_with_the_games_sentence():
    session, lines, _status, _prompts = play(["take 3", "grab all", "take 2", "take 2", "take 2"])
    assert "refused: 'take 3' is no decision: take 1 or take 2" in lines
    assert "refused: 'grab all' is no decision: take 1 or take 2" in lines
    assert "refused: only 0 stone is left" not in lines
    assert session.game.history == [2, 1, 2]  # refusals changed nothing


def test_quit_and_exit_leave_the_game_unfinished_with_status_0():
    for word in ("quit", "exit", "QUIT"):
        session, lines, status, _prompts = play(["take 1", word, "take 1"])
        assert status == 0 and lines[-1] == "goodbye: the game is left unfinished"
        assert session.game.history == [1, 1]  # nothing typed after quit was read


def test_the_end_of_the_input_is_a_sentence_not_a_traceback():
    _session, lines, status, _prompts = play([])
    assert status == 0
    assert lines[-2:] == ["", "end of input: the game is left unfinished (save FILE keeps a game)"]


def test_two_people_get_the_pass_the_device_screen_before_each_change_of_person():
    session, lines, _status, prompts = play(["", "take 1", "", "take 1"], seats=(None, None))
    assert prompts == ["press Enter ", "red> ", "press Enter ", "blue> ", "press Enter "]
    screens = [line for line in lines if line.startswith("pass the device")]
    assert screens == [
        "pass the device to red",
        "pass the device to blue",
        "pass the device to red",
    ]
    assert lines[-2:] == ["", "end of input: the game is left unfinished"]
    assert session.game.history == [1, 1]


def test_undo_takes_back_the_persons_decision_and_the_bots_after_it():
    session, lines, _status, _prompts = play(["undo", "take 2", "undo", "count"])
    assert "nothing to undo" in lines
    assert "undone: your last decision and the bot decisions after it" in lines
    assert session.game.history == [] and "5 stones" in lines


def test_undo_with_two_people_is_refused_because_it_would_take_back_the_others():
    session, lines, _status, _prompts = play(["", "take 1", "", "undo"], seats=(None, None))
    assert "undo works when one person plays against bots" in lines
    assert session.game.history == [1]


def test_save_and_load_bring_a_game_back_and_bad_files_are_one_sentence(tmp_path):
    path = tmp_path / "pile.json"
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    session, lines, _status, _prompts = play(
        [
            "save",
            "load",
            f"save {path}",
            "take 2",
            f"load {tmp_path / 'missing.json'}",
            f"load {garbage}",
            f"save {tmp_path / 'no' / 'such' / 'dir.json'}",
            f"load {path}",
        ]
    )
    assert "save needs a file name: save FILE" in lines
    assert "load needs a file name: load FILE" in lines
    assert f"saved to {path} (continue it with: load {path})" in lines
    said = [line for line in lines if line.startswith("cannot ")]
    assert len(said) == 3 and all("Traceback" not in line for line in said)
    assert said[0].startswith(f"cannot load {tmp_path / 'missing.json'}: ")
    assert said[0].endswith("; the game goes on")
    assert said[1].startswith(f"cannot load {garbage}: not a saved pile")
    assert said[2].startswith(f"cannot save to {tmp_path / 'no' / 'such' / 'dir.json'}: ")
    assert f"loaded {path}" in lines
    assert session.game.history == []  # the save was made before the first decision


def test_a_file_name_with_control_characters_is_said_escaped_on_one_line(tmp_path):
    name = str(tmp_path / "a\x1bb\nc.json")
    _session, lines, _status, _prompts = play([f"load {name}"])
    (line,) = [line for line in lines if line.startswith("cannot load")]
    assert "\\x1b" in line and "\x1b" not in line


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=12))
def test_any_typed_lines_get_sentences_and_change_the_game_only_by_legal_decisions(typed):
    session, _lines, status, _prompts = play(typed)
    assert status == 0
    replay = Pile()
    for decision in session.game.history:
        assert decision in replay.legal_actions()
        replay.apply(decision)
    assert replay.stones == session.game.stones


def test_the_three_games_play_in_the_one_session():
    for cls in (TerminalGame, KahunaTerminalGame, KanaloaTerminalGame):
        assert issubclass(cls, TerminalSession)
        assert "run" not in vars(cls) and "command" not in vars(cls)  # the loop is shared
