"""The host's protocol state machine, fed byte streams with every fault a serial link can
suffer. The rule under test: the BeachContents events equal the true board changes."""

from __future__ import annotations

import logging

from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.hal.events import BeachContents, Disc, LinkHealth
from haleakala.hal.rfid import protocol
from haleakala.hal.rfid.driver import RfidSession, format_health

DISCS = [Disc(c, v) for c in ("red", "yellow") for v in range(6)]
UIDS = [f"E0040150{i * 0x1111111 + 0x01020304:08X}" for i in range(len(DISCS))]
TAGS = dict(zip(UIDS, DISCS, strict=True))
EMPTY: tuple[frozenset[str], ...] = (frozenset(),) * 6
BOOT = "5C1A9E03"


def snap(seq: int, board, boot: str = BOOT) -> bytes:
    beaches = tuple(None if b is None else tuple(sorted(b)) for b in board)
    return protocol.encode(protocol.Snapshot(boot, seq, beaches))


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


def fresh(now: float = 0.0) -> tuple[RfidSession, list]:
    session = RfidSession(TAGS, warn_unknown=False)
    return session, session.opened("/dev/ttyACM0", now)


# ----------------------------------------------------------------------------- strategies

MOVES = st.lists(st.tuples(st.integers(0, len(UIDS) - 1), st.one_of(st.none(),
                                                                     st.integers(0, 5))),
                 min_size=1, max_size=12)
NOISE = st.sampled_from(["garbage", "truncated", "crc", "duplicate", "replay", "hello",
                         "hb", "binary", "none", "none"])


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
    session, _ = fresh()
    stream = bytearray()
    sent: list[bytes] = []
    counted = {"garbage": 0, "truncated": 0, "crc": 0, "duplicate": 0, "stale": 0}
    seq = 0
    for state in states:
        for _copy in range(data.draw(st.integers(1, 3), label="copies")):
            frame = snap(seq, state)
            seq += 1
            stream += frame
            sent.append(frame)
            kind = data.draw(NOISE, label="noise")
            if kind == "garbage":
                text = data.draw(st.text(st.characters(min_codepoint=33, max_codepoint=126,
                                                       exclude_characters="$"),
                                         min_size=1, max_size=60))
                stream += text.encode() + b"\n"
                counted["garbage"] += 1
            elif kind == "truncated":
                cut = data.draw(st.integers(len(protocol.SYNC), len(frame) - 6))
                stream += frame[:cut] + b"\n"
                counted["truncated"] += 1
            elif kind == "crc":
                at = data.draw(st.integers(len(protocol.SYNC), frame.index(b"*") - 1))
                value = data.draw(st.integers(0, 255).filter(
                    lambda v, old=frame[at]: v not in (old, 10)))
                stream += frame[:at] + bytes((value,)) + frame[at + 1:]
                counted["crc"] += 1
            elif kind == "duplicate":
                stream += frame
                counted["duplicate"] += 1
            elif kind == "replay" and len(sent) > 1:
                stream += data.draw(st.sampled_from(sent[:-1]))
                counted["stale"] += 1
            elif kind == "hello":
                stream += protocol.encode(protocol.Hello(BOOT, seq, "1.0.0", ("pn5180",) * 6,
                                                         2, 100))
                seq += 1
            elif kind == "hb":
                stream += protocol.encode(protocol.Heartbeat(BOOT, seq, 3, 80, 0))
                seq += 1
            elif kind == "binary":
                junk = data.draw(st.binary(max_size=40)).replace(b"\n", b"").replace(b"$", b"")
                stream += junk + b"\n"
                counted["garbage"] += bool(junk.strip())
    events = []
    position = 0
    while position < len(stream):
        size = data.draw(st.integers(1, 300), label="chunk")
        events += session.feed(bytes(stream[position:position + size]), 0.01)
        position += size
    assert beach_events(events) == expected_events(states)
    for name, count in counted.items():
        assert session.counts[name] == count, name
    assert LinkHealth(True, "RFID Pico fw 1.0.0 on /dev/ttyACM0") in events or \
        LinkHealth(True, "RFID Pico on /dev/ttyACM0") in events


def test_sequence_gap_is_fine_and_counted() -> None:
    session, _ = fresh()
    board = (frozenset({UIDS[0]}), *EMPTY[1:])
    events = session.feed(snap(10, EMPTY) + snap(15, board), 0.0)
    assert beach_events(events)[-1] == BeachContents(0, frozenset({DISCS[0]}))
    assert session.counts["seq_gaps"] == 4


