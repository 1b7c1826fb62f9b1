"""Issue 22, part 3: a link that believes the Pico, not a frame.

Two attacks with valid CRCs used to steer the link (a buggy or hostile sender on the line):
one frame of the current run numbered 900 ahead made every real frame stale (the link was
reported down for 81.6 s), and a ``hello`` with a new boot id followed by one ``snap`` made a
placement that was acknowledged and journaled. Here the real Pico keeps talking at 10 Hz
on an injected clock while forged frames are slipped between its frames."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.hal.events import BeachContents, Disc, LinkHealth
from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.session import CONFIRM_FRAMES, RfidSession

DISCS = [Disc(c, v) for c in ("red", "yellow") for v in range(6)]
UIDS = [f"E0040150{i * 0x1111111 + 0x01020304:08X}" for i in range(len(DISCS))]
TAGS = dict(zip(UIDS, DISCS, strict=True))
EMPTY: tuple[frozenset[str], ...] = (frozenset(),) * 6
ONE = (frozenset({UIDS[0]}), *EMPTY[1:])  # red 0 on beach 0
PLACED = (frozenset({UIDS[0]}), frozenset({UIDS[3]}), *EMPTY[2:])  # and red 3 on beach 1
BOOT = "5C1A9E03"
PERIOD = 0.1


def hello(seq: int, boot: str = BOOT) -> bytes:
    return protocol.encode(protocol.Hello(boot, seq, "1.2.0", ("pn5180",) * 6, 2, 100))


def snap(seq: int, board, boot: str = BOOT) -> bytes:
    beaches = tuple(None if b is None else tuple(sorted(b)) for b in board)
    return protocol.encode(protocol.Snapshot(boot, seq, beaches))


class Pico:
    """The real Pico: a believed run on an open port, then one frame per call at 10 Hz."""

    def __init__(self, board=ONE) -> None:
        self.session = RfidSession(TAGS, warn_unknown=False)
        self.board = board
        self.seq = 0
        self.now = 0.0
        self.events: list = self.session.opened("/dev/ttyACM0", 0.0)
        self.events += self.session.feed(hello(0), 0.0)
        for _ in range(CONFIRM_FRAMES + 1):
            self.talk()
        assert self.session.published[0] == frozenset({DISCS[0]})
        assert self.session.link_state(self.now)[:2] == ("up", True)
        self.events.clear()

    def talk(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.seq += 1
            self.now += PERIOD
            self.events += self.session.feed(snap(self.seq, self.board), self.now)

    def forge(self, data: bytes) -> None:
        self.events += self.session.feed(data, self.now + PERIOD / 2)

    def beach_events(self) -> list[BeachContents]:
        return [e for e in self.events if isinstance(e, BeachContents)]

    def link_went_down(self) -> bool:
        return any(isinstance(e, LinkHealth) and not e.ok for e in self.events)


def test_a_frame_900_ahead_in_the_current_run_never_makes_the_real_frames_stale() -> None:
    pico = Pico()
    pico.forge(snap(pico.seq + 900, EMPTY))  # valid CRC, current boot id, beach 0 empty
    pico.talk(30)  # 3 s of the real Pico
    assert not pico.link_went_down()
    assert pico.session.counts["stale"] == 0
    assert pico.session.counts["unconfirmed"] == 1
    assert pico.session.link_state(pico.now)[0] == "up"
    assert pico.beach_events() == []  # beach 0 was never emptied


def test_a_crafted_hello_and_one_snap_place_nothing_and_the_real_pico_goes_on() -> None:
    pico = Pico()
    pico.forge(hello(0, boot="DEADBEEF") + snap(1, PLACED, boot="DEADBEEF"))
    pico.talk(20)
    assert pico.beach_events() == []  # no red 3 on beach 1, ever
    assert not pico.link_went_down()
    health = pico.session.health(pico.now)
    assert health["boot"] == BOOT and health["resyncs"] == 0 and health["stale"] == 0


def test_a_burst_of_a_whole_forged_run_cannot_retire_a_pico_that_is_talking() -> None:
    """A candidate needs its own consecutive frames and the believed run to fall silent:
    a hello and a dozen snapshots sent between two real frames are not enough."""
    pico = Pico()
    forged = hello(0, boot="DEADBEEF") + b"".join(
        snap(seq, PLACED, boot="DEADBEEF") for seq in range(1, 13)
    )
    pico.forge(forged)
    pico.talk(5)
    assert pico.beach_events() == [] and not pico.link_went_down()
    assert pico.session.health(pico.now)["boot"] == BOOT


def test_one_forged_frame_with_the_next_number_moves_nothing() -> None:
    """The next number of the believed run is accepted at once, but a beach changes only
    when two consecutive snapshots agree: the real Pico's next frame disagrees."""
    pico = Pico()
    pico.forge(snap(pico.seq + 1, PLACED))
    pico.seq += 1  # the real frame of that number is a duplicate
    pico.talk(10)
    assert pico.beach_events() == [] and not pico.link_went_down()


