"""The one window shell (``simulator.shell``) under a made-up game's window: the window keys,
clicks and other keys handed to the game, a frame drawn and shown only when it changed, the
loop's end, screenshots; and the three games' windows standing on it."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from haleakala.toolkit.window import WindowShell, wrap

pygame = pytest.importorskip("pygame")


@pytest.fixture(scope="module")
def screen():
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    yield pygame.display.set_mode((64, 48))
    pygame.display.quit()


class Squares(WindowShell):
    """A made-up game's window: a square per click, drawn when the count changed."""

    def __init__(self, screen) -> None:
        super().__init__(screen, caption="squares", size=(64, 48), shots="squares.png")
        self.clicks: list[tuple[int, int]] = []
        self.keys: list[int] = []
        self.cleared = 0
        self.notes: list[str] = []
        self.updates = 0
        self.shown = 0

    def draw(self) -> bool:
        if self._signature == len(self.clicks):
            return False
        self._signature = len(self.clicks)
        self.screen.fill((0, 0, 0))
        for x, y in self.clicks:
            self.screen.fill((255, 200, 0), (x, y, 4, 4))
        return True

    def update(self) -> None:
        self.updates += 1

    def click(self, pos: tuple[int, int]) -> None:
        self.clicks.append(pos)

    def key(self, event) -> None:
        self.keys.append(event.key)

    def clear(self) -> None:
        self.cleared += 1

    def note(self, text: str) -> None:
        self.notes.append(text)

    def present(self, changed) -> None:
        self.shown += 1


def key(k: int):
    return SimpleNamespace(type=pygame.KEYDOWN, key=k)


def test_clicks_and_the_games_own_keys_reach_the_game_and_esc_or_c_clears(screen):
    win = Squares(screen)
    win.step([SimpleNamespace(type=pygame.MOUSEBUTTONDOWN, button=1, pos=(5, 6))])
    win.step([SimpleNamespace(type=pygame.MOUSEBUTTONDOWN, button=3, pos=(9, 9))])
    win.step([key(pygame.K_e), key(pygame.K_ESCAPE), key(pygame.K_c)])
    assert win.clicks == [(5, 6)]  # only the left button clicks
    assert win.keys == [pygame.K_e] and win.cleared == 2
    assert win.running


def test_a_frame_is_shown_only_when_it_changed_and_the_live_view_hears_of_it(screen):
    win = Squares(screen)
    heard: list[int] = []
    win.after_step = lambda: heard.append(win.frames)
    win.step([])  # the first frame
    win.step([])  # nothing new
    win.step([SimpleNamespace(type=pygame.MOUSEBUTTONDOWN, button=1, pos=(1, 1))])
    assert (win.frames, win.updates, win.shown) == (3, 3, 2)
    assert heard == [0, 2]


@pytest.mark.parametrize("closing", ["quit", "q"])
def test_closing_the_window_or_q_ends_the_loop_with_status_0(screen, closing):
    win = Squares(screen)
    event = SimpleNamespace(type=pygame.QUIT) if closing == "quit" else key(pygame.K_q)
    win.step([event])
    assert not win.running
    assert win.run(seconds=5) == 0 and win.frames == 1  # no frame after the close


def test_s_or_f12_saves_a_screenshot_of_the_frame_drawn_fresh_and_says_where(screen, tmp_path):
    win = Squares(screen)
    win.screenshot_path = lambda: str(tmp_path / f"shot{len(win.notes)}.png")
    win.clicks.append((10, 10))
    win.step([key(pygame.K_s), key(pygame.K_F12)])
    assert win.notes == [
        f"screenshot: {tmp_path / 'shot0.png'}",
        f"screenshot: {tmp_path / 'shot1.png'}",
    ]
    shot = pygame.image.load(str(tmp_path / "shot0.png"))
    assert shot.get_at((11, 11))[:3] == (255, 200, 0)


def test_wrap_breaks_at_spaces_and_keeps_a_long_word_whole():
    assert wrap("one two three four", 9) == ["one two", "three", "four"]
    assert wrap("supercalifragilistic is long", 8) == ["supercalifragilistic", "is long"]
    assert wrap("", 10) == []


def test_the_three_games_windows_stand_on_the_one_shell():
    from haleakala.games.kahuna.views.window.window import KahunaWindow
    from haleakala.games.kanaloa.views.window.window import KanaloaWindow
    from haleakala.simulator.window import SimWindow

    for cls in (SimWindow, KahunaWindow, KanaloaWindow):
        assert issubclass(cls, WindowShell)
        assert not {"run", "step", "save"} & set(vars(cls))  # the loop is the shell's
