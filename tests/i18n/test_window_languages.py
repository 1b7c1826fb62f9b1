"""The simulator window in German and French: everything it writes (banner, scoring board,
trays, log, help page with the rules, end-of-game table) goes through the catalog; a text
the catalog would still translate is English that reached the window."""

from __future__ import annotations

import os

import pytest

from haleakala import i18n
from haleakala.i18n.lookup import tr

pygame = pytest.importorskip("pygame", reason="the window needs pygame (the sim extra)")


@pytest.fixture(params=["de", "fr"])
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


@pytest.fixture
def written(monkeypatch):
    """Every text the window renders, as rendered."""
    from haleakala.simulator import palette

    texts: set[str] = set()
    original = palette.Fonts.render

    def recording(self, text, *args, **kwargs):
        surface = original(self, text, *args, **kwargs)
        texts.add(tr(text))
        return surface

    monkeypatch.setattr(palette.Fonts, "render", recording)
    return texts


def _english(texts: set[str]) -> list[str]:
    return sorted(t for t in texts if t.strip() and tr(t) != t)


def test_the_window_and_its_help_page_speak_the_language(language, written, tmp_path):
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from haleakala.hal.simulated import SimClock
    from haleakala.simulator import layout as L
    from haleakala.simulator.session import SimSession
    from haleakala.simulator.window import SimWindow

    pygame.display.init()
    try:
        screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
        session = SimSession(
            kit="rfid", seed=2, start="red", state_dir=tmp_path / "state", clock=SimClock()
        )
        try:
            win = SimWindow(session, screen=screen)
            win.step([])
            win.show_help = True
            win.step([])
            win.show_help = False
            while not session.game.is_terminal():
                if session.bot_step(block=True) is None:
                    break
                if len(session.game.history) % 40 == 0:
                    win.step([])
            win.step([])
            win.save(str(tmp_path / f"window-{language}.png"))
        finally:
            session.close()
    finally:
        pygame.display.quit()
    assert session.game.is_terminal()
    assert _english(written) == []
    wins = {"de": "gewinnt", "fr": "gagne"}[language]
    assert any(wins in text for text in written)
