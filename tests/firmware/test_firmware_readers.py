"""The reader drivers against register-level fake chips on a fake ``machine`` SPI bus, and
``main.py`` end to end: config -> pins -> readers -> scanner -> frames the host parses."""

from __future__ import annotations

import importlib.util
import types
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.fake_pico import (
    FIRMWARE,
    AbsentChip,
    FakeMachine,
    FakeMFRC522,
    FakePN5180,
    MachineReset,
    firmware_module,
    firmware_on_path,
)

from haleakala.hal.rfid import protocol


@pytest.fixture
def machine() -> Iterator[FakeMachine]:
    fake = FakeMachine()
    with firmware_on_path(fake):
        yield fake


def pn5180(machine: FakeMachine, chip, cs: int = 17, busy: int = 2, rst: int = 3):
    machine.attach(cs, chip, busy=busy)
    reader_cls = firmware_module("haleakala_pico.pn5180").PN5180
    spi = machine.SPI(0)
    return reader_cls(
        spi, machine.Pin(cs, 1, value=1), machine.Pin(busy, 0), machine.Pin(rst, 1, value=1)
    )


def mfrc522(machine: FakeMachine, chip, cs: int = 20, rst: int = 5):
    machine.attach(cs, chip)
    reader_cls = firmware_module("haleakala_pico.mfrc522").MFRC522
    return reader_cls(machine.SPI(0), machine.Pin(cs, 1, value=1), machine.Pin(rst, 1, value=1))


def fault_kind(call) -> str:
    fault = firmware_module("haleakala_pico.reader").ReaderFault
    with pytest.raises(fault) as info:
        call()
    return info.value.kind


# ----------------------------------------------------------------------------- PN5180

ISO = st.integers(0, (1 << 56) - 1).map(lambda n: f"E0{n:014X}")


def test_pn5180_reads_one_tag_with_its_uid_most_significant_byte_first(machine) -> None:
    reader = pn5180(machine, FakePN5180(["E004015012345678"]))
    reader.init()
    assert reader.version == "3.5"
    assert reader.inventory() == ["E004015012345678"]


def test_pn5180_reads_a_stack_of_discs(machine) -> None:
    tags = ["E004015000000001", "E004015000000012", "E004015000000023", "E0040150000000A4"]
    reader = pn5180(machine, FakePN5180(tags))
    reader.init()
    assert sorted(reader.inventory()) == sorted(tags)


def test_pn5180_resolves_tags_that_answer_in_the_same_slot(machine) -> None:
    # Same last nibble -> same slot -> collision -> second poll with a 4-bit mask.
    tags = ["E004015000000011", "E004015000000021", "E0040150000001F1"]
    chip = FakePN5180(tags)
    reader = pn5180(machine, chip)
    reader.init()
    reader.inventory()  # first scan probes an empty-looking beach
    requests = chip.requests
    assert sorted(reader.inventory()) == sorted(tags)
    assert chip.requests - requests >= 2  # the collision cost at least one more poll


@settings(max_examples=60, deadline=None)
@given(tags=st.sets(ISO, max_size=8))
def test_pn5180_finds_exactly_the_tags_in_its_field(tags: set[str]) -> None:
    fake = FakeMachine()
    with firmware_on_path(fake):
        reader = pn5180(fake, FakePN5180(sorted(tags)))
        reader.init()
        for _ in range(2):  # probe path, then full-inventory path
            assert sorted(reader.inventory()) == sorted(tags)


def test_pn5180_empty_beach_costs_only_a_one_slot_probe(machine) -> None:
    chip = FakePN5180([])
    reader = pn5180(machine, chip)
    reader.init()
    for _ in range(3):
        assert reader.inventory() == []
    assert chip.requests == 3 and chip.slots_opened == 3


def test_pn5180_lone_tag_on_an_empty_beach_is_read_by_the_probe_alone(machine) -> None:
    """A clean answer to the 1-slot probe is the tag; the confirming scan after it reads
    just that tag again (1 slot masked with its whole UID); a second tag that came meanwhile
    is read by a later scan."""
    chip = FakePN5180([])
    reader = pn5180(machine, chip)
    reader.init()
    reader.inventory()
    chip.tags = ["E004015000000005"]
    requests, slots = chip.requests, chip.slots_opened
    assert reader.inventory() == ["E004015000000005"]
    assert (chip.requests - requests, chip.slots_opened - slots) == (1, 1)
    chip.tags = ["E004015000000005", "E004015000000016"]
    requests = chip.requests
    assert reader.inventory() == ["E004015000000005"]  # the confirming scan
    assert chip.requests - requests == 1 and chip.inventory is None
    assert sorted(reader.inventory()) == chip.tags  # a probe: collision, settled


