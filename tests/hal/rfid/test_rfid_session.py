"""The host's protocol state machine, fed byte streams with every fault a serial link can
suffer. The rule under test: the BeachContents events equal the true board changes."""

from __future__ import annotations

import logging

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.hal.events import BeachContents, Disc, LinkHealth, UnknownTag
from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.session import (
    CONFIRM_FRAMES,
    UNKNOWN_TAGS_MAX,
    RfidSession,
    format_health,
)

DISCS = [Disc(c, v) for c in ("red", "yellow") for v in range(6)]
UIDS = [f"E0040150{i * 0x1111111 + 0x01020304:08X}" for i in range(len(DISCS))]
TAGS = dict(zip(UIDS, DISCS, strict=True))
EMPTY: tuple[frozenset[str], ...] = (frozenset(),) * 6
BOOT = "5C1A9E03"
UP = LinkHealth(True, "RFID Pico fw 1.0.0 on /dev/ttyACM0")


def hello(seq: int = 0, boot: str = BOOT) -> bytes:
    return protocol.encode(protocol.Hello(boot, seq, "1.0.0", ("pn5180",) * 6, 2, 100))


def snap(seq: int, board, boot: str = BOOT) -> bytes:
    beaches = tuple(None if b is None else tuple(sorted(b)) for b in board)
    return protocol.encode(protocol.Snapshot(boot, seq, beaches))


def pair(seq: int, board, boot: str = BOOT) -> bytes:
    """A change as the firmware sends it: the same snapshot twice, numbers seq and seq+1
    (a beach changes only when two consecutive snapshots agree)."""
    return snap(seq, board, boot) + snap((seq + 1) % protocol.SEQ_MODULO, board, boot)


def hb(seq: int, boot: str = BOOT) -> bytes:
    return protocol.encode(protocol.Heartbeat(boot, seq, 1, 80, 0))


def beach_events(events) -> list[BeachContents]:
    return [e for e in events if isinstance(e, BeachContents)]


def expected_events(states) -> list[BeachContents]:
    """What the controller should see for a sequence of true board states."""
    posted: list[frozenset | None] = [None] * 6
    out = []
    for state in states:
        new = [frozenset(TAGS[u] for u in uids) for uids in state]
        changed = [b for b in range(6) if posted[b] != new[b]]
        # A beach that only lost discs is posted first: a moved disc is never on two beaches.
        losing = [b for b in changed if posted[b] is not None and new[b] < posted[b]]
        for beach in losing + [b for b in changed if b not in losing]:
            posted[beach] = new[beach]
            out.append(BeachContents(beach, new[beach]))
    return out


def fresh(now: float = 0.0, *, seq: int | None = 0) -> tuple[RfidSession, list]:
    """A session on an open port that has believed the Pico's run: two heartbeats and the
    ``hello`` numbered ``seq`` (None: nothing heard yet), so the next frames count at once."""
    session = RfidSession(TAGS, warn_unknown=False)
    events = session.opened("/dev/ttyACM0", now)
    if seq is not None:
        events += session.feed(
            hb((seq - 2) % protocol.SEQ_MODULO) + hb((seq - 1) % protocol.SEQ_MODULO) + hello(seq),
            now,
        )
    return session, events


# ----------------------------------------------------------------------------- strategies

MOVES = st.lists(
    st.tuples(st.integers(0, len(UIDS) - 1), st.one_of(st.none(), st.integers(0, 5))),
    min_size=1,
    max_size=12,
)
NOISE = st.sampled_from(
    ["garbage", "truncated", "crc", "duplicate", "replay", "hello", "hb", "binary", "none", "none"]
)


def board_states(moves) -> list[tuple[frozenset[str], ...]]:
    where: dict[str, int | None] = dict.fromkeys(UIDS)
    states = [EMPTY]
    for index, beach in moves:
        where[UIDS[index]] = beach
        states.append(tuple(frozenset(u for u, b in where.items() if b == i) for i in range(6)))
    return states


