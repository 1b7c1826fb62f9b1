"""The streamed journal reader (``scan.scan_journal``) reads a file the same whatever its
window: pieces that cover the file end to end, the same with a 5-byte read as with a 1 MiB
one, and behind damage of any size the records that follow."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.companion.autoplay import choose
from haleakala.companion.journal import encode_record, scan
from haleakala.games.haleakala import Game


def journal_bytes(decisions: int = 10) -> bytes:
    game = Game("base", 3, "red")
    records = [encode_record({"type": "header", "format": "haleakala-journal", "version": 1})]
    for ply in range(1, decisions + 1):
        d = choose(game, 1)
        game.apply(d)
        record = {"type": "decision", "ply": ply, "decision": game.format(d), "by": "player",
                  "digest": game.digest()}  # fmt: skip
        records.append(encode_record(record))
    return b"".join(records)


JOURNAL = journal_bytes()


def pieces(data: bytes, chunk: int, monkeypatch) -> list[tuple]:
    monkeypatch.setattr(scan, "CHUNK", chunk)
    found = scan.scan_journal(io.BytesIO(data), size=len(data))
    written = len(data.rstrip(b"\0"))  # the zeros after the records are written ahead
    assert found.allocated == len(data) and found.size == written
    assert found.head == data[: min(scan.HEAD, written)]
    return [(p.start, p.end, p.payload, p.mended, p.problem) for p in found.pieces]


damage = st.lists(
    st.tuples(
        st.sampled_from(["insert", "flip", "cut", "zeros"]),
        st.integers(min_value=0, max_value=len(JOURNAL)),
        st.binary(min_size=1, max_size=300),
    ),
    max_size=3,
)


def damaged(data: bytes, steps) -> bytes:
    for kind, at, junk in steps:
        at = min(at, len(data))
        if kind == "insert":
            data = data[:at] + junk + data[at:]
        elif kind == "flip" and at < len(data):
            data = data[:at] + bytes([data[at] ^ (junk[0] or 1)]) + data[at + 1 :]
        elif kind == "cut":
            data = data[:at]
        elif kind == "zeros":
            data = data[:at] + bytes(len(junk) * 50) + data[at:]
    return data


@settings(max_examples=60, deadline=None)
@given(steps=damage)
def test_the_pieces_cover_the_file_and_do_not_depend_on_the_window(steps):
    data = damaged(JOURNAL, steps)
    with pytest.MonkeyPatch.context() as mp:
        whole = pieces(data, 1 << 20, mp)
        for chunk in (5, 97):
            assert pieces(data, chunk, mp) == whole
    ends = [0] + [end for _, end, *_ in whole]
    assert [start for start, *_ in whole] == ends[:-1] and ends[-1] == len(data.rstrip(b"\0"))


def test_records_behind_a_megabyte_of_garbage_are_read(monkeypatch):
    cut = len(encode_record({"type": "header", "format": "haleakala-journal", "version": 1}))
    junk = bytes(range(256)) * (3 * scan.CHUNK // 256)  # every byte value, '{' included
    data = JOURNAL[:cut] + junk + JOURNAL[cut:]
    found = pieces(data, scan.CHUNK, monkeypatch)
    assert found[1][:3] == (cut, cut + len(junk), None)  # one unreadable stretch
    assert [p[2]["ply"] for p in found[2:]] == list(range(1, 11))