def test_a_real_placement_needs_two_consecutive_snapshots() -> None:
    pico = Pico()
    pico.board = PLACED
    pico.talk()
    assert pico.beach_events() == []
    pico.talk()
    assert pico.beach_events() == [BeachContents(1, frozenset({DISCS[3]}))]


def test_a_real_restart_is_believed_once_the_old_run_is_silent() -> None:
    pico = Pico()
    pico.now += 0.5  # the Pico reboots: the old run stops
    new = "0BADCAFE"
    events = pico.session.feed(hello(0, new), pico.now)
    for seq in range(1, CONFIRM_FRAMES + 1):
        pico.now += PERIOD
        events += pico.session.feed(snap(seq, PLACED, new), pico.now)
    assert [e for e in events if isinstance(e, BeachContents)] == [
        BeachContents(1, frozenset({DISCS[3]}))
    ]
    health = pico.session.health(pico.now)
    assert health["boot"] == new and health["resyncs"] == 1 and health["firmware"] == "1.2.0"


def test_lost_frames_delay_the_pico_but_lose_nothing() -> None:
    """A gap is a candidate too: after the believed run has been silent for three periods
    the frames after the gap are believed, in order."""
    pico = Pico()
    pico.seq += 2  # two frames lost on the line
    pico.board = PLACED
    pico.talk(CONFIRM_FRAMES + 1)
    assert pico.beach_events() == [BeachContents(1, frozenset({DISCS[3]}))]
    assert pico.session.counts["seq_gaps"] == 2 and pico.session.counts["stale"] == 0


FORGED = st.one_of(
    st.builds(
        lambda seq, board: ("snap", seq, board),
        st.integers(2, protocol.SEQ_MODULO - 1),
        st.sampled_from([EMPTY, PLACED, None]),
    ),
    st.builds(
        lambda boot, n, board: ("run", boot, n, board),
        st.text("0123456789ABCDEF", min_size=8, max_size=8).filter(lambda b: b != BOOT),
        st.integers(0, 20),
        st.sampled_from([EMPTY, PLACED]),
    ),
)


@settings(max_examples=150, deadline=None)
@given(attacks=st.lists(st.tuples(st.integers(0, 30), FORGED), max_size=6))
def test_forged_frames_between_the_real_ones_never_move_a_disc_or_stale_the_pico(attacks) -> None:
    """Any mix of single frames of the current run at any distance ahead, and whole forged
    runs (a hello and up to 20 snapshots) sent in one burst between two real frames."""
    pico = Pico()
    believed = pico.session.counts["frames"]
    for wait, attack in attacks:
        pico.talk(wait)
        if attack[0] == "snap":
            _, ahead, board = attack
            seq = (pico.seq + ahead) % protocol.SEQ_MODULO
            pico.forge(snap(seq, board) if board else hello(seq))
        else:
            _, boot, count, board = attack
            pico.forge(hello(0, boot) + b"".join(snap(s, board, boot) for s in range(1, count + 1)))
    pico.talk(20)
    assert pico.beach_events() == []
    assert not pico.link_went_down()
    real = 20 + sum(wait for wait, _ in attacks)
    assert pico.session.counts["frames"] - believed == real  # every real frame believed
    assert pico.session.health(pico.now)["boot"] == BOOT


def test_firmware_before_1_2_is_told_to_flash_1_2_0(caplog) -> None:
    session = RfidSession(TAGS, warn_unknown=False)
    session.opened("/dev/ttyACM0", 0.0)
    old = protocol.encode(protocol.Hello(BOOT, 0, "1.1.0", ("pn5180",) * 6, 2, 100))
    with caplog.at_level("WARNING", "haleakala.rfid"):
        session.feed(old + snap(1, ONE) + snap(2, ONE), 0.0)
    assert "firmware 1.1.0 sends each change once" in caplog.text
    assert "flash firmware 1.2.0" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", "haleakala.rfid"):
        Pico()  # 1.2.0: nothing to say
    assert "flash" not in caplog.text