@settings(max_examples=150, deadline=None)
@given(moves=MOVES, data=st.data())
def test_no_phantom_events_whatever_the_link_does(moves, data) -> None:
    states = board_states(moves)
    session, events = fresh()
    stream = bytearray()
    sent: list[bytes] = []
    counted = {"garbage": 0, "truncated": 0, "crc": 0, "duplicate": 0, "stale": 0}
    seq = 1
    for state in states:
        # The firmware sends every change at least twice (then again every 100 ms).
        for _copy in range(data.draw(st.integers(2, 3), label="copies")):
            frame = snap(seq, state)
            seq += 1
            stream += frame
            sent.append(frame)
            kind = data.draw(NOISE, label="noise")
            if kind == "garbage":
                text = data.draw(
                    st.text(
                        st.characters(min_codepoint=33, max_codepoint=126, exclude_characters="$"),
                        min_size=1,
                        max_size=60,
                    )
                )
                stream += text.encode() + b"\n"
                counted["garbage"] += 1
            elif kind == "truncated":
                cut = data.draw(st.integers(len(protocol.SYNC), len(frame) - 6))
                stream += frame[:cut] + b"\n"
                counted["truncated"] += 1
            elif kind == "crc":
                at = data.draw(st.integers(len(protocol.SYNC), frame.index(b"*") - 1))
                value = data.draw(
                    st.integers(0, 255).filter(lambda v, old=frame[at]: v not in (old, 10))
                )
                stream += frame[:at] + bytes((value,)) + frame[at + 1 :]
                counted["crc"] += 1
            elif kind == "duplicate":
                stream += frame
                counted["duplicate"] += 1
            elif kind == "replay" and len(sent) > 1:
                stream += data.draw(st.sampled_from(sent[:-1]))
                counted["stale"] += 1
            elif kind == "hello":
                stream += hello(seq)
                seq += 1
            elif kind == "hb":
                stream += protocol.encode(protocol.Heartbeat(BOOT, seq, 3, 80, 0))
                seq += 1
            elif kind == "binary":
                junk = data.draw(st.binary(max_size=40)).replace(b"\n", b"").replace(b"$", b"")
                stream += junk + b"\n"
                counted["garbage"] += bool(junk.strip())
    position = 0
    while position < len(stream):
        size = data.draw(st.integers(1, 300), label="chunk")
        events += session.feed(bytes(stream[position : position + size]), 0.01)
        position += size
    assert beach_events(events) == expected_events(states)
    for name, count in counted.items():
        assert session.counts[name] == count, name
    assert UP in events


def test_a_sequence_gap_is_believed_once_the_frames_after_it_confirm_it() -> None:
    """Frames lost on the line: the frames after the gap are a candidate, believed in order
    once they confirm themselves and nothing continues the run from before the gap."""
    session, _ = fresh()
    board = (frozenset({UIDS[0]}), *EMPTY[1:])
    events = session.feed(pair(1, EMPTY) + pair(6, board), 0.0)
    assert beach_events(events) == [BeachContents(b, frozenset()) for b in range(6)]
    events = session.feed(snap(8, board), 0.5)
    assert beach_events(events) == [BeachContents(0, frozenset({DISCS[0]}))]
    assert session.counts["seq_gaps"] == 3 and session.counts["stale"] == 0


def test_seq_going_backwards_is_stale_until_the_pico_restarts() -> None:
    session, _ = fresh()
    board = (frozenset({UIDS[3]}), *EMPTY[1:])
    session.feed(pair(1, EMPTY), 0.0)
    assert session.feed(snap(0, board), 0.0) == []
    assert session.counts["stale"] == 1
    # A new boot id is a new run, confirmed by its own frames once the old run is silent.
    restart = protocol.encode(protocol.Hello("0BADCAFE", 0, "1.0.1", ("pn5180",) * 6, 2, 100))
    events = session.feed(restart + pair(1, board, boot="0BADCAFE"), 0.5)
    assert beach_events(events) == [BeachContents(0, frozenset({DISCS[3]}))]
    assert session.counts["resyncs"] == 1
    # Frames of the old run arriving late are stale, whatever their number.
    session.feed(snap(3, EMPTY), 0.6)
    assert session.feed(snap(2, board, boot="0BADCAFE"), 0.6) == []
    assert session.feed(snap(4, board, boot="0BADCAFE"), 0.7) == []
    assert session.counts["stale"] == 2
    assert session.health(0.7)["firmware"] == "1.0.1"


