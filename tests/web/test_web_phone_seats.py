"""Phones as seats (issue 28 part 3) against the real server on loopback, raw HTTP: each seat
has its own token and sees and plays only itself; a decision from the wrong seat, without the
token, replayed, malformed, oversized or flooded is refused with a sentence and changes
nothing; a replay of another seat's decision never names it (a face-down discard is hidden).
"""

from __future__ import annotations

import json
import socket

import pytest
from support.live import exchange, parse, read_answer

pytest.importorskip("aiohttp")
from haleakala.games.kahuna import Game
from haleakala.games.kahuna.notation import DISCARD, DRAW_PILE
from haleakala.web.host import MAX_BODY, HostView
from haleakala.web.seats import Table


def post(port: int, path: str, body: bytes, token: str | None = None, extra: str = ""):
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}{extra}"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return parse(exchange(port, head.encode() + body))


def get(port: int, path: str, token: str | None = None):
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    raw = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Connection: close\r\n\r\n"
    return parse(exchange(port, raw.encode()))


def decide(table: Table, colour: str, seq: int, text: str, **over) -> bytes:
    message = {"v": 2, "kind": "decide", "table": table.name, "game": table.game_id,
               "sender": colour, "seq": seq, "decision": text, "nonce": "", "mac": "",
               **over}  # fmt: skip
    return json.dumps(message).encode()


@pytest.fixture
def hosted():
    """A Kahuna game, white and black both phones, both present, white to move."""
    table = Table(Game(seed=5, start="white"), {"white": "phone", "black": "phone"})
    for colour in table.players:
        table.arrived(colour)
    view = HostView(table, "127.0.0.1", 0, request_timeout=30.0).start()
    yield table, view
    view.close()


def sentence(body: bytes) -> str:
    answer = json.loads(body)
    assert answer["ok"] is False
    said = answer["error"]
    assert isinstance(said, str) and said.strip() and "\n" not in said and "Traceback" not in said
    return said


def test_each_seat_reads_only_its_own_view_with_its_own_token(hosted):
    table, view = hosted
    white, black = table.tokens["white"], table.tokens["black"]
    assert white != black
    status, headers, body = get(view.port, "/seat/white/state", white)
    assert status == 200 and json.loads(body)["seat"] == "white"
    assert "Content-Security-Policy" in {k.title(): v for k, v in headers.items()} or (
        "content-security-policy" in headers
    )
    for token in (black, view.token, None, white[:-1] + ("A" if white[-1] != "A" else "B")):
        status, _, body = get(view.port, "/seat/white/state", token)
        assert status == 403
        assert "token" in sentence(body)
        assert b"hand" not in body.lower() and b"GOLA" not in body


def test_the_seat_link_trades_its_token_for_a_cookie_scoped_to_the_seat(hosted):
    table, view = hosted
    status, headers, _ = get(view.port, f"/seat/white/?token={table.tokens['white']}")
    assert status == 303 and headers["location"] == "/seat/white/"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"haleakala_seat_white={table.tokens['white']}")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/seat/white/" in cookie
    raw = (f"GET /seat/white/state HTTP/1.1\r\nHost: x\r\nCookie: haleakala_seat_white="
           f"{table.tokens['white']}\r\nConnection: close\r\n\r\n")  # fmt: skip
    assert parse(exchange(view.port, raw.encode()))[0] == 200
    # A seat's cookie does not open another seat.
    raw = raw.replace("/seat/white/state", "/seat/black/state")
    assert parse(exchange(view.port, raw.encode()))[0] == 403


def test_a_decision_from_the_seat_not_to_move_is_refused_with_a_sentence(hosted):
    table, view = hosted
    text = table.game.format(table.game.legal_actions()[0])
    digest = table.game.digest()
    status, _, body = post(view.port, "/seat/black/decide", decide(table, "black", 1, text),
                           table.tokens["black"])  # fmt: skip
    assert status == 409 and "white" in sentence(body)
    # Black's token cannot send a message as white either.
    status, _, body = post(view.port, "/seat/black/decide", decide(table, "white", 1, text),
                           table.tokens["black"])  # fmt: skip
    assert status == 403 and sentence(body)
    status, _, body = post(view.port, "/seat/white/decide", decide(table, "white", 1, text))
    assert status == 403 and "token" in sentence(body)
    assert table.seq == 0 and table.game.digest() == digest


