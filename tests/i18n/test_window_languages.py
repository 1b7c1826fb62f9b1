"""The simulator window in German and French: everything it writes (banner, scoring board,
trays, log, help page with the rules, end-of-game table) goes through the catalog; a text
with an English word the language does not use is English that reached the window."""

from __future__ import annotations

import os

import pytest
from support.leaks import english_words

from haleakala import i18n

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
        texts.add(i18n.render(text))
        return surface

    monkeypatch.setattr(palette.Fonts, "render", recording)
    return texts


def _english(texts: set[str]) -> list[str]:
    language = i18n.current()
    return sorted(t for t in texts if t.strip() and english_words(t, language))


def test_the_window_and_its_help_page_speak_the_language(language, written, tmp_path):
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from haleakala.games.haleakala.views import layout as L
    from haleakala.hal.simulated import SimClock
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


def test_the_window_leaves_no_english_word_in_the_panel_log_or_end_table(language, written,
                                                                         tmp_path):  # fmt: skip
    """Beyond whole lines the catalog knows: the player panel ("Cards: …"), the log's
    wrapped lines and the end table, word by word (issue 23)."""
    from support.leaks import english_words

    test_the_window_and_its_help_page_speak_the_language(language, written, tmp_path)
    leaked = sorted(t for t in written if english_words(t, language))
    assert leaked == [], "\n".join(leaked)


def test_the_kahuna_window_speaks_the_language(language, written, tmp_path):
    """A whole Kahuna game in the window between two bots, the hand-over screen, a refused
    click and the end: every text drawn, word by word."""
    from support.leaks import english_words

    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from haleakala.ai import make_bot
    from haleakala.gameapi import new_game
    from haleakala.games.kahuna.views.window import layout as L
    from haleakala.games.kahuna.views.window.table import KahunaTable, Seat
    from haleakala.games.kahuna.views.window.window import KahunaWindow

    pygame.display.init()
    try:
        screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
        game = new_game("kahuna", seed=5, start="white")
        table = KahunaTable(game, (Seat(), Seat()))  # two people: the hand-over screen
        win = KahunaWindow(table, screen=screen)
        win.step([])
        table.dismiss_handover()
        win.step([])
        table.click_line(game.board.line_names[0])  # no card selected: refused with a reason
        win.step([])
        table.decide("draw 9")  # not a decision: said why
        win.step([])
        bots = (make_bot("greedy", 1, game="kahuna"), make_bot("random", 2, game="kahuna"))
        while not game.is_terminal():
            table.decide(game.format(bots[game.decider].decide(game)))
            if len(game.history) % 25 == 0:
                win.step([])
        win.step([])
        win.save(str(tmp_path / f"kahuna-{language}.png"))
    finally:
        pygame.display.quit()
    assert game.is_terminal()
    assert sorted(t for t in written if english_words(t, language)) == []