def test_sequence_numbers_wrap_around() -> None:
    session, _ = fresh(seq=0xFFFFFFFD)
    board = (frozenset({UIDS[1]}), *EMPTY[1:])
    session.feed(snap(0xFFFFFFFE, EMPTY), 0.0)
    events = session.feed(snap(0xFFFFFFFF, board) + snap(0, board), 0.0)
    assert beach_events(events)[-1] == BeachContents(0, frozenset({DISCS[1]}))


def test_unknown_beach_keeps_its_discs_and_the_reader_fault_is_reported() -> None:
    session, _ = fresh()
    board = (EMPTY[0], EMPTY[1], EMPTY[2], frozenset({UIDS[4]}), EMPTY[4], EMPTY[5])
    session.feed(pair(1, board), 0.0)
    fault = protocol.encode(protocol.Fault(BOOT, 3, 3, "timeout", "BUSY stuck high"))
    events = session.feed(fault + pair(4, (*board[:3], None, *board[4:])), 0.1)
    assert beach_events(events) == []  # never "beach 3 emptied"
    assert events == [LinkHealth(False, "beach 3 reader timeout (BUSY stuck high)")]
    assert session.health(0.1)["unknown_beaches"] == [3]
    ok = protocol.encode(protocol.Fault(BOOT, 6, 3, "ok", "recovered"))
    events = session.feed(ok + pair(7, board), 0.2)
    assert events == [UP]


def test_lost_recovery_frame_is_inferred_from_a_known_beach() -> None:
    session, _ = fresh()
    session.feed(pair(1, EMPTY), 0.0)
    session.feed(protocol.encode(protocol.Fault(BOOT, 3, 1, "nochip", "")), 0.0)
    events = session.feed(pair(4, EMPTY), 0.1)
    assert events == [UP]


def test_disc_seen_elsewhere_leaves_the_unknown_beach() -> None:
    session, _ = fresh()
    session.feed(pair(1, (frozenset({UIDS[2]}), *EMPTY[1:])), 0.0)
    events = session.feed(pair(3, (None, frozenset({UIDS[2]}), *EMPTY[2:])), 0.1)
    assert beach_events(events) == [
        BeachContents(0, frozenset()),
        BeachContents(1, frozenset({DISCS[2]})),
    ]


def test_disc_moved_within_one_snapshot_leaves_before_it_arrives() -> None:
    session, _ = fresh()
    session.feed(pair(1, (*EMPTY[:4], frozenset({UIDS[5]}), *EMPTY[5:])), 0.0)
    events = session.feed(pair(3, (frozenset({UIDS[5]}), *EMPTY[1:])), 0.1)
    assert beach_events(events) == [
        BeachContents(4, frozenset()),
        BeachContents(0, frozenset({DISCS[5]})),
    ]


def test_moved_disc_is_posted_on_its_new_beach_before_the_old_one_lets_go() -> None:
    # The new beach confirms the arrival before the old beach confirms the departure: for a
    # moment the Pico lists the tag twice. The newcomer wins, and does not flip back.
    session, _ = fresh()
    uid = UIDS[7]
    session.feed(pair(1, (frozenset({uid}), *EMPTY[1:])), 0.0)
    both = (frozenset({uid}), EMPTY[1], frozenset({uid}), *EMPTY[3:])
    events = session.feed(pair(3, both) + snap(5, both), 0.1)
    assert beach_events(events) == [
        BeachContents(0, frozenset()),
        BeachContents(2, frozenset({DISCS[7]})),
    ]
    events = session.feed(pair(6, (*EMPTY[:2], frozenset({uid}), *EMPTY[3:])), 0.2)
    assert beach_events(events) == []


def test_tag_appearing_on_two_new_beaches_is_held_back(caplog) -> None:
    session, _ = fresh()
    uid = UIDS[0]
    session.feed(pair(1, EMPTY), 0.0)
    two = (frozenset({uid}), frozenset({uid}), *EMPTY[2:])
    with caplog.at_level(logging.WARNING, "haleakala.rfid"):
        events = session.feed(pair(3, two), 0.1)
    assert beach_events(events) == []
    assert session.health(0.1)["ambiguous_tags"] == [uid]
    assert "read on beaches 0, 1" in caplog.text