def test_a_decision_sent_twice_is_acknowledged_twice_and_made_once(hosted):
    table, view = hosted
    text = table.game.format(table.game.legal_actions()[0])
    for _ in range(3):
        status, _, body = post(view.port, "/seat/white/decide", decide(table, "white", 1, text),
                               table.tokens["white"])  # fmt: skip
        assert status == 200 and json.loads(body) == {"v": 1, "ok": True, "seq": 1}
    assert table.seq == 1 and table.game.history == [table.game.parse(text)]


def test_a_replay_of_the_opponents_number_never_names_its_face_down_discard(hosted):
    table, view = hosted
    game = table.game
    while True:  # white ends, black discards face down
        mover = game.to_move
        legal = game.legal_actions()
        hidden = [c for c in legal if DISCARD <= c < DRAW_PILE]
        if mover == "black" and hidden:
            assert table.decide("black", table.seq + 1, game.format(hidden[0])).ok
            break
        code = next((c for c in legal if c >= DRAW_PILE), legal[-1])
        assert table.decide(mover, table.seq + 1, game.format(code)).ok
    card = table.moves[-1].text.split()[1]
    seq = table.seq
    status, _, body = post(view.port, "/seat/white/decide", decide(table, "white", seq, "end"),
                           table.tokens["white"])  # fmt: skip
    assert status == 409 and "moved on" in sentence(body)
    assert card.encode() not in body
    status, _, body = get(view.port, f"/seat/white/state?since={seq - 1}", table.tokens["white"])
    seen = json.loads(body)["moves"][-1]
    assert seen["player"] == "black" and card not in seen["text"]
    assert table.seq == seq


MALFORMED = {
    "empty": b"",
    "not-json": b"{",
    "a-list": b"[]",
    "a-string": b'"end"',
    "null": b"null",
    "not-utf8": b'{"v":1,"kind":"decide","decision":"\xff\xfe"}',
    "deep": b"[" * 200 + b"]" * 200,
    "no-version": json.dumps({"kind": "decide", "seq": 1, "decision": "end"}).encode(),
    "future-version": None,
    "old-version": None,
    "unknown-kind": None,
    "missing-fields": None,
    "extra-field": None,
    "seq-negative": None,
    "seq-huge": None,
    "seq-text": None,
    "seq-float": None,
    "decision-number": None,
    "decision-control": None,
    "decision-long": None,
    "hello-instead": None,
}


def malformed(table: Table, name: str) -> bytes:
    if MALFORMED[name] is not None:
        return MALFORMED[name]  # type: ignore[return-value]
    good = json.loads(decide(table, "white", 1, "end"))
    match name:
        case "future-version":
            good["v"] = 3
        case "old-version":
            good["v"] = 1
        case "unknown-kind":
            good["kind"] = "cheat"
        case "missing-fields":
            del good["seq"]
        case "extra-field":
            good["hand"] = "please"
        case "seq-negative":
            good["seq"] = -1
        case "seq-huge":
            good["seq"] = 10**30
        case "seq-text":
            good["seq"] = "1"
        case "seq-float":
            good["seq"] = 1.0
        case "decision-number":
            good["decision"] = 400
        case "decision-control":
            good["decision"] = "end\x00"
        case "decision-long":
            good["decision"] = "e" * 65
        case "hello-instead":
            good = {"v": 2, "kind": "hello", "table": table.name, "game": table.game_id,
                    "sender": "white", "have": 0, "hints": True, "kit": "x", "session": "",
                    "mac": ""}  # fmt: skip
    return json.dumps(good).encode()


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_decision_gets_a_sentence_and_changes_nothing(hosted, name):
    table, view = hosted
    digest = table.game.digest()
    status, _, body = post(view.port, "/seat/white/decide", malformed(table, name),
                           table.tokens["white"])  # fmt: skip
    assert status in (400, 413), (status, body)
    said = sentence(body)
    assert "Traceback" not in said and len(said) < 300
    assert table.seq == 0 and table.game.digest() == digest


