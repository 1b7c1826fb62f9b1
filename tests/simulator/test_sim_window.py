"""The real simulator window under Xvfb: injected mouse and keys play decisions; the screenshot
shows the LEDs, the OLED and the disc that was placed."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from support.display import x_display_of
from support.waiting import wait_for

from haleakala.games.haleakala.views import layout as L
from haleakala.hal.simulated import SimClock
from haleakala.simulator.colours import family

pytestmark = pytest.mark.xvfb

pygame = pytest.importorskip("pygame", reason="the window needs pygame (the sim extra)")


@pytest.fixture(scope="module")
def x_display():
    with x_display_of(L.WIDTH, L.HEIGHT) as name:
        yield name


@pytest.fixture
def window(x_display, tmp_path):
    from haleakala.simulator.session import SimSession
    from haleakala.simulator.window import SimWindow

    pygame.display.init()
    screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
    session = SimSession(
        kit="buttons", seed=1, start="red", state_dir=tmp_path / "state", clock=SimClock()
    )  # time moves only in frames(): exact on any load
    win = SimWindow(session, screen=screen)
    win.step()
    yield win
    session.close()
    pygame.display.quit()


def frames(win, seconds: float = 0.08, until: Callable[[], bool] | None = None) -> None:
    """Run the window's loop for a moment of the session's clock (the debouncer needs its
    20 ms lockout to pass), one frame every 5 ms of it. A session on live time (the RFID kit,
    whose reader thread runs on a real pty) runs frames ``until`` its condition holds."""
    if until is not None:
        wait_for(lambda: (win.step(), until())[1], "the window to show the outcome")
        return
    for _ in range(round(seconds / 0.005)):
        win.session.advance(0.005)
        win.step()


def click(win, pos, until: Callable[[], bool] | None = None) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(win, until=until)


def key(win, k) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=""))
    frames(win)


def wheel(win, steps: int) -> None:
    for _ in range(abs(steps)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1 if steps > 0 else -1))
    frames(win)


def test_window_plays_decisions_from_mouse_and_keys_and_shows_them(window, tmp_path):
    assert pygame.display.get_driver() == "x11"
    session = window.session
    knob = L.ENCODER_CENTRE
    # Red: beach 2's button, the encoder to "place 3", push the knob: 3@2.
    click(window, L.at(2, *L.BEACH_BUTTON))
    assert session.prompt[0] == "RED: BEACH 2"
    wheel(window, 2)
    click(window, knob)
    # The shaman stays (the first option): push the knob.
    click(window, knob)
    # Yellow with the keyboard: 5 = beach 4's button, → once = place 2, Enter; Enter (stay).
    key(window, pygame.K_5)
    key(window, pygame.K_RIGHT)
    key(window, pygame.K_RETURN)
    key(window, pygame.K_RETURN)
    game = session.game
    assert [game.format(d) for d in game.history] == ["3@2", ">stay", "2@4", ">stay"]
    assert session.table.beaches[2] == {"red3"} and session.table.beaches[4] == {"yellow2"}

    path = tmp_path / "window.png"
    window.save(str(path))
    from PIL import Image

    shot = Image.open(path).convert("RGB")
    assert shot.size == (1280, 800)
    # The OLED area shows lit pixels (the prompt), not a blank panel.
    x, y, w, h = L.OLED_RECT
    oled = shot.crop((x, y, x + w, y + h))
    lit = sum(oled.convert("L").histogram()[1:])
    assert lit > 2000
    # Every lit LED's core has the hue of the very pixel handed to the sim LED chain (zone
    # map applied), and reads as lit even when it is sent dim (a glow, not a dark dot); the
    # beaches red may use now are lit.
    sent = session.hw.leds.last.pixels
    zone_map = session.hw.zone_map
    lit = 0
    for segment in range(6):
        for zone in ("beach", "water", "slot_a"):
            indices = zone_map.pixels_of(segment, zone)
            for j, index in enumerate(indices):
                if not any(sent[index]):
                    continue
                lit += 1
                core = shot.getpixel(L.led_position(segment, zone, j, len(indices)))
                hue = tuple(c * 255 // max(sent[index]) for c in sent[index])  # at full power
                assert family(core) == family(hue), (segment, zone, j, core, sent[index])
                assert max(core) >= 150, (segment, zone, j, core)
    assert lit > 10
    beach0 = [sent[i] for i in zone_map.pixels_of(0, "beach")]
    assert all(r > 0 and g == 0 for r, g, _ in beach0), beach0
    # The placed disc lies on beach 2, red; yellow's 2 on beach 4 (sampled above the digit).
    x, y = L.disc_position(2, "red", 0)
    r, g, b = shot.getpixel((x, y - 8))
    assert r > 180 and g < 90 and b < 90
    x, y = L.disc_position(4, "yellow", 0)
    r, g, b = shot.getpixel((x, y - 8))
    assert r > 200 and g > 160 and b < 80
    # Where no disc lies (beach 3), the sand shows.
    x, y = L.disc_position(3, "red", 0)
    r, g, b = shot.getpixel((x, y - 8))
    assert not (r > 180 and g < 90 and b < 90)


def test_holding_back_undoes_and_help_overlay_toggles(window):
    session = window.session
    key(window, pygame.K_3)  # beach 2
    key(window, pygame.K_RETURN)  # place 1
    assert len(session.game.history) == 1
    # Back held past the hold time (0.8 s) through the real debouncer: undo.
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode=""))
    frames(window, 0.95)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_BACKSPACE, mod=0, unicode=""))
    frames(window)
    assert session.game.history == []
    assert session.prompt[0] == "UNDONE"
    before = window.screen.get_at((40, 40))
    key(window, pygame.K_h)
    assert window.show_help
    after = window.screen.get_at((40, 40))
    assert sum(after[:3]) < sum(before[:3])  # the overlay darkens the island
    key(window, pygame.K_ESCAPE)
    assert not window.show_help


def test_rfid_window_drag_a_tagged_disc_onto_a_beach(x_display, tmp_path):
    """RFID kit: the disc dragged from the tray is a tag on the virtual Pico, read by the real
    driver over a pty; the companion takes it as the placement."""
    from haleakala.simulator.session import SimSession
    from haleakala.simulator.window import SimWindow

    pygame.display.init()
    screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
    session = SimSession(kit="rfid", seed=1, start="red", state_dir=tmp_path / "state")
    try:
        assert session.link is not None and session.link.transport == "pty"
        win = SimWindow(session, screen=screen)
        win.step()
        start, drop = L.tray_position("red", 3), L.at(2, *L.BEACH_BUTTON)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=drop, rel=(0, 0), buttons=(1, 0, 0))
        )
        frames(win, until=lambda: win.drag is not None)
        assert win.drag[0] == "red3"
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=drop, button=1))
        frames(win, until=lambda: len(session.game.history) == 1)
        game = session.game
        assert [game.format(d) for d in game.history] == ["3@2"]
        assert session.companion.sensed_board()[2] == session.companion.expected_board().beaches[2]
        # Dragging yellow's disc now is out of turn: refused, the game unchanged.
        click(win, L.ENCODER_CENTRE, until=lambda: len(session.game.history) == 2)  # shaman stays
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=L.tray_position("red", 1), button=1)
        )
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=L.at(4, *L.BEACH_BUTTON), button=1)
        )
        frames(win, until=lambda: "OUT OF TURN" in " ".join(session.prompt))
        assert len(session.game.history) == 2
        assert "OUT OF TURN" in " ".join(session.prompt)
    finally:
        session.close()
        pygame.display.quit()


def test_sim_command_opens_the_window_on_the_display_and_saves_a_screenshot(x_display, tmp_path):
    import subprocess
    import sys

    from PIL import Image

    out = tmp_path / "sim.png"
    env = dict(os.environ, DISPLAY=x_display, XDG_STATE_HOME=str(tmp_path))
    env.pop("SDL_VIDEODRIVER", None)
    result = subprocess.run(
        [sys.executable, "-m", "haleakala", "sim", "--screenshot", str(out), "--kit", "rfid",
         "--variant", "tactical", "--seed", "11", "--decisions", "40"],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-800:]
    assert "drawing the window offscreen" not in result.stderr  # a real window was opened
    with Image.open(out) as image:
        assert image.size == (1280, 800)
        x, y, w, h = L.TRAY_RECTS["red"]
        tray = image.convert("RGB").crop((x, y, x + w, y + h))
        assert tray.getcolors(100000) and len(tray.getcolors(100000)) > 20


def outline_pixel(win, beach: int) -> tuple[int, int, int]:
    """The screen pixel on the outer edge of a beach, where its outline runs."""
    return tuple(win.screen.get_at(L.at(beach, L.BANDS["beach"][0], 0)))[:3]


def test_legal_beaches_pulse_in_the_legal_target_colour_by_the_frame_counter(window):
    """The outlines follow the frame counter, not the clock: the same frame, the same
    picture; and they are drawn by the window, whatever the LEDs show. Their colour is the
    palette's legal target (light blue by default), never a player's: an outline round a
    beach is not taken for that player's disc."""
    window.session.hw.leds.off()  # the LEDs dark: the outlines still show
    window.frames = 0
    window.step([])  # drawn at frame 0: the dimmest step
    dim = outline_pixel(window, 3)
    window.frames = 24
    window.step([])  # frame 24: the brightest
    bright = outline_pixel(window, 3)
    assert family(bright) == "cyan" and family(dim) in ("cyan", "white")  # pulsing, faded
    assert sum(bright) > sum(dim) + 60
    window.frames = 24
    window.step([])
    assert outline_pixel(window, 3) == bright
    assert {m.index for m in window.legal_now() if m.kind == "beach"} == set(range(6))