def test_unknown_tag_reaches_the_controller_as_a_stranger_and_is_logged_once(caplog) -> None:
    session = RfidSession(TAGS)
    session.opened("p", 0.0)
    stranger = "E0040150DEADBEEF"
    board = (frozenset({stranger, UIDS[0]}), *EMPTY[1:])
    with caplog.at_level(logging.WARNING, "haleakala.rfid"):
        events = session.feed(snap(1, board) + snap(2, board) + snap(3, board), 0.0)
    assert beach_events(events)[0] == BeachContents(0, frozenset({DISCS[0], UnknownTag(stranger)}))
    assert caplog.text.count(stranger) == 1
    assert "haleakala tags enroll" in caplog.text
    assert session.health(0.0)["unknown_tags"] == [stranger]


def test_silent_pico_makes_the_link_stale_and_a_frame_revives_it() -> None:
    session, events = fresh(0.0, seq=None)
    assert events == []  # connecting: nothing to say yet
    events = session.feed(hello(0) + pair(1, EMPTY), 0.1)
    assert events[-1] == UP
    assert session.tick(0.9) == []
    stale = session.tick(1.2)
    assert len(stale) == 1 and not stale[0].ok and "went quiet" in stale[0].detail
    assert session.tick(1.5) == []  # said once
    assert session.feed(snap(3, EMPTY), 1.6) == [UP]


def test_port_that_never_speaks_is_reported() -> None:
    session, _ = fresh(0.0, seq=None)
    events = session.tick(1.5)
    assert events and "sends nothing" in events[0].detail


def test_reconnect_posts_only_what_changed_meanwhile() -> None:
    session, _ = fresh()
    board = (frozenset({UIDS[0]}), frozenset({UIDS[1]}), *EMPTY[2:])
    session.feed(pair(1, board), 0.0)
    lost = session.closed("lost the RFID Pico on /dev/ttyACM0: EIO", 1.0)
    assert lost == [LinkHealth(False, "lost the RFID Pico on /dev/ttyACM0: EIO")]
    session.opened("/dev/ttyACM0", 2.0)
    moved = (frozenset({UIDS[0]}), EMPTY[1], frozenset({UIDS[1]}), *EMPTY[3:])
    # The view was reset: one frame is not believed yet, a few in a row are.
    assert session.feed(snap(1, moved, boot="00000002"), 2.1) == []
    events = session.feed(snap(2, moved, boot="00000002") + snap(3, moved, boot="00000002"), 2.2)
    assert beach_events(events) == [
        BeachContents(1, frozenset()),
        BeachContents(2, frozenset({DISCS[1]})),
    ]
    assert session.counts["disconnects"] == 1 and session.counts["connects"] == 2


def test_overlong_noise_is_dropped_and_the_frame_after_it_read() -> None:
    session, _ = fresh()
    noise = b"x" * 5000
    events = session.feed(noise + snap(1, EMPTY), 0.0)
    events += session.feed(noise + snap(2, EMPTY), 0.0)
    assert len(beach_events(events)) == 6
    assert session.counts["garbage"] >= 2


def test_repl_prompt_in_front_of_a_frame_does_not_hide_it() -> None:
    session, _ = fresh()
    events = session.feed(b">>> " + snap(1, EMPTY) + b">>> " + snap(2, EMPTY), 0.0)
    assert len(beach_events(events)) == 6 and session.counts["garbage"] == 2


def test_firmware_crash_is_logged_and_counted(caplog) -> None:
    session, _ = fresh()
    with caplog.at_level(logging.ERROR, "haleakala.rfid"):
        session.feed(protocol.encode(protocol.Fault(BOOT, 1, -1, "crash", "MemoryError")), 0.0)
    assert session.counts["firmware_crashes"] == 1
    assert "MemoryError" in caplog.text


def test_health_line_names_drops_faults_and_strangers() -> None:
    session, _ = fresh()
    session.feed(b"noise\n" + pair(1, (frozenset({"E0040150DEADBEEF"}), *EMPTY[1:])), 0.0)
    session.feed(protocol.encode(protocol.Fault(BOOT, 3, 4, "nochip", "")), 0.0)
    line = format_health(session.health(0.0))
    assert line.startswith("rfid up, 6 frames, dropped 1 garbage")
    assert "beach 4 nochip" in line and "1 unknown tags" in line