def test_a_body_over_the_limit_is_refused_before_it_is_read(hosted):
    table, view = hosted
    head = (
        "POST /seat/white/decide HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {table.tokens['white']}\r\n"
        "Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", view.port), timeout=30) as sock:
        sock.sendall(head.encode() + b"{" * 1000)  # the rest never comes
        status, _, body = parse(read_answer(sock))
    assert status == 413 and sentence(body)
    status, _, body = post(view.port, "/seat/white/decide", b" " * (MAX_BODY + 1),
                           table.tokens["white"])  # fmt: skip
    assert status == 413
    chunked = (
        (
            "POST /seat/white/decide HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer {table.tokens['white']}\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        ).encode()
        + b"".join(b"400\r\n" + b" " * 0x400 + b"\r\n" for _ in range(4))
        + b"0\r\n\r\n"
    )
    status, _, body = parse(exchange(view.port, chunked))
    assert status == 413
    assert table.seq == 0


def test_the_wrong_method_on_a_seat_path_is_refused_with_a_sentence(hosted):
    table, view = hosted
    status, headers, body = get(view.port, "/seat/white/decide", table.tokens["white"])
    assert status == 405 and headers["allow"] == "POST" and sentence(body)
    status, headers, body = post(view.port, "/seat/white/state", b"{}", table.tokens["white"])
    assert status == 405 and sentence(body)


def test_a_flood_of_junk_replays_and_wrong_seats_leaves_one_decision_made(hosted):
    """Three hundred requests on one keep-alive connection: junk, replays, the wrong seat, the
    wrong token; the one good decision is made once and the server still answers."""
    table, view = hosted
    text = table.game.format(table.game.legal_actions()[0])
    token = table.tokens["white"]
    kinds = [
        (b"{", token, "white"),
        (decide(table, "white", 1, text), token, "white"),
        (decide(table, "black", 1, text), table.tokens["black"], "black"),
        (decide(table, "white", 7, text), token, "white"),
        (decide(table, "white", 1, text), "nope", "white"),
    ]
    answers = []
    with socket.create_connection(("127.0.0.1", view.port), timeout=30) as sock:
        for i in range(300):
            body, bearer, seat = kinds[i % len(kinds)]
            sock.sendall(
                (
                    f"POST /seat/{seat}/decide HTTP/1.1\r\nHost: x\r\n"
                    f"Authorization: Bearer {bearer}\r\nContent-Length: {len(body)}\r\n\r\n"
                ).encode()
                + body
            )
            answers.append(parse(read_answer(sock))[0])
    assert set(answers) <= {200, 400, 403, 409}
    assert answers.count(200) == 60
    assert table.seq == 1 and table.game.history == [table.game.parse(text)]
    assert get(view.port, "/seat/white/state?since=0", token)[0] == 200


@pytest.mark.parametrize("since", ["-1", "x", "1e3", "99999999999"])
def test_a_malformed_since_gets_a_sentence(hosted, since):
    table, view = hosted
    status, _, body = get(view.port, f"/seat/white/state?since={since}", table.tokens["white"])
    assert status == 400 and "since" in sentence(body)


def test_the_host_page_lists_each_phone_seat_with_its_link_and_qr_code(hosted):
    table, view = hosted
    status, _, body = get(view.port, "/", view.token)
    assert status == 200
    page = body.decode()
    for colour in table.players:
        assert view.seat_url(colour).replace("&", "&amp;") in page
    assert page.count("<svg") == 2 and "<script" not in page
    assert get(view.port, "/", table.tokens["white"])[0] == 403  # a seat's token: its seat only
    assert get(view.port, "/")[0] == 403