def test_log_lines_speak_words_in_the_movers_colour_and_mark_the_last_move(window):
    from haleakala.simulator.logbook import LOG_PLAYER

    key(window, pygame.K_3)  # beach 2
    key(window, pygame.K_RIGHT)
    key(window, pygame.K_RIGHT)
    key(window, pygame.K_RETURN)  # place 3
    assert window.session.game.history
    assert ("Red places 3 on beach 2", LOG_PLAYER["red"]) in window.log_lines
    assert not any(line.startswith("1. ") for line, _ in window.log_lines)
    who, mark = window.story.last
    assert who == "red" and mark.label == "beach 2"


RESIZE = """
import pygame
from haleakala.hal.simulated import SimClock
from haleakala.games.haleakala.views import layout as L
from haleakala.simulator.session import SimSession
from haleakala.simulator.window import WINDOW_FLAGS, SimWindow

pygame.display.init()
screen = pygame.display.set_mode((1600, 900), WINDOW_FLAGS)  # as the player left it
with SimSession(kit="buttons", seed=1, start="red", clock=SimClock()) as session:
    win = SimWindow(session, screen=screen)
    win.step([])
    print("window", *pygame.display.get_surface().get_size())
    print("canvas", *win.screen.get_size())
    print("view", *win.view)
    x, y = L.at(2, *L.BEACH_BUTTON)  # beach 2's button where the scaled canvas shows it
    pos = (round(win.view.x + x * win.view.width / L.WIDTH), round(y * win.view.height / L.HEIGHT))
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        win.handle(pygame.event.Event(kind, pos=pos, button=1))
        for _ in range(20):
            session.advance(0.005)
            win.step()
    print("prompt", session.prompt[0])
    shown = pygame.display.get_surface()
    print("bars", *shown.get_at((10, 450))[:3], *shown.get_at((1590, 450))[:3])
    win.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode=""))
    win.step([])
    print("full", win.fullscreen, *pygame.display.get_surface().get_size(), *win.screen.get_size())
"""


