"""The wire format (issue 28, part 1): every message round-trips; anything else — forged,
from another version, malformed, oversized — is refused with one sentence, never a crash."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from haleakala.remote import wire

KEY = wire.table_key("a shared secret")
DECIDE = wire.Decide("t1", "feed", "red", seq=3, decision="3@2")


def test_each_kind_round_trips_through_its_canonical_signed_json():
    messages = [
        wire.Hello("t1", "", "red", have=0, hints=True, kit="kit-1"),
        DECIDE,
        wire.Ack("t1", "feed", "host", to="red", seq=3, ok=False, reason="no", final=True),
        wire.Decision(
            "t1",
            "feed",
            "host",
            to="red",
            seq=3,
            seat="yellow",
            decision="1@0",
            changes={"boat": 2},
            removed=[],
            digest="0" * 64,
            to_move="red",
            legal=["1@1"],
        ),
        wire.Snapshot(
            "t1",
            "feed",
            "host",
            to="red",
            seq=0,
            name="haleakala",
            players=["red", "yellow"],
            history=[],
            deciders=[],
            view={"a": [1]},
            digest="f" * 64,
            to_move="red",
            legal=[],
            hints=False,
            away={"yellow": 3},
            reveal="",
        ),
        wire.Status("t1", "feed", "host", seq=4, away={}, hints=False),
    ]
    for message in messages:
        assert wire.decode(wire.encode(message, KEY), KEY) == message
        assert wire.decode(wire.encode(message)) == message  # a table without a key


def test_a_message_signed_with_another_key_or_not_at_all_is_refused_as_forged():
    with pytest.raises(wire.ProtocolError, match="a forged decide message"):
        wire.decode(wire.encode(DECIDE, wire.table_key("guess")), KEY)
    with pytest.raises(wire.ProtocolError, match="a forged decide message"):
        wire.decode(wire.encode(DECIDE), KEY)


def test_a_signed_message_changed_on_the_way_is_refused_as_forged():
    data = json.loads(wire.encode(DECIDE, KEY))
    data["decision"] = "5@2"
    with pytest.raises(wire.ProtocolError, match="forged"):
        wire.decode(json.dumps(data), KEY)


@pytest.mark.parametrize(
    ("version", "sentence"),
    [
        (3, "a message of protocol version 3, newer than this kit's 2: update this kit"),
        (1, "a message of protocol version 1, older than this kit's 2: update the other kit"),
        (0, "a message of protocol version 0, older than this kit's 2: update the other kit"),
    ],
)
def test_a_message_of_another_protocol_version_is_refused_naming_which_kit_to_update(
    version, sentence
):
    data = json.loads(wire.encode(DECIDE, KEY))
    data["v"] = version
    with pytest.raises(wire.ProtocolError) as refused:
        wire.decode(json.dumps(data), KEY)
    assert str(refused.value) == sentence


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        ({"seq": -1}, "a sequence number must be a whole number from 0 to 1000000"),
        ({"seq": True}, "a sequence number must be a whole number from 0 to 1000000"),
        ({"seq": 10**7}, "a sequence number must be a whole number from 0 to 1000000"),
        ({"sender": "Red!"}, "the sender is not well-formed"),
        ({"decision": "3@2\n"}, "a decision holds control characters"),
        ({"decision": "x" * 65}, "a decision is longer than 64 characters"),
        ({"kind": "resign"}, "an unknown kind of message: 'resign'"),
        ({"extra": 1}, "a decide message with unexpected extra"),
        ({"table": "../#"}, "the table name is not well-formed"),
    ],
)
def test_a_malformed_field_is_refused_with_a_sentence_naming_it(change, sentence):
    data = {**json.loads(wire.encode(DECIDE)), **change}
    with pytest.raises(wire.ProtocolError) as refused:
        wire.decode(json.dumps(data))
    assert str(refused.value) == sentence


def test_oversized_deep_or_non_json_text_is_refused_before_parsing_it_whole():
    for raw, sentence in [
        (b"x" * (wire.MAX_BYTES + 1), "a message longer than 65536 bytes"),
        (b"[" * 100 + b"]" * 100, "not a message: nested deeper than 64 levels"),
        (b"\xff\xfe", "not a message: 'utf-8' codec can't decode byte 0xff"),
        (b"[1]", "not a message: a JSON object was expected"),
        (b'{"v": "1"}', "a message without a protocol version"),
    ]:
        with pytest.raises(wire.ProtocolError) as refused:
            wire.decode(raw)
        assert str(refused.value).startswith(sentence)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
FIELDS = [
    "v",
    "kind",
    "table",
    "game",
    "sender",
    "mac",
    "seq",
    "decision",
    "have",
    "hints",
    "kit",
    "to",
    "ok",
    "reason",
    "final",
    "view",
    "away",
    "legal",
]


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=12))
def test_any_json_object_is_a_message_or_a_sentence_never_a_crash(data):
    raw = json.dumps(data).encode()
    try:
        message = wire.decode(raw)
    except wire.ProtocolError as refused:
        assert str(refused) and "\n" not in str(refused)
    else:
        assert wire.decode(wire.encode(message)) == message


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_a_message_or_a_sentence_never_a_crash(raw):
    try:
        wire.decode(raw, KEY)
    except wire.ProtocolError as refused:
        assert str(refused)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, len(wire.encode(DECIDE, KEY)) - 1), st.integers(0, 255))
def test_any_byte_changed_in_a_signed_message_gets_it_refused(position, value):
    raw = bytearray(wire.encode(DECIDE, KEY))
    if raw[position] == value:
        return
    raw[position] = value
    try:
        message = wire.decode(bytes(raw), KEY)
    except wire.ProtocolError:
        return
    assert message == DECIDE  # only a change JSON ignores (a space) may pass