def test_pn5180_confirming_scan_reads_only_the_doubtful_tags(machine) -> None:
    """Issue 24: the debounce's second scan re-reads the tag the first scan changed its
    mind about, not the whole beach: one 1-slot request masked with its 64-bit UID."""
    stack = ["E004015000000011", "E004015000000022", "E004015000000033"]
    chip = FakePN5180(stack)
    reader = pn5180(machine, chip)
    reader.init()
    reader.inventory()
    reader.inventory()
    assert sorted(reader.inventory()) == stack  # settled: a 16-slot inventory
    chip.tags = stack[:2]
    assert sorted(reader.inventory()) == stack[:2]  # full: the third tag is gone
    requests, slots = chip.requests, chip.slots_opened
    assert sorted(reader.inventory()) == stack[:2]  # confirm: still gone
    assert (chip.requests - requests, chip.slots_opened - slots) == (1, 1)
    assert sorted(reader.inventory()) == stack[:2]  # then the whole beach again
    assert chip.slots_opened - slots > 16


def test_pn5180_a_new_tag_colliding_with_the_known_one_is_read_after_stay_quiet(machine) -> None:
    """A probe collision on a beach with one known tag: that tag is told to stay quiet and
    the slot asked again, instead of a 16-slot inventory."""
    known, new = "E004015000000005", "E004015000000015"
    chip = FakePN5180([known])
    reader = pn5180(machine, chip)
    reader.init()
    for _ in range(3):
        assert reader.inventory() == [known]
    chip.tags = [known, new]
    slots = chip.slots_opened
    assert sorted(reader.inventory()) == [known, new]
    assert chip.quiet_requests == 1 and chip.slots_opened - slots == 2


def test_pn5180_known_tags_sharing_a_slot_are_settled_by_stay_quiet(machine) -> None:
    same_slot = ["E004015000000011", "E004015000000021"]
    chip = FakePN5180(same_slot)
    reader = pn5180(machine, chip)
    reader.init()
    reader.inventory()
    reader.inventory()
    slots, quiet = chip.slots_opened, chip.quiet_requests
    assert sorted(reader.inventory()) == same_slot
    assert chip.quiet_requests - quiet == 2 and chip.slots_opened - slots == 17
    chip.tags = [same_slot[0], "E004015000000031"]  # one left, another came
    assert sorted(reader.inventory()) == sorted(chip.tags)  # not explained: polled again


def test_pn5180_a_weak_tag_under_a_strong_one_is_found_within_full_every_scans(machine) -> None:
    """The probe's single slot lets a strong tag drown a weak one; the verify (the strong
    tag told to stay quiet, the slot asked again) hears it, at the latest on the
    FULL_EVERY-th scan."""
    strong, weak = "E004015000000005", "E004015000000016"
    chip = FakePN5180([strong])
    reader = pn5180(machine, chip)
    reader.init()
    for _ in range(3):
        reader.inventory()
    chip.tags, chip.weak = [strong, weak], {weak}
    every = firmware_module("haleakala_pico.pn5180").FULL_EVERY
    seen = [sorted(reader.inventory()) for _ in range(every)]
    assert [strong, weak] in seen


@settings(max_examples=40, deadline=None)
@given(fields=st.lists(st.sets(ISO, max_size=5), min_size=1, max_size=5))
def test_pn5180_reports_the_field_once_it_stays_still(fields: list[set[str]]) -> None:
    """Whatever the probes, confirms and Stay quiet shortcuts do, a field that stops
    changing is reported exactly within two scans and stays so."""
    fake = FakeMachine()
    with firmware_on_path(fake):
        chip = FakePN5180([])
        reader = pn5180(fake, chip)
        reader.init()
        for field in fields:
            chip.tags = sorted(field)
            scans = [sorted(reader.inventory()) for _ in range(6)]
            assert scans[2:] == [sorted(field)] * 4


