"""``haleakala COMMAND`` imports only that command's module: the daemon's start (every boot,
every restart after a power cut) does not pay for the kit's tables or the terminal games."""

from __future__ import annotations

import subprocess
import sys

import pytest

from haleakala.cli import COMMANDS, build_parser


def test_run_starts_without_importing_the_other_commands():
    code = (
        "import sys; from haleakala.cli import main; "
        "sys.argv = ['haleakala', 'run', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('haleakala.kit.bom', 'haleakala.kit.selftest', "
        "'haleakala.kit.wiring', 'haleakala.terminal.play', 'haleakala.cli.bench') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert "usage: haleakala run" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("argv", [
    ["run", "--hardware", "sim", "--headless", "--seed", "5", "--autoplay", "1"],
    ["config", "check"],
    ["selftest", "--auto", "--hardware", "sim"],
])  # fmt: skip
def test_one_command_parses_exactly_as_the_whole_command_line(argv):
    whole = vars(build_parser().parse_args(argv))
    alone = vars(build_parser(argv[0]).parse_args(argv))
    assert whole.keys() == alone.keys()
    assert {k: v for k, v in whole.items() if k != "func"} == {
        k: v for k, v in alone.items() if k != "func"
    }
    assert whole["func"].__qualname__ == alone["func"].__qualname__


def test_one_command_help_is_the_whole_command_lines_help():
    def helps(parser):
        sub = next(a for a in parser._actions if a.dest == "command")
        return sub.choices["run"].format_help()

    assert helps(build_parser("run")) == helps(build_parser())


def test_the_top_level_help_still_lists_every_command():
    text = build_parser().format_help()
    assert all(name in text for name in COMMANDS)
    assert set(build_parser("not-a-command")._subparsers._group_actions[0].choices) == set(COMMANDS)
