"""Every mode's colours stay apart for the eyes it is designed for (issue 30).

For every pair of roles that can be seen at the same time on a surface
(``palette.checked_pairs``), the CIEDE2000 difference under normal vision and simulated
protanopia and deuteranopia (Machado, Oliveira & Fernandes 2009, severity 1) and tritanopia
(Brettel, Viénot & Mollon 1997) must reach the pair's threshold: 20 between the roles that
carry the game (players, lava, legal target), 10 for the other signs sharing a place. LEDs are
judged by how they look (``led_appearance``), not by the drive values sent.

The simulations and ΔE come from ColorAide (a kept, pure-Python colour library, in the test
extra); one test pins its simulation to the matrix published by Machado et al., so a change of
method in the library cannot pass unnoticed.
"""

from __future__ import annotations

import itertools

import pytest
from coloraide import Color

from haleakala import palette as P

SIMULATIONS = {
    "normal": None,
    "protanopia": ("protan", "machado"),
    "deuteranopia": ("deutan", "machado"),
    "tritanopia": ("tritan", "brettel"),
}


def seen(rgb: tuple[int, int, int], vision: str) -> Color:
    """``rgb`` (sRGB) as ``vision`` sees it, back in sRGB (clipped to the gamut)."""
    colour = Color("srgb", [c / 255 for c in rgb])
    how = SIMULATIONS[vision]
    if how is None:
        return colour
    return colour.filter(how[0], method=how[1]).convert("srgb").clip()


def delta_e(a: tuple[int, int, int], b: tuple[int, int, int], vision: str) -> float:
    return float(seen(a, vision).delta_e(seen(b, vision), method="2000"))


def shown(mode: str, surface: str, role: str) -> tuple[int, int, int]:
    if surface == "screen":
        return P.screen(role, mode)
    return P.led_appearance(P.led(role, mode))


def shortfalls(mode: str, surface: str, visions) -> list[str]:
    """Every checked pair under ``visions`` that falls below its threshold, in words."""
    short = []
    for a, b, threshold in P.checked_pairs(surface):
        for vision in visions:
            d = delta_e(shown(mode, surface, a), shown(mode, surface, b), vision)
            if d < threshold:
                short.append(f"{a} / {b} under {vision}: ΔE00 {d:.1f} < {threshold:g}")
    return short


@pytest.mark.parametrize("surface", ["screen", "led"])
@pytest.mark.parametrize("mode", P.MODES)
def test_roles_seen_together_stay_apart_under_every_vision_the_mode_is_designed_for(mode, surface):
    assert not shortfalls(mode, surface, P.DESIGNED_FOR[mode])


def test_the_colour_blind_mode_is_designed_for_all_three_dichromacies():
    assert set(P.DESIGNED_FOR["cvd"]) == set(SIMULATIONS)


def game_roles(game: str, surface: str) -> list[str]:
    return [r.name for r in P.game_roles(game) if getattr(r, surface)]


@pytest.mark.parametrize("game", P.GAME_NAMES)
@pytest.mark.parametrize("surface", ["screen", "led"])
def test_the_game_roles_keep_twenty_apart_in_the_colour_blind_mode(surface, game):
    for a, b in itertools.combinations(game_roles(game, surface), 2):
        for vision in SIMULATIONS:
            d = delta_e(shown("cvd", surface, a), shown("cvd", surface, b), vision)
            assert d >= 20, (a, b, vision, d)


def test_every_pair_of_game_roles_is_checked_on_both_surfaces():
    for surface in ("screen", "led"):
        pairs = {frozenset((a, b)) for a, b, t in P.checked_pairs(surface) if t == 20}
        want = {
            frozenset(p)
            for game in P.GAME_NAMES
            for p in itertools.combinations(sorted(game_roles(game, surface)), 2)
        }
        assert pairs == want


def test_the_palette_holds_every_games_roles_and_kanaloas_four_players():
    """Issue 39: the palette covers Kanaloa (its four players, the white side of a fish, the
    volcano), so ``--palette cvd`` changes its window and ``haleakala palette`` lists them."""
    from haleakala.gameapi import GAMES

    assert set(P.GAME_NAMES) == {g for g, ref in GAMES.items() if ref.startswith("haleakala.")}
    names = {r.name for r in P.ROLES}
    for colour in ("red", "yellow", "green", "blue", "white"):
        assert f"kanaloa.{colour}" in names
    assert "kanaloa.volcano" in names
    assert P.screen("kanaloa.red", "default") != P.screen("kanaloa.red", "cvd")


def test_the_check_fails_a_naive_rainbow_under_protanopia():
    """The check can fail: red, green, blue, cyan, magenta and yellow at full strength fall
    to a ΔE00 near 4 between two of them under protanopia (issue 30's measurement)."""
    rainbow = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 255, 255), (255, 0, 255), (255, 255, 0)]
    worst = min(delta_e(a, b, "protanopia") for a, b in itertools.combinations(rainbow, 2))
    assert worst < 5


def test_the_default_mode_is_the_one_the_cvd_mode_improves_on():
    """The default mode's red player and lava run together under a red-green deficiency (the
    reason the cvd mode exists): its worst game pair is worse than the cvd mode's."""

    def worst(mode):
        game = game_roles("haleakala", "screen")
        return min(
            delta_e(shown(mode, "screen", a), shown(mode, "screen", b), v)
            for a, b in itertools.combinations(game, 2)
            for v in SIMULATIONS
        )

    assert worst("default") < 20 <= worst("cvd")


def test_the_simulation_is_machados_published_protanopia_matrix():
    """Machado et al. (2009), severity 1.0, applied in linear RGB: pure red goes to the matrix's
    first column (0.152286, 0.114503, -0.003882; the negative part is clipped)."""
    red = Color("srgb-linear", [1, 0, 0]).filter("protan", method="machado")
    r, g, b = red.convert("srgb-linear").coords()
    assert (round(r, 4), round(g, 4)) == (0.1523, 0.1145)
    assert abs(b) < 0.005


def test_haleakala_palette_lists_every_games_roles(capsys):
    from haleakala.cli import main

    assert main(["palette", "--mode", "cvd"]) == 0
    out = capsys.readouterr().out
    for role in P.ROLES:
        assert f"cvd      {role.name}" in out
