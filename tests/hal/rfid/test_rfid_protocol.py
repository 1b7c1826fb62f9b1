"""The host's frame parser, and its agreement with the firmware's encoder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.fake_pico import firmware_module, firmware_on_path

from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.protocol import FrameError

UID = (
    st.integers(4, 10)
    .flatmap(lambda n: st.binary(min_size=n, max_size=n))
    .map(lambda b: b.hex().upper())
)
BEACH = st.one_of(st.none(), st.lists(UID, max_size=5, unique=True).map(lambda u: tuple(sorted(u))))
BOOT = st.integers(0, 0xFFFFFFFF).map(lambda n: f"{n:08X}")
SEQ = st.integers(0, 0xFFFFFFFF)
DETAIL = st.text(alphabet="abcXYZ019 _.:=/+-()#", max_size=48)
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=16)

SNAPSHOTS = st.builds(protocol.Snapshot, BOOT, SEQ, st.tuples(*[BEACH] * 6))
FRAMES = st.one_of(
    SNAPSHOTS,
    st.builds(
        protocol.Hello,
        BOOT,
        SEQ,
        st.text("0123456789.", min_size=1, max_size=8),
        st.tuples(*[st.sampled_from(["pn5180", "mfrc522"])] * 6),
        st.integers(1, 9),
        st.integers(1, 10000),
    ),
    st.builds(
        protocol.Heartbeat,
        BOOT,
        SEQ,
        st.integers(0, 10**9),
        st.integers(0, 10**6),
        st.integers(0, 6),
    ),
    st.builds(protocol.Fault, BOOT, SEQ, st.integers(-1, 5), WORD, DETAIL),
)


@pytest.fixture(scope="module")
def fw_protocol() -> Iterator:
    with firmware_on_path():
        yield firmware_module("haleakala_pico.protocol")


def test_crc_is_crc16_ccitt_false() -> None:
    assert protocol.crc16(b"123456789") == 0x29B1


def test_firmware_crc_matches_host_crc(fw_protocol) -> None:
    for data in (b"", b"123456789", bytes(range(256)), b"HK1,snap,00000000,1,,,,,,"):
        assert fw_protocol.crc16(data) == protocol.crc16(data)


@given(FRAMES)
def test_every_frame_parses_back_to_itself(frame) -> None:
    assert protocol.parse(protocol.encode(frame)) == frame


@given(BOOT, SEQ, st.tuples(*[BEACH] * 6))
def test_firmware_snapshot_frames_are_byte_identical_to_host_frames(
    fw_protocol, boot, seq, beaches
) -> None:
    encoder = fw_protocol.Encoder(int(boot, 16))
    encoder.seq = seq
    line = encoder.snap([None if b is None else list(b) for b in beaches])
    assert line.encode() == protocol.encode(protocol.Snapshot(boot, seq, beaches))
    assert protocol.parse(line.encode()) == protocol.Snapshot(boot, seq, beaches)


def test_firmware_hello_heartbeat_and_fault_frames_parse_on_the_host(fw_protocol) -> None:
    encoder = fw_protocol.Encoder(0x5C1A9E03)
    hello = protocol.parse(encoder.hello("1.0.0", ["pn5180"] * 5 + ["mfrc522"], 2, 100).encode())
    assert hello == protocol.Hello("5C1A9E03", 0, "1.0.0", ("pn5180",) * 5 + ("mfrc522",), 2, 100)
    assert protocol.parse(encoder.hb(12, 87, 1).encode()) == protocol.Heartbeat(
        "5C1A9E03", 1, 12, 87, 1
    )
    fault = protocol.parse(encoder.fault(3, "timeout", "BUSY stuck, high*$\n").encode())
    assert fault == protocol.Fault("5C1A9E03", 2, 3, "timeout", "BUSY stuck_ high___")


def test_sequence_number_wraps_at_two_to_the_32(fw_protocol) -> None:
    encoder = fw_protocol.Encoder(1)
    encoder.seq = 0xFFFFFFFF
    assert protocol.parse(encoder.hb(0, 0, 0).encode()).seq == 0xFFFFFFFF
    assert protocol.parse(encoder.hb(0, 0, 0).encode()).seq == 0


GOOD = protocol.encode(
    protocol.Snapshot("0000ABCD", 7, ((), ("E004015000000001",), None, (), (), ()))
)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (b"MicroPython v1.22.0 on 2024-01-01; Raspberry Pi Pico with RP2040", "garbage"),
        (b">>> ", "garbage"),
        (GOOD[:40] + b"\n", "truncated"),
        (GOOD[:-3] + b"\n", "truncated"),
        (GOOD.replace(b"E004", b"E005"), "crc"),
        (GOOD[:-6] + b"*12G4\n", "crc"),
        (GOOD[:-6] + GOOD[-6:].lower(), "crc"),
    ],
)
def test_broken_lines_are_rejected_by_kind(line: bytes, kind: str) -> None:
    with pytest.raises(FrameError) as info:
        protocol.parse(line)
    assert info.value.kind == kind


def frame_with_body(body: str) -> bytes:
    return b"$" + body.encode() + b"*%04X\n" % protocol.crc16(body.encode())


@pytest.mark.parametrize(
    "body",
    [
        "HK1,snap,0000ABCD,7,,,,,",  # five beaches
        "HK1,snap,0000ABCD,7,e004015000000001,,,,,",  # lower-case UID
        "HK1,snap,0000ABCD,7,E00401,,,,,",  # 3-byte UID
        "HK1,snap,0000ABCD,7,E004015000000001..E1,,,,,",  # empty UID between dots
        "HK1,snap,abcd,7,,,,,,",  # short boot id
        "HK1,snap,0000ABCD,-1,,,,,,",  # negative sequence
        "HK1,snap,0000ABCD,4294967296,,,,,,",  # sequence too big
        "HK1,hello,0000ABCD,0,1.0,pn5180.pn5180,2,100",  # two readers
        "HK1,fault,0000ABCD,9,6,timeout,x",  # reader 6
        "HK1,hb,0000ABCD,9,x,1,0",
        "HK1,snap",
    ],
)
def test_well_checksummed_nonsense_is_malformed(body: str) -> None:
    with pytest.raises(FrameError) as info:
        protocol.parse(frame_with_body(body))
    assert info.value.kind == "malformed"


def test_unknown_kinds_and_extra_fields_are_accepted_for_newer_firmware() -> None:
    frame = protocol.parse(frame_with_body("HK1,temp,0000ABCD,9,21.5"))
    assert isinstance(frame, protocol.Unknown) and frame.seq == 9
    hb = protocol.parse(frame_with_body("HK1,hb,0000ABCD,10,5,80,0,extra"))
    assert hb == protocol.Heartbeat("0000ABCD", 10, 5, 80, 0)


def test_carriage_return_before_newline_is_tolerated() -> None:
    assert protocol.parse(GOOD[:-1] + b"\r\n") == protocol.parse(GOOD)