def test_seq_going_backwards_is_stale_until_the_pico_restarts() -> None:
    session, _ = fresh()
    board = (frozenset({UIDS[3]}), *EMPTY[1:])
    session.feed(snap(100, EMPTY), 0.0)
    assert session.feed(snap(50, board), 0.0) == []
    assert session.counts["stale"] == 1
    # A new boot id is a new run: its first frame (the hello) is believed, seq restarts.
    hello = protocol.encode(protocol.Hello("0BADCAFE", 0, "1.0.1", ("pn5180",) * 6, 2, 100))
    events = session.feed(hello + snap(1, board, boot="0BADCAFE"), 0.1)
    assert beach_events(events) == [BeachContents(0, frozenset({DISCS[3]}))]
    assert session.counts["resyncs"] == 1
    # Frames of the old run arriving late are stale, whatever their number.
    assert session.feed(snap(101, EMPTY), 0.2) == []
    assert session.counts["stale"] == 2
    assert session.health(0.2)["firmware"] == "1.0.1"


def test_sequence_numbers_wrap_around() -> None:
    session, _ = fresh()
    board = (frozenset({UIDS[1]}), *EMPTY[1:])
    session.feed(snap(0xFFFFFFFF, EMPTY), 0.0)
    events = session.feed(snap(0, board), 0.0)
    assert beach_events(events) == [BeachContents(0, frozenset({DISCS[1]}))]


def test_unknown_beach_keeps_its_discs_and_the_reader_fault_is_reported() -> None:
    session, _ = fresh()
    board = (EMPTY[0], EMPTY[1], EMPTY[2], frozenset({UIDS[4]}), EMPTY[4], EMPTY[5])
    session.feed(snap(1, board), 0.0)
    fault = protocol.encode(protocol.Fault(BOOT, 2, 3, "timeout", "BUSY stuck high"))
    events = session.feed(fault + snap(3, (*board[:3], None, *board[4:])), 0.1)
    assert beach_events(events) == []          # never "beach 3 emptied"
    assert events == [LinkHealth(False, "beach 3 reader timeout (BUSY stuck high)")]
    assert session.health(0.1)["unknown_beaches"] == [3]
    ok = protocol.encode(protocol.Fault(BOOT, 4, 3, "ok", "recovered"))
    events = session.feed(ok + snap(5, board), 0.2)
    assert events == [LinkHealth(True, "RFID Pico on /dev/ttyACM0")]


def test_lost_recovery_frame_is_inferred_from_a_known_beach() -> None:
    session, _ = fresh()
    session.feed(snap(1, EMPTY), 0.0)
    session.feed(protocol.encode(protocol.Fault(BOOT, 2, 1, "nochip", "")), 0.0)
    events = session.feed(snap(3, EMPTY), 0.1)
    assert events == [LinkHealth(True, "RFID Pico on /dev/ttyACM0")]


def test_disc_seen_elsewhere_leaves_the_unknown_beach() -> None:
    session, _ = fresh()
    session.feed(snap(1, (frozenset({UIDS[2]}), *EMPTY[1:])), 0.0)
    events = session.feed(snap(2, (None, frozenset({UIDS[2]}), *EMPTY[2:])), 0.1)
    assert beach_events(events) == [BeachContents(0, frozenset()),
                                    BeachContents(1, frozenset({DISCS[2]}))]


def test_disc_moved_within_one_snapshot_leaves_before_it_arrives() -> None:
    session, _ = fresh()
    session.feed(snap(1, (*EMPTY[:4], frozenset({UIDS[5]}), *EMPTY[5:])), 0.0)
    events = session.feed(snap(2, (frozenset({UIDS[5]}), *EMPTY[1:])), 0.1)
    assert beach_events(events) == [BeachContents(4, frozenset()),
                                    BeachContents(0, frozenset({DISCS[5]}))]


def test_moved_disc_is_posted_on_its_new_beach_before_the_old_one_lets_go() -> None:
    # The new beach confirms the arrival before the old beach confirms the departure: for a
    # moment the Pico lists the tag twice. The newcomer wins, and does not flip back.
    session, _ = fresh()
    uid = UIDS[7]
    session.feed(snap(1, (frozenset({uid}), *EMPTY[1:])), 0.0)
    both = (frozenset({uid}), EMPTY[1], frozenset({uid}), *EMPTY[3:])
    events = session.feed(snap(2, both) + snap(3, both), 0.1)
    assert beach_events(events) == [BeachContents(0, frozenset()),
                                    BeachContents(2, frozenset({DISCS[7]}))]
    events = session.feed(snap(4, (*EMPTY[:2], frozenset({uid}), *EMPTY[3:])), 0.2)
    assert beach_events(events) == []