def test_pn5180_probe_answer_is_followed_by_a_full_inventory(machine) -> None:
    chip = FakePN5180([])
    reader = pn5180(machine, chip)
    reader.init()
    reader.inventory()
    chip.tags = ["E004015000000005", "E004015000000016"]
    assert sorted(reader.inventory()) == chip.tags
    chip.tags = []
    assert reader.inventory() == []  # tags left: the full inventory says so


def test_pn5180_silent_slots_end_by_timeout_when_no_rx_interrupt(machine) -> None:
    chip = FakePN5180(["E004015000000007"], silence_irq=False)
    reader = pn5180(machine, chip)
    reader.init()
    assert reader.inventory() == ["E004015000000007"]


def test_pn5180_field_is_off_after_every_scan(machine) -> None:
    chip = FakePN5180(["E004015000000007"])
    reader = pn5180(machine, chip)
    reader.init()
    reader.inventory()
    assert chip.rf_on is False


def test_pn5180_missing_chip_is_a_nochip_fault(machine) -> None:
    reader = pn5180(machine, AbsentChip())
    assert fault_kind(reader.init) == "nochip"


def test_pn5180_stuck_busy_line_is_a_timeout_fault(machine) -> None:
    chip = FakePN5180([])
    reader = pn5180(machine, chip)
    reader.init()
    chip.busy_stuck = True
    assert fault_kind(reader.inventory) == "timeout"


def test_pn5180_tag_error_flag_is_a_bad_response_fault(machine) -> None:
    chip = FakePN5180(["E004015000000007"])
    reader = pn5180(machine, chip)
    reader.init()
    chip.garble = True
    assert fault_kind(reader.inventory) == "badresp"


def test_pn5180_chip_that_vanishes_mid_scan_is_a_fault(machine) -> None:
    chip = FakePN5180(["E004015000000007"])
    reader = pn5180(machine, chip)
    reader.init()
    chip.absent = True  # registers now read all ones
    assert fault_kind(reader.inventory) == "nochip"


# ----------------------------------------------------------------------------- MFRC522


def test_mfrc522_reads_a_seven_byte_ntag_uid(machine) -> None:
    reader = mfrc522(machine, FakeMFRC522(["04A1B2C3D4E5F6"]))
    reader.init()
    assert reader.version == "92"
    assert reader.inventory() == ["04A1B2C3D4E5F6"]


@pytest.mark.parametrize("uid", ["11223344", "04A1B2C3D4E5F6", "0102030405060708090A"])
def test_mfrc522_reads_every_cascade_level(machine, uid: str) -> None:
    reader = mfrc522(machine, FakeMFRC522([uid]))
    reader.init()
    assert reader.inventory() == [uid]


def test_mfrc522_rereads_a_halted_tag_on_every_scan(machine) -> None:
    reader = mfrc522(machine, FakeMFRC522(["04A1B2C3D4E5F6"]))
    reader.init()
    assert [reader.inventory() for _ in range(4)] == [["04A1B2C3D4E5F6"]] * 4


def test_mfrc522_empty_field_is_empty(machine) -> None:
    chip = FakeMFRC522([])
    reader = mfrc522(machine, chip)
    reader.init()
    assert reader.inventory() == []
    chip.put("04A1B2C3D4E5F6")
    assert reader.inventory() == ["04A1B2C3D4E5F6"]
    chip.take("04A1B2C3D4E5F6")
    assert reader.inventory() == []


def test_mfrc522_two_tags_are_a_collision_fault_then_reads_resume(machine) -> None:
    chip = FakeMFRC522(["04A1B2C3D4E5F6", "04FFEEDDCCBBAA"])
    reader = mfrc522(machine, chip)
    reader.init()
    assert fault_kind(reader.inventory) == "collision"
    chip.take("04FFEEDDCCBBAA")
    assert reader.inventory() == ["04A1B2C3D4E5F6"]


def test_mfrc522_missing_chip_is_a_nochip_fault(machine) -> None:
    reader = mfrc522(machine, AbsentChip())
    assert fault_kind(reader.init) == "nochip"


def test_mfrc522_chip_that_never_interrupts_is_a_timeout_fault(machine) -> None:
    chip = FakeMFRC522(["04A1B2C3D4E5F6"])
    reader = mfrc522(machine, chip)
    reader.init()
    chip.silent = True
    assert fault_kind(reader.inventory) == "timeout"