def test_the_window_scales_its_canvas_when_resized(x_display):
    """At another size, the window keeps drawing its 1280×800 canvas and shows it scaled
    with its proportions kept (black bars at the sides of a wider window); clicks land where
    the scaled picture shows things; F11 fills the screen. In its own process, so the mode
    changes cannot touch the other tests' windows."""
    import subprocess
    import sys

    env = dict(os.environ, DISPLAY=x_display, SDL_VIDEODRIVER="x11")
    result = subprocess.run(
        [sys.executable, "-c", RESIZE], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr[-800:]
    assert "window 1600 900" in result.stdout
    assert "canvas 1280 800" in result.stdout
    assert "view 80 0 1440 900" in result.stdout  # 1.125 times, centred
    assert "bars 0 0 0 0 0 0" in result.stdout
    assert "prompt RED: BEACH 2" in result.stdout
    assert "full True 1280 800 1280 800" in result.stdout  # F11: the whole (virtual) screen


def test_the_end_of_the_game_shows_every_scoring_and_e_hides_it(x_display, tmp_path):
    from haleakala.simulator.session import SimSession
    from haleakala.simulator.window import SimWindow

    pygame.display.init()
    screen = pygame.display.set_mode((L.WIDTH, L.HEIGHT))
    session = SimSession(kit="buttons", seed=3, start="red", state_dir=tmp_path / "state",
                         journal_sync=False, clock=SimClock())  # fmt: skip
    try:
        while session.bot_step(block=True) is not None:
            pass
        assert session.game.is_terminal()
        win = SimWindow(session, screen=screen)
        win.step([])
        x, _y, w, _h = L.END_RECT
        inside = (x + w - 12, L.HEIGHT // 2)  # the table is centred on the island
        assert tuple(win.screen.get_at(inside))[:3] == (16, 18, 24)  # the table's ground
        assert win.show_end
        key(win, pygame.K_e)
        assert not win.show_end
        assert tuple(win.screen.get_at(inside))[:3] != (16, 18, 24)  # the island again
    finally:
        session.close()
        pygame.display.quit()


def test_the_option_under_the_cursor_is_marked_on_the_island(window):
    """Choosing the shaman's space: the space under the encoder's cursor carries a white
    ring and pointer, and the mark follows the encoder."""
    click(window, L.at(2, *L.BEACH_BUTTON))
    wheel(window, 2)
    click(window, L.ENCODER_CENTRE)  # 3@2: now red's shaman moves (or stays)
    assert window.session.game.phase_name == "shaman"
    first = window.selected_mark()
    wheel(window, 1)
    second = window.selected_mark()
    assert first is not None and second is not None
    assert first.kind == second.kind == "space" and first != second
    x, y = L.space_position(int(second.index), "red")
    pointer = (x, y - 18 - 2 - 8)  # inside the pointer above the ring
    assert tuple(window.screen.get_at(pointer))[:3] == (255, 255, 255)


def test_a_shaman_off_its_space_gets_a_white_ring(window):
    """A piece not where the game has it is marked on the island, shamans and statues too
    (not only discs)."""
    session = window.session
    here = session.table.shamans["red"]
    elsewhere = 0 if here != 0 else 1  # 0G: a land space the game does not have red on
    session.table.shamans["red"] = elsewhere
    session.changes += 1
    window.step([])
    x, y = L.space_position(elsewhere, "red")
    assert tuple(window.screen.get_at((x, y + 14)))[:3] == (255, 255, 255)  # the ring
    assert tuple(window.screen.get_at((x + 8, y - 13)))[:3] == (255, 255, 255)  # the "!" badge
