"""``haleakala selftest``: every part passes on the sim backend with --auto, and a missing or
broken part is named in the report, with what to check, and the exit status is 1."""

from __future__ import annotations

from dataclasses import replace

import pytest

from haleakala import config as cfg
from haleakala.cli import main
from haleakala.hal import factory
from haleakala.hal.base import ZoneMap
from haleakala.hal.events import LinkHealth
from haleakala.hal.simulated import SimDisplay, SimHardware, SimLeds
from haleakala.hal.zones import DEFAULT_PIXELS_PER_SEGMENT, DEFAULT_ZONES, RING_ZONES
from haleakala.kit import selftest
from haleakala.kit.selftest import ConsoleOperator, SelfTest, SimOperator


@pytest.fixture(autouse=True)
def no_system_config(tmp_path, monkeypatch):
    monkeypatch.delenv(cfg.ENV_PATH, raising=False)
    monkeypatch.delenv(factory.ENV_BACKEND, raising=False)
    monkeypatch.setattr(cfg, "DEFAULT_PATH", tmp_path / "etc" / "config.toml")


def run_selftest(hw: SimHardware, config: cfg.Config | None = None, operator=None):
    config = config or cfg.Config()
    test = SelfTest(config, hw, operator or SimOperator(hw), timeout_s=0.05, pause=lambda _s: None)
    report = test.run()
    hw.close()
    return report


def result(report, part):
    (found,) = [r for r in report.results if r.part == part]
    return found


def test_every_part_passes_on_the_sim_backend(capsys):
    assert main(["selftest", "--auto", "--hardware", "sim"]) == 0
    lines = capsys.readouterr().out.splitlines()
    passes = [line for line in lines if line.startswith("PASS")]
    assert (
        len(passes) == 1 + 6 + 1 + 4 + 6
    )  # zone map, rings, OLED, select/back/encoder x2, beaches
    assert not [line for line in lines if line.startswith("FAIL")]
    assert lines[-1] == "18 of 18 parts pass"