def test_tag_appearing_on_two_new_beaches_is_held_back(caplog) -> None:
    session, _ = fresh()
    uid = UIDS[0]
    session.feed(snap(1, EMPTY), 0.0)
    two = (frozenset({uid}), frozenset({uid}), *EMPTY[2:])
    with caplog.at_level(logging.WARNING, "haleakala.rfid"):
        events = session.feed(snap(2, two), 0.1)
    assert beach_events(events) == []
    assert session.health(0.1)["ambiguous_tags"] == [uid]
    assert "read on beaches 0, 1" in caplog.text


def test_unknown_tag_is_reported_once_and_never_becomes_a_disc(caplog) -> None:
    session = RfidSession(TAGS)
    session.opened("p", 0.0)
    stranger = "E0040150DEADBEEF"
    board = (frozenset({stranger, UIDS[0]}), *EMPTY[1:])
    with caplog.at_level(logging.WARNING, "haleakala.rfid"):
        events = session.feed(snap(1, board) + snap(2, board) + snap(3, board), 0.0)
    assert beach_events(events)[0] == BeachContents(0, frozenset({DISCS[0]}))
    assert caplog.text.count(stranger) == 1
    assert session.health(0.0)["unknown_tags"] == [stranger]


def test_silent_pico_makes_the_link_stale_and_a_frame_revives_it() -> None:
    session, events = fresh(0.0)
    assert events == []                       # connecting: nothing to say yet
    events = session.feed(snap(1, EMPTY), 0.1)
    assert events[-1] == LinkHealth(True, "RFID Pico on /dev/ttyACM0")
    assert session.tick(0.9) == []
    stale = session.tick(1.2)
    assert len(stale) == 1 and not stale[0].ok and "went quiet" in stale[0].detail
    assert session.tick(1.5) == []            # said once
    assert session.feed(snap(2, EMPTY), 1.6) == [LinkHealth(True, "RFID Pico on /dev/ttyACM0")]


def test_port_that_never_speaks_is_reported() -> None:
    session, _ = fresh(0.0)
    events = session.tick(1.5)
    assert events and "sends nothing" in events[0].detail


def test_reconnect_posts_only_what_changed_meanwhile() -> None:
    session, _ = fresh()
    board = (frozenset({UIDS[0]}), frozenset({UIDS[1]}), *EMPTY[2:])
    session.feed(snap(1, board), 0.0)
    lost = session.closed("lost the RFID Pico on /dev/ttyACM0: EIO", 1.0)
    assert lost == [LinkHealth(False, "lost the RFID Pico on /dev/ttyACM0: EIO")]
    session.opened("/dev/ttyACM0", 2.0)
    moved = (frozenset({UIDS[0]}), EMPTY[1], frozenset({UIDS[1]}), *EMPTY[3:])
    events = session.feed(snap(1, moved, boot="00000002"), 2.1)
    assert beach_events(events) == [BeachContents(1, frozenset()),
                                    BeachContents(2, frozenset({DISCS[1]}))]
    assert session.counts["disconnects"] == 1 and session.counts["connects"] == 2


def test_overlong_noise_is_dropped_and_the_frame_after_it_read() -> None:
    session, _ = fresh()
    noise = b"x" * 5000
    events = session.feed(noise, 0.0)
    events += session.feed(noise + snap(1, EMPTY), 0.0)
    assert len(beach_events(events)) == 6
    assert session.counts["garbage"] >= 2


def test_repl_prompt_in_front_of_a_frame_does_not_hide_it() -> None:
    session, _ = fresh()
    events = session.feed(b">>> " + snap(1, EMPTY), 0.0)
    assert len(beach_events(events)) == 6 and session.counts["garbage"] == 1


def test_firmware_crash_is_logged_and_counted(caplog) -> None:
    session, _ = fresh()
    with caplog.at_level(logging.ERROR, "haleakala.rfid"):
        session.feed(protocol.encode(protocol.Fault(BOOT, 1, -1, "crash", "MemoryError")),
                     0.0)
    assert session.counts["firmware_crashes"] == 1
    assert "MemoryError" in caplog.text


def test_health_line_names_drops_faults_and_strangers() -> None:
    session, _ = fresh()
    session.feed(b"noise\n" + snap(1, (frozenset({"E0040150DEADBEEF"}), *EMPTY[1:])), 0.0)
    session.feed(protocol.encode(protocol.Fault(BOOT, 2, 4, "nochip", "")), 0.0)
    line = format_health(session.health(0.0))
    assert line.startswith("rfid up, 2 frames, dropped 1 garbage")
    assert "beach 4 nochip" in line and "1 unknown tags" in line