# ----------------------------------------------------------------- trusting the link (issue 11)

ONE = (frozenset({UIDS[0]}), *EMPTY[1:])  # red 0 on beach 0
TWO = (frozenset({UIDS[0]}), frozenset({UIDS[5]}), *EMPTY[2:])


def test_a_foreign_boot_id_frame_empties_no_beach_and_the_real_pico_goes_on() -> None:
    session, _ = fresh()
    session.feed(pair(1, ONE), 0.0)
    crafted = snap(7, EMPTY, boot="DEADBEEF")  # valid CRC, another run, beach 0 empty
    events = session.feed(crafted, 0.1)
    assert beach_events(events) == []  # no phantom take-back
    events = session.feed(snap(3, ONE) + pair(4, TWO), 0.2)
    assert beach_events(events) == [BeachContents(1, frozenset({DISCS[5]}))]
    assert session.counts["unconfirmed"] == 1 and session.counts["stale"] == 0
    assert session.health(0.2)["boot"] == BOOT


def test_a_sequence_jump_of_half_the_range_is_not_believed_from_one_frame() -> None:
    session, _ = fresh()
    session.feed(pair(1, ONE), 0.0)
    events = session.feed(snap(2 + (1 << 31) - 1, EMPTY), 0.1)
    assert beach_events(events) == []
    events = session.feed(snap(3, ONE) + pair(4, TWO), 0.2)
    assert beach_events(events) == [BeachContents(1, frozenset({DISCS[5]}))]
    assert session.counts["stale"] == 0 and session.counts["seq_jumps"] == 0


def test_a_sequence_jump_confirmed_by_consecutive_frames_is_believed_in_order() -> None:
    # The host stalled and the Pico's frames were lost: the numbers jump for real.
    session, _ = fresh()
    session.feed(pair(1, ONE), 0.0)
    far = 1 + 50_000
    jumped = [snap(far + i, board) for i, board in enumerate((EMPTY, EMPTY, TWO, TWO))]
    events = session.feed(jumped[0] + jumped[1], 0.5)
    assert beach_events(events) == []  # not yet
    events = session.feed(jumped[2] + jumped[3], 0.6)
    assert beach_events(events) == [
        BeachContents(0, frozenset()),  # every held frame, in order
        BeachContents(0, frozenset({DISCS[0]})),
        BeachContents(1, frozenset({DISCS[5]})),
    ]
    assert session.counts["seq_jumps"] == 1 and CONFIRM_FRAMES == 3


def test_a_restart_without_hello_is_believed_after_consecutive_frames() -> None:
    session, _ = fresh()
    session.feed(pair(1, ONE), 0.0)
    other = "0BADCAFE"
    for seq in range(1, CONFIRM_FRAMES):
        assert session.feed(snap(seq, TWO, boot=other), 0.4) == []
    events = session.feed(snap(CONFIRM_FRAMES, TWO, boot=other), 0.5)
    assert beach_events(events) == [BeachContents(1, frozenset({DISCS[5]}))]
    assert session.counts["resyncs"] == 1 and session.health(0.5)["boot"] == other


def test_a_crafted_hello_cannot_silence_the_real_pico() -> None:
    # A hello only starts a candidate run; the real run's next frame ends it.
    session, _ = fresh()
    session.feed(pair(1, ONE), 0.0)
    events = session.feed(hello(0, boot="DEADBEEF"), 0.1)
    assert beach_events(events) == []
    events = session.feed(snap(3, ONE), 0.2)
    assert beach_events(events) == []
    events = session.feed(pair(4, TWO), 0.3)
    assert beach_events(events) == [BeachContents(1, frozenset({DISCS[5]}))]
    assert session.health(0.3)["boot"] == BOOT and session.counts["resyncs"] == 0


def test_a_crafted_hello_of_the_same_run_cannot_make_the_numbers_jump() -> None:
    session, _ = fresh()
    session.feed(pair(1, ONE), 0.0)
    assert session.feed(hello(2 + (1 << 31) - 1), 0.1) == []
    events = session.feed(snap(3, ONE) + pair(4, TWO), 0.2)
    assert beach_events(events) == [BeachContents(1, frozenset({DISCS[5]}))]
    assert session.counts["stale"] == 0 and session.counts["seq_jumps"] == 0


