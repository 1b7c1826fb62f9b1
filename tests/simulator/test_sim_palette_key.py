"""Key v in the simulator window cycles the colour mode as the board's menu does: the island
is repainted in the new mode's colours at once, and the choice is journaled."""

from __future__ import annotations

import pytest

from haleakala import palette
from haleakala.games.haleakala.views import layout as L
from haleakala.hal.simulated import SimClock

pygame = pytest.importorskip("pygame", reason="the window needs pygame (the sim extra)")


@pytest.fixture
def window(monkeypatch, tmp_path):
    from haleakala.simulator.session import SimSession
    from haleakala.simulator.window import SimWindow

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    palette.use(palette.DEFAULT)
    pygame.display.init()
    screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
    session = SimSession(kit="buttons", seed=1, start="red", state_dir=tmp_path / "state",
                         clock=SimClock())  # fmt: skip
    win = SimWindow(session, screen=screen)
    win.step()
    yield win
    session.close()
    pygame.display.quit()
    palette.use(palette.DEFAULT)


def _grassland_pixel(win) -> tuple[int, int, int]:
    """A point of segment 3's grassland, away from its LED and its labels."""
    points = L.wedge(3, "grassland", 24)
    x = sum(p[0] for p in points) / len(points)
    y = sum(p[1] for p in points) / len(points)
    return tuple(win.screen.get_at((round(x) + 14, round(y)))[:3])


def test_key_v_repaints_the_island_in_the_next_mode_and_journals_it(window):
    before = _grassland_pixel(window)
    assert before == palette.screen("zone.grassland", "default")
    window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=0, unicode="v"))
    window.step()
    assert palette.current() == "cvd"
    assert _grassland_pixel(window) == palette.screen("zone.grassland", "cvd")
    assert window.session.companion.journal.palette == "cvd"
    assert "colours: colour-blind" in window.session.log