def test_rfid_kit_tests_the_link_and_every_beach_reader(tmp_path, capsys):
    path = tmp_path / "rfid.toml"
    path.write_text('kit = "rfid"\n')
    assert main(["selftest", "--auto", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert "PASS  RFID link: seen" in out
    assert all(f"PASS  beach {b} reader: seen" in out for b in range(6))
    assert "beach 0 button" not in out


def test_rings_show_their_segment_number_then_each_zone():
    config = cfg.Config()
    leds = replace(config.leds, ring_order=(2, 0, 1, 5, 4, 3), brightness=1.0)
    config = replace(config, leds=leds)
    hw = SimHardware(ZoneMap.from_config(leds), history=None)
    run_selftest(hw, config)
    frames = list(hw.leds.frames)
    first_ring = frames[:9]  # count frame + 8 zones of ring 1 on the wire (segment 2)
    lit = [{i for i, p in enumerate(f.pixels) if p != (0, 0, 0)} for f in first_ring]
    assert lit[0] == {0, 1, 2}  # segment 2: three pixels from the ring's pixel 0
    assert lit[1] == set(DEFAULT_ZONES["water"])  # all of the water's pixels
    assert first_ring[1].zones == {(2, "water"): selftest.ZONE_COLOUR["water"]}
    assert lit[8] == set(DEFAULT_ZONES["slot_b"])  # slot_b, the last pixels of the tile


def test_encoder_that_never_answers_fails_naming_its_pins(capsys):
    class DeadEncoder(SimHardware):
        def turn(self, steps):  # the wires are off: nothing reaches the Pi
            pass

    report = run_selftest(DeadEncoder())
    assert not report.ok
    for direction in ("clockwise", "anticlockwise"):
        failed = result(report, f"encoder {direction}")
        assert not failed.ok
        assert failed.detail == "no turn seen in 0.05 s"
        assert "GPIO17 (header pin 11)" in failed.hint and "GPIO27 (header pin 13)" in failed.hint
    assert [r.part for r in report.failed] == ["encoder clockwise", "encoder anticlockwise"]
    assert report.lines()[-1] == (
        "16 of 18 parts pass; failed: encoder clockwise, encoder anticlockwise"
    )


def test_encoder_wired_backwards_says_to_swap_clk_and_dt():
    class Backwards(SimHardware):
        def turn(self, steps):
            super().turn(-steps)

    report = run_selftest(Backwards())
    failed = result(report, "encoder clockwise")
    assert "turned anticlockwise instead: swap the CLK and DT wires" in failed.detail


def test_display_that_raises_fails_with_the_i2c_checks():
    class DeadOled(SimDisplay):
        def show(self, image):
            raise OSError("[Errno 121] Remote I/O error")

    hw = SimHardware()
    hw.display = DeadOled()
    report = run_selftest(hw)
    failed = result(report, "OLED")
    assert failed.detail == "showing the test pattern failed: [Errno 121] Remote I/O error"
    assert "'i2cdetect -y 1' should show 0x3c" in failed.hint
    assert [r.part for r in report.failed] == ["OLED"]


def test_display_showing_the_wrong_picture_fails():
    class Garbled(SimDisplay):
        def show(self, image):
            super().show(image.transpose(0))  # mirrored: a wrong controller or orientation

    hw = SimHardware()
    hw.display = Garbled()
    failed = result(run_selftest(hw), "OLED")
    assert failed.detail == "the display shows something other than the test pattern"


def test_chain_that_stops_after_ring_3_fails_rings_4_to_6():
    ppr = DEFAULT_PIXELS_PER_SEGMENT

    class BrokenAfterRing3(SimLeds):
        def record(self, pixels, zones):
            super().record([p if i < 3 * ppr else (0, 0, 0) for i, p in enumerate(pixels)], zones)

    hw = SimHardware()
    hw.leds = BrokenAfterRing3(6 * ppr)
    report = run_selftest(hw)
    assert [r.part for r in report.failed] == [
        "LED ring 4 (under segment 3)",
        "LED ring 5 (under segment 4)",
        "LED ring 6 (under segment 5)",
    ]
    ring4 = result(report, "LED ring 4 (under segment 3)")
    assert (
        ring4.detail == "4 white pixel(s): chain pixels 99, 100, 101, 102 should light, saw nothing"
    )
    assert "ring 4's DIN wire from ring 3's DOUT" in ring4.hint


def test_zone_map_missing_a_zone_is_named_and_the_command_exits_1(tmp_path, capsys):
    # A ring build (12 pixels per segment) is judged by the self-test itself.
    path = tmp_path / "no_crater.toml"
    zones = "".join(f"{z} = {list(i)}\n" for z, i in RING_ZONES.items() if z != "crater")
    path.write_text("[leds]\npixels_per_ring = 12\n[leds.zones]\n" + zones)
    assert main(["selftest", "--auto", "--config", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        "FAIL  LED zone map: zone(s) crater have no pixels, so the game can never show them" in out
    )
    assert out.splitlines()[-1] == "17 of 18 parts pass; failed: LED zone map"


def test_printed_board_config_missing_a_zone_is_refused_before_the_self_test(tmp_path, capsys):
    # On the printed board the config itself is refused (issue 24): the crater would stay dark.
    path = tmp_path / "no_crater.toml"
    path.write_text(cfg.to_toml(cfg.Config()).replace("crater = [0, 1]\n", ""))
    assert main(["selftest", "--auto", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "on the printed board segment 0's crater" in err and "Traceback" not in err


def test_swapped_beach_buttons_are_reported_as_swapped():
    hw = SimHardware()
    tap = hw.inputs.tap
    swap = {"beach2": "beach3", "beach3": "beach2"}
    hw.inputs.tap = lambda button, **kw: tap(swap.get(button, button), **kw)
    report = run_selftest(hw)
    failed = result(report, "beach 2 button")
    assert failed.detail == "no press seen in 0.05 s (saw instead: press beach3)"
    assert "GPIO13 (header pin 33)" in failed.hint and "are two wires swapped?" in failed.hint
    assert [r.part for r in report.failed] == ["beach 2 button", "beach 3 button"]


def test_rfid_reader_answering_for_another_beach_names_both_chip_selects():
    config = replace(cfg.Config(), kit="rfid")
    hw = SimHardware()
    place = hw.place
    hw.place = lambda beach, discs: place({1: 2}.get(beach, beach), discs)
    report = run_selftest(hw, config)
    failed = result(report, "beach 1 reader")
    assert failed.detail.startswith("the tag was read on beach 2 instead")
    assert "(GP20 / GP21)" in failed.detail
    assert "NSS to GP20" in failed.hint


def test_rfid_link_down_fails_the_link_and_skips_the_readers():
    config = replace(cfg.Config(), kit="rfid")
    hw = SimHardware()
    hw.inputs.link = lambda ok, detail="": hw.inject(LinkHealth(False, "no RFID Pico found"))
    report = run_selftest(hw, config)
    link = result(report, "RFID link")
    assert link.detail == "the Pico did not answer (no RFID Pico found) in 0.05 s"
    assert "data cable" in link.hint
    assert all(
        result(report, f"beach {b} reader").detail == "not tested: the RFID link is down"
        for b in range(6)
    )


def test_a_person_answering_no_fails_that_ring_with_what_to_check():
    hw = SimHardware()
    answers = iter(["y", "y", "n", "", "yes", "y", "y"])
    printed = []

    class Person(ConsoleOperator):
        def act(self, step):  # the person presses what is asked
            SimOperator(hw).act(step)

    person = Person(out=None, ask=lambda _q: next(answers))
    person.say = printed.append
    report = run_selftest(hw, operator=person)
    failed = report.failed
    assert [r.part for r in failed] == ["LED ring 3 (under segment 2)"]
    assert failed[0].detail == "you answered no" and "leds.ring_order" in failed[0].hint
    assert any(line.startswith("FAIL  LED ring 3") for line in printed)


def test_no_answer_at_all_fails_visual_checks():
    hw = SimHardware()

    def closed(_question):
        raise EOFError

    class Person(ConsoleOperator):
        def act(self, step):
            SimOperator(hw).act(step)

    report = run_selftest(hw, operator=Person(out=None, ask=closed))
    assert result(report, "OLED").detail == "no answer (input closed)"


def test_hardware_that_cannot_open_is_one_failed_part(monkeypatch, capsys):
    def refuse(config, backend=None, **options):
        raise RuntimeError("cannot open the OLED on I2C bus 1 at 0x3c: [Errno 2] No such file")

    monkeypatch.setattr(factory, "open_hardware", refuse)
    assert main(["selftest", "--auto", "--hardware", "sim"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  hardware: cannot open: cannot open the OLED on I2C bus 1" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--auto", "--hardware", "pi"], "--auto needs the sim backend"),
        (["--hardware", "sim"], "the sim backend has nobody to press its buttons: add --auto"),
        (["--auto", "--timeout", "0"], "--timeout 0 must be positive"),
    ],
)
def test_misuse_is_a_one_line_error(argv, message, capsys):
    assert main(["selftest", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_rfid_on_a_pi_counts_tags_that_are_not_enrolled_yet():
    """Any tagged disc will do: raw UIDs from the Pico become TagsSeen for their beach, and a
    reader passes on them even when the tag is in no [tags] map (no BeachContents at all)."""
    relay = selftest.TagsRelay()
    posted = []
    relay.start(posted.append)
    tag = frozenset({"E0040150A1B2C3D4"})
    relay.seen((None, tag, frozenset(), None, None, None))
    assert posted == [selftest.TagsSeen(1, tag)]
    relay.seen((None, tag, frozenset(), None, None, None))  # still lying there: no answer
    relay.seen((None, frozenset(), tag, None, None, None))  # moved to beach 2
    assert posted[1:] == [selftest.TagsSeen(2, tag)]

    hw = SimHardware()
    config = replace(cfg.Config(), kit="rfid")

    class UnenrolledTags(SimOperator):
        def act(self, step):
            if step.action[0] == "place":
                test.post(selftest.TagsSeen(step.action[1], frozenset({"E004AA"})))
            else:
                super().act(step)

    test = SelfTest(config, hw, UnenrolledTags(hw), timeout_s=0.05)
    report = test.run()
    hw.close()
    assert report.ok, report.lines()
    assert result(report, "beach 5 reader").detail == "seen"


def test_selftest_on_the_pi_backend_through_the_vendor_mocks():
    """The same steps on ``open_pi_hardware``: gpiozero's MockFactory pins are driven as a
    person would press and turn, the NeoPixel and luma dummy receive the frames."""
    mock = pytest.importorskip("gpiozero.pins.mock")
    luma_device = pytest.importorskip("luma.core.device")
    from haleakala.hal.pi import open_pi_hardware
    from haleakala.hal.simulated import SimClock

    class NeoPixel:
        def __init__(self, pin, n, *, brightness, auto_write, pixel_order):
            self.buffer = [(0, 0, 0)] * n
            self.shown = []

        def __setitem__(self, index, value):
            self.buffer[index] = value

        def fill(self, colour):
            self.buffer = [colour] * len(self.buffer)

        def show(self):
            self.shown.append(list(self.buffer))

        def deinit(self):
            pass

    class Board:
        board_id = "RASPBERRY_PI_4B"
        D10 = "pin-D10"

    made = []
    factory = mock.MockFactory()
    clock = SimClock()
    config = cfg.Config()
    hw = open_pi_hardware(
        config,
        pin_factory=factory,
        neopixel_class=lambda *a, **k: made.append(NeoPixel(*a, **k)) or made[-1],
        board=Board,
        display_device=luma_device.dummy(mode="1"),
        clock=clock,
        ticker=False,
    )
    gpio = {"select": 22, "back": 23, **{f"beach{b}": config.pins.beach(b) for b in range(6)}}

    class Person(ConsoleOperator):
        def act(self, step):
            if step.action[0] == "press":
                pin = factory.pin(gpio[step.action[1]])
                pin.drive_low()
                clock.advance(0.05)
                pin.drive_high()
            elif step.action[0] == "turn":
                a, b = factory.pin(17), factory.pin(27)
                cw = [(0, 1), (0, 0), (1, 0), (1, 1)]
                for la, lb in cw if step.action[1] > 0 else [(b, a) for a, b in cw]:
                    a.drive_high() if la else a.drive_low()
                    b.drive_high() if lb else b.drive_low()

        def confirm(self, check):
            if check.image is not None:  # what the panel shows while the person looks
                seen.append(hw.display.device.image.tobytes() == check.image.tobytes())
            return super().confirm(check)

    seen = []
    person = Person(out=None, ask=lambda _q: "y")
    person.say = lambda _text: None
    try:
        report = SelfTest(config, hw, person, timeout_s=0.2, pause=lambda _s: None).run()
        count_frame = made[0].shown[0]
        assert [i for i, p in enumerate(count_frame) if p != (0, 0, 0)] == [0]  # ring 1: 1 px
        assert seen == [True]  # the test pattern reached the luma device
    finally:
        hw.close()
        factory.close()
    assert report.ok, report.lines()
    assert len(report.results) == 18


def test_rfid_kit_on_sim_reads_every_beach_through_the_factorys_virtual_pico(
    tmp_path, capsys, monkeypatch
):
    """The self-test's RFID link comes from the factory with the hardware: on sim a virtual
    Pico read by the real driver, which the simulated person replugs for the link step and
    lays a tag on for each reader (any tag: this one is not enrolled)."""
    from haleakala.hal.rfid.virtual_link import VirtualPicoLink
    from haleakala.kit.selftest_steps import ANY_TAG

    opened = []
    real = factory.open_hardware

    def recording(config, backend=None, **options):
        hw = real(config, backend, **options)
        opened.append((options, hw))
        return hw

    monkeypatch.setattr(factory, "open_hardware", recording)
    path = tmp_path / "rfid.toml"
    path.write_text('kit = "rfid"\n')
    assert main(["selftest", "--auto", "--config", str(path)]) == 0
    assert "PASS  RFID link: seen" in capsys.readouterr().out
    ((options, hw),) = opened
    assert options["rfid"] is True and isinstance(hw.rfid, VirtualPicoLink)
    health = hw.rfid.health()
    # started with the inputs, then plugged in again; when the replug lands while the first
    # open is still setting the port up, that open fails (EIO) and only the replug connects
    assert health["connects"] >= 1 and health["driver_errors"] == 0
    assert health["unknown_tags"] == [ANY_TAG] and health["snapshots"] > 0
    assert not hw.rfid.driver.running  # closed with the hardware


# --------------------------------------------------------------------------- one tile


def test_one_tile_on_the_bench_lights_its_pixels_one_by_one_then_its_button(capsys):
    assert main(["selftest", "--auto", "--hardware", "sim", "--tile", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "PASS  tile 0's pixels: 33 pixels, one by one" in out
    assert "PASS  beach 0 button: seen" in out
    assert not any(line.startswith(("PASS  LED ring", "PASS  OLED")) for line in out)
    assert out[-1] == "3 of 3 parts pass"


def test_one_tile_of_the_rfid_kit_tests_the_link_and_its_own_reader(tmp_path, capsys):
    path = tmp_path / "rfid.toml"
    path.write_text('kit = "rfid"\n')
    assert main(["selftest", "--auto", "--config", str(path), "--tile", "3"]) == 0
    out = capsys.readouterr().out
    assert "PASS  RFID link: seen" in out and "PASS  beach 3 reader: seen" in out
    assert "beach 2 reader" not in out


def test_a_dead_pixel_on_the_bench_fails_naming_the_first_dark_one():
    from haleakala.kit.selftest_tile import run_tile

    class DeadPixel5(SimLeds):  # a cold joint on pixel 5's DIN: it and the rest stay dark
        def record(self, pixels, zones):
            super().record([p if i < 5 else (0, 0, 0) for i, p in enumerate(pixels)], zones)

    hw = SimHardware(history=None)
    hw.leds = DeadPixel5(6 * DEFAULT_PIXELS_PER_SEGMENT)
    report = run_tile(SelfTest(cfg.Config(), hw, SimOperator(hw), timeout_s=0.05), 0)
    hw.close()
    failed = result(report, "tile 0's pixels")
    assert failed.detail == "pixel 5 (forest): chain pixels 5 should light, saw nothing"
    assert "first pixel that stayed dark" in failed.hint


def test_the_tile_is_checked_where_the_ring_order_puts_it():
    from haleakala.kit.selftest_tile import run_tile

    config = cfg.Config()
    config = replace(config, leds=replace(config.leds, ring_order=(2, 0, 1, 5, 4, 3)))
    hw = SimHardware(ZoneMap.from_config(config.leds), history=None)
    report = run_tile(SelfTest(config, hw, SimOperator(hw), timeout_s=0.05), 1)
    hw.close()
    assert report.ok
    first = [i for i, p in enumerate(hw.leds.frames[0].pixels) if p != (0, 0, 0)]
    assert first == [2 * DEFAULT_PIXELS_PER_SEGMENT]  # segment 1 is third on the wire


def test_a_tile_that_does_not_exist_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["selftest", "--auto", "--hardware", "sim", "--tile", "6"])
    assert "--tile" in capsys.readouterr().err