# ----------------------------------------------------------------------------- main.py


def load_main() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("haleakala_pico_main", FIRMWARE / "main.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kit_config(kinds: list[str]) -> types.SimpleNamespace:
    config = firmware_module("haleakala_pico.config")
    values = {k: getattr(config, k) for k in dir(config) if k.isupper()}
    readers = [dict(spec, kind=kind) for spec, kind in zip(config.READERS, kinds, strict=True)]
    values.update(READERS=tuple(readers), WATCHDOG_MS=8000)
    return types.SimpleNamespace(**values)


def test_main_builds_the_kit_from_config_and_streams_parsable_frames(machine) -> None:
    config = firmware_module("haleakala_pico.config")
    chips = [
        FakePN5180(),
        FakePN5180(["E004015000000001", "E004015000000002"]),
        AbsentChip(),
        FakePN5180(),
        FakeMFRC522(["04A1B2C3D4E5F6"]),
        FakePN5180(),
    ]
    for spec, chip in zip(config.READERS, chips, strict=True):
        machine.attach(spec["cs"], chip, busy=spec["busy"])
    kinds = ["pn5180"] * 4 + ["mfrc522", "pn5180"]
    lines: list[str] = []
    load_main().main(kit_config(kinds), emit=lines.append, steps=60)
    frames = [protocol.parse(line.encode()) for line in lines]
    hello = frames[0]
    assert isinstance(hello, protocol.Hello) and hello.readers == tuple(kinds)
    faults = [f for f in frames if isinstance(f, protocol.Fault)]
    assert [(f.reader, f.fault) for f in faults][:1] == [(2, "nochip")]
    last = [f for f in frames if isinstance(f, protocol.Snapshot)][-1]
    assert last.beaches == (
        (),
        ("E004015000000001", "E004015000000002"),
        None,
        (),
        ("04A1B2C3D4E5F6",),
        (),
    )
    assert machine.watchdog_feeds == 60


def test_main_rejects_an_unknown_reader_kind(machine) -> None:
    with pytest.raises(ValueError, match="not pn5180 or mfrc522"):
        load_main().main(kit_config(["pn5180"] * 5 + ["pn532"]), emit=lambda _l: None, steps=1)


def test_main_reports_a_crash_and_reboots(machine, monkeypatch) -> None:
    config = firmware_module("haleakala_pico.config")
    for spec in config.READERS:
        machine.attach(spec["cs"], FakePN5180(), busy=spec["busy"])
    scanner_cls = firmware_module("haleakala_pico.scanner").Scanner
    monkeypatch.setattr(scanner_cls, "step", lambda self: [][1])
    monkeypatch.setattr(firmware_module("haleakala_pico.compat"), "sleep_ms", lambda ms: None)
    lines: list[str] = []
    with pytest.raises(MachineReset):
        load_main().main(kit_config(["pn5180"] * 6), emit=lines.append, steps=5)
    last = protocol.parse(lines[-1].encode())
    assert isinstance(last, protocol.Fault) and (last.reader, last.fault) == (-1, "crash")


def test_main_scans_opposite_beaches_on_two_threads_without_sharing_the_bus(machine) -> None:
    """Firmware 1.2: beaches (0, 3), (1, 4), (2, 5) are scanned at once, the second of each
    pair on another thread (core 1 on the Pico). The fake bus fails any transfer made with
    two chip selects low; threads switch every few microseconds here to provoke it."""
    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        config = firmware_module("haleakala_pico.config")
        assert config.SCAN_GROUPS == ((0, 3), (1, 4), (2, 5))
        tags = [[f"E0040150000000{b:02X}"] for b in range(6)]
        for spec, uids in zip(config.READERS, tags, strict=True):
            machine.attach(spec["cs"], FakePN5180(uids), busy=spec["busy"])
        lines: list[str] = []
        load_main().main(kit_config(["pn5180"] * 6), emit=lines.append, steps=30)
    finally:
        sys.setswitchinterval(interval)
    frames = [protocol.parse(line.encode()) for line in lines]
    assert not [f for f in frames if isinstance(f, protocol.Fault)]
    last = [f for f in frames if isinstance(f, protocol.Snapshot)][-1]
    assert last.beaches == tuple(tuple(t) for t in tags)
