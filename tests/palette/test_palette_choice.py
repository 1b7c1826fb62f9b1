"""The colour mode is chosen like the language: in the config, on the command line, in the
board's menu (journaled, so a restart keeps it), in the simulator (key v) and per phone in the
live view; every surface then reads its colours by role from ``haleakala.palette``."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import haleakala
from haleakala import palette as P
from haleakala.companion.autoplay import choose
from haleakala.companion.journal import Journal
from haleakala.games.haleakala import Game


@pytest.fixture(autouse=True)
def default_mode():
    """Every test starts and ends in the default mode (the choice is process-wide)."""
    P.use(P.DEFAULT)
    yield
    P.use(P.DEFAULT)


# ------------------------------------------------------------------------ the module


def test_an_unknown_mode_is_refused_with_the_modes_there_are():
    with pytest.raises(P.UnknownMode, match="choose one of default, cvd"):
        P.use("purple")
    assert P.current() == P.DEFAULT
    assert P.use(" CVD ") == "cvd"


def test_the_modes_cycle_as_the_menus_turn_through_them():
    assert [P.next_mode(m) for m in P.MODES] == ["cvd", "default"]


def test_every_role_has_a_colour_on_each_surface_it_is_shown_on_in_every_mode():
    for mode in P.MODES:
        for role in P.ROLES:
            if role.screen:
                assert len(P.screen(role.name, mode)) == 3
            if role.led:
                assert all(0 <= c <= 255 for c in P.led(role.name, mode))


def test_the_default_mode_sends_the_leds_what_the_kit_always_sent():
    """Scenarios and players know these: the default mode changes nothing on the board."""
    assert P.led("player.red") == (255, 0, 0) and P.led("player.yellow") == (255, 150, 0)
    assert P.led("legal") == (90, 90, 90) and P.led("boat") == (255, 255, 255)


channel = st.one_of(st.just(0), st.integers(80, 255))
full_looks = st.builds(
    lambda top, a, b: tuple([*[a, b][:top], 255, *[a, b][top:]]),
    st.integers(0, 2),
    channel,
    channel,
)
"""LED looks at full level (the level is the scenes' business) whose channels are off or
bright enough to survive 8-bit rounding after a gamma of 2.8."""


@given(full_looks)
def test_an_led_colour_looks_like_the_colour_it_was_made_from(look):
    """``led_appearance`` undoes ``to_led`` (gamma and the WS2812's per-channel correction):
    what the simulator shows and the check judges is what the palette asked for."""
    back = P.led_appearance(P.to_led(look))
    assert all(abs(a - b) <= 3 for a, b in zip(back, look, strict=True)), (look, back)


def test_a_ws2812s_half_drive_green_is_not_half_as_bright():
    """255/150/0 (the yellow player's drive) looks yellow, not orange, and a perceived half
    needs far less than half the drive (issue 30's LED facts)."""
    _r, g, b = P.led_appearance((255, 150, 0))
    assert g > 230 and b == 0
    assert P.to_led((128, 0, 0)) == (255, 0, 0)  # normalised: the hue, not the level
    assert round(255 * (128 / 255) ** P.GAMMA) == 37


def test_every_game_role_and_the_warning_say_it_without_colour_on_every_surface():
    for role in [r.name for r in P.game_roles("haleakala")] + ["warning"]:
        assert set(P.SIGNS[role]) == {"led", "screen", "oled"}, role
    for game in P.GAME_NAMES:  # a game without the kit is seen on screens only
        for role in P.game_roles(game):
            assert "screen" in P.SIGNS[role.name], role.name


def test_the_rules_never_import_the_palette_and_the_palette_imports_no_layer():
    root = Path(haleakala.__file__).parent
    for path in (root / "rules").rglob("*.py"):
        assert "palette" not in _imports(path), path
    assert not [m for m in _imports(root / "palette" / "__init__.py") if "haleakala" in m]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return {n for n in names if "palette" in n or "haleakala" in n}


# ------------------------------------------------------------------------ the command


def test_haleakala_palette_json_lists_every_modes_roles_with_screen_and_led(capsys):
    from haleakala.cli import main

    assert main(["palette", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert {(e["mode"], e["role"]) for e in entries} == {
        (m, r.name) for m in P.MODES for r in P.ROLES
    }
    for e in entries:
        assert {"mode", "role", "screen", "led"} <= set(e)
    red = next(e for e in entries if (e["mode"], e["role"]) == ("cvd", "player.red"))
    assert red["screen"] == [213, 94, 0] and red["led"] == list(P.led("player.red", "cvd"))
    zone = next(e for e in entries if e["role"] == "zone.beach")
    assert zone["led"] is None  # shown on screens only


def test_haleakala_palette_prints_a_table_for_one_mode(capsys):
    from haleakala.cli import main

    assert main(["palette", "--mode", "cvd"]) == 0
    out = capsys.readouterr().out
    assert "cvd      player.red      #d55e00" in out and "default " not in out


# ------------------------------------------------------------------------ the config


def test_the_configs_palette_key_is_read_checked_and_written_back(tmp_path):
    from haleakala.config import ConfigError, load
    from haleakala.config.writer import to_toml

    good = tmp_path / "good.toml"
    good.write_text('palette = "cvd"\n', encoding="utf-8")
    config = load(good)
    assert config.palette == "cvd"
    assert 'palette = "cvd"' in to_toml(config)
    bad = tmp_path / "bad.toml"
    bad.write_text('palette = "purple"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="palette: 'purple' is not one of default, cvd"):
        load(bad)


def test_the_shipped_example_config_names_the_palette_key():
    example = Path(haleakala.__file__).parent.parent / "hw" / "config.example.toml"
    assert '\npalette = "default"\n' in example.read_text(encoding="utf-8")


# ------------------------------------------------------------------------ the journal


def _journal(tmp_path, decisions: int, every: int = 0) -> tuple[Journal, Game]:
    journal = Journal(tmp_path, snapshot_every=every)
    game = Game("base", seed=7, start="red")
    journal.start(game, palette="cvd")
    for _ in range(decisions):
        game.apply(choose(game, 1))
        journal.append_decision(game)
        if journal.snapshot_due:
            journal.write_snapshot(game)
    return journal, game


def test_the_games_palette_and_a_menu_change_survive_a_restart(tmp_path):
    journal, game = _journal(tmp_path, 3)
    again = Journal(tmp_path)
    assert again.recover() is not None and again.palette == "cvd"
    journal.append_palette("default")
    game.apply(choose(game, 1))
    journal.append_decision(game)
    again = Journal(tmp_path)
    resumed = again.recover()
    assert again.palette == "default"
    assert resumed is not None and resumed.digest() == game.digest()


def test_the_palette_survives_a_resume_from_the_snapshot(tmp_path):
    journal, game = _journal(tmp_path, 6, every=2)
    journal.append_palette("default")
    for _ in range(3):
        game.apply(choose(game, 1))
        journal.append_decision(game)
        if journal.snapshot_due:
            journal.write_snapshot(game)
    again = Journal(tmp_path)
    assert again.recover() is not None and again.palette == "default"


def test_a_palette_the_companion_does_not_have_in_the_journal_is_ignored(tmp_path):
    journal, _game = _journal(tmp_path, 2)
    journal.append_palette("purple")
    again = Journal(tmp_path)
    assert again.recover() is not None and again.palette == "cvd"


# ------------------------------------------------------------------------ the board's menu


def test_the_boards_menu_changes_the_colours_at_once_and_a_restart_keeps_them(tmp_path):
    """The menu's colours line cycles the modes; the lights change with the next frame, the
    OLED names the mode in words, and the choice is journaled."""
    from support.companion_rig import Rig

    from haleakala.hal.events import EncoderTurned

    rig = Rig("buttons", journal=Journal(tmp_path))
    water = (rig.game.boat + 1) % 6  # a segment's water without the boat
    assert rig.leds()[water, "water"] == (30, 0, 0)  # red to decide: the default red, dim
    rig.press("back")
    values = [o.value for o in rig.c.shown.options]
    rig.send(EncoderTurned(values.index("colours")))
    rig.press("select")
    assert P.current() == "cvd"
    assert any("colours: colour-blind" in line for line in rig.c.prompt)
    assert rig.c.journal.palette == "cvd"
    red = P.led("player.red", "cvd")
    assert rig.leds()[water, "water"] == tuple(int(c * 0.12) for c in red)
    boat = rig.game.boat
    assert rig.leds()[boat, "water"] == P.led("boat", "cvd")
    again = Journal(tmp_path)
    assert again.recover() is not None and again.palette == "cvd"


def test_a_new_game_keeps_the_colours_chosen_at_the_board(tmp_path):
    from support.companion_rig import Rig

    rig = Rig("buttons", journal=Journal(tmp_path))
    rig.c.menus.next_colours()
    rig.c.new_game()
    assert rig.c.journal.header.get("palette") == "cvd"


# ------------------------------------------------------------------------ screens


def test_the_live_view_gets_each_modes_colours_and_the_companions_mode():
    from haleakala.games.haleakala.views.live import snapshot

    css = P.css()
    assert ":root {" in css and ':root[data-palette="cvd"] {' in css
    assert "--red: #d55e00;" in css and "--lava: #8811dd;" in css
    P.use("cvd")
    assert snapshot(Game("base", seed=1, start="red"))["palette"] == "cvd"


def test_the_live_view_serves_palette_css_behind_its_token():
    pytest.importorskip("aiohttp")
    from support.live import get

    from haleakala.web.server import LiveView

    view = LiveView("127.0.0.1", 0).start()
    try:
        status, headers, body = get(view.port, "/palette.css", view.token)
        assert status == 200 and headers["content-type"].startswith("text/css")
        assert body.decode() == P.css()
        assert get(view.port, "/palette.css")[0] == 403
        page = get(view.port, "/", view.token)[2]
        assert b'href="/palette.css"' in page and b'id="palette"' in page
    finally:
        view.close()


def test_the_terminal_paints_players_in_the_modes_exact_colours_outside_the_default():
    from haleakala.games.haleakala.views.render import paint

    assert paint("red", "red", True) == "\x1b[31mred\x1b[0m"  # the terminal theme's red
    P.use("cvd")
    assert paint("red", "red", True) == "\x1b[1;38;2;213;94;0mred\x1b[0m"
    assert paint("~", "boat", True) == "\x1b[1;36m~\x1b[0m"  # not a role: unchanged