def test_a_frame_of_the_real_run_between_them_breaks_a_candidate() -> None:
    session, _ = fresh()
    session.feed(pair(1, ONE), 0.0)
    events = []
    for seq in range(3, 9):  # crafted and real frames interleaved: never consecutive
        events += session.feed(snap(1000 + seq, EMPTY, boot="DEADBEEF"), 0.1 * seq)
        events += session.feed(snap(seq, ONE), 0.1 * seq)
    assert beach_events(events) == []
    assert session.health(0.8)["boot"] == BOOT and session.counts["unconfirmed"] == 6


CRAFTED = st.one_of(
    st.tuples(
        st.text("0123456789ABCDEF", min_size=8, max_size=8).filter(lambda b: b != BOOT),
        st.integers(0, protocol.SEQ_MODULO - 1),
    ),
    st.tuples(st.just(BOOT), st.integers(1001, protocol.SEQ_MODULO - 1)),
)


@settings(max_examples=200, deadline=None)
@given(moves=MOVES, crafted=CRAFTED, board=st.sampled_from([EMPTY, ONE, TWO, None]), data=st.data())
def test_no_single_crafted_frame_changes_the_board(moves, crafted, board, data) -> None:
    """A frame with a valid CRC but another boot id, or a number far off the run (relative
    to where it lands), anywhere in the stream, a snapshot or a hello (board None): the
    events are the true changes. The Pico repeats its last snapshot (10 Hz) at the end."""
    states = [state for state in board_states(moves) for _twice in range(2)]  # as sent
    session, _ = fresh()
    states += [states[-1]] * CONFIRM_FRAMES
    frames = [snap(seq, state) for seq, state in enumerate(states, start=1)]
    at = data.draw(st.integers(0, len(frames) - CONFIRM_FRAMES), label="at")
    boot, seq = crafted
    if boot == BOOT:
        seq = (at + seq) % protocol.SEQ_MODULO  # off by more than 1000 from the real run
    frames.insert(at, snap(seq, board, boot=boot) if board else hello(seq, boot=boot))
    events = session.feed(b"".join(frames), 0.0)
    assert beach_events(events) == expected_events(states)


def test_unknown_tags_are_remembered_and_logged_up_to_a_bound(caplog) -> None:
    """120,000 distinct strangers (a reader spewing random UIDs): the driver's set stops at
    ``UNKNOWN_TAGS_MAX``, each of those is logged once, the rest are only counted, and each
    still reaches the controller as a stranger on its beach."""
    session = RfidSession(TAGS)
    session.opened("p", 0.0)
    session.feed(hb(0) + hb(1) + hello(2), 0.0)
    strangers, per_beach = 120_000, 8
    per_frame = 5 * per_beach
    uid = "04{:012X}".format
    with caplog.at_level(logging.WARNING, "haleakala.rfid"):
        for first in range(0, strangers, 100 * per_frame):
            chunk = b"".join(
                pair(
                    3 + 2 * (n // per_frame),
                    (
                        *(
                            frozenset(uid(n + b * per_beach + i) for i in range(per_beach))
                            for b in range(5)
                        ),
                        frozenset(),
                    ),
                )
                for n in range(first, first + 100 * per_frame, per_frame)
            )
            session.feed(chunk, 0.0)
    last = strangers - per_beach
    assert session.published[4] == frozenset(UnknownTag(uid(last + i)) for i in range(8))
    assert len(session.unknown_tags) == UNKNOWN_TAGS_MAX
    assert len(session.health(0.0)["unknown_tags"]) == UNKNOWN_TAGS_MAX
    lines = [
        r
        for r in caplog.records
        if r.name == "haleakala.rfid" and "flash firmware" not in r.getMessage()
    ]  # the hello says 1.0.0
    assert sum("unknown tag 04" in r.getMessage() for r in lines) == UNKNOWN_TAGS_MAX
    assert len(lines) == UNKNOWN_TAGS_MAX + 1  # and one line saying the rest are counted
    assert session.counts["unknown_tags_unlisted"] == strangers - UNKNOWN_TAGS_MAX
