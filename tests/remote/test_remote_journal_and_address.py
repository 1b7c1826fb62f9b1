"""The host's remote journal (a torn last line is dropped, damage elsewhere is named) and the
``--remote`` address (every part checked, the password never shown)."""

from __future__ import annotations

import pytest

from haleakala.remote.journal import JournalError, RemoteJournal
from haleakala.remote.mqtt import RemoteURLError, parse_url


def test_a_journal_cut_mid_line_resumes_with_every_complete_decision(tmp_path):
    journal = RemoteJournal(tmp_path / "j.jsonl")
    journal.start({"table": "t", "game": "ab", "name": "haleakala", "start": "{}"})
    journal.append({"seq": 1, "seat": "red", "decision": "1@0"})
    with journal.path.open("a") as f:
        f.write('{"seq": 2, "seat": "yel')  # the power went here: never acknowledged
    setup, decisions = journal.read()
    assert setup["game"] == "ab" and decisions == [{"seq": 1, "seat": "red", "decision": "1@0"}]


SETUP = '{"setup": {"table": "t", "game": "ab", "name": "haleakala", "start": "{}"}}'


@pytest.mark.parametrize(
    ("lines", "sentence"),
    [
        ([SETUP, "{oops", '{"seq": 2}'], "line 2: not JSON"),
        (
            [SETUP, '{"seq": 3, "seat": "red", "decision": "1@0"}'],
            "line 2: not decision 1",
        ),
        (['{"seq": 1}'], "line 1: the game's setup is missing"),
    ],
)
def test_a_journal_damaged_before_its_last_line_is_refused_naming_the_line(
    tmp_path, lines, sentence
):
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match=sentence):
        RemoteJournal(path).read()


def test_an_address_gives_scheme_host_port_table_and_credentials():
    url = parse_url("mqtts://kit%40home:s%3Acret@broker.example:8884/our-table_1")
    assert (url.tls, url.host, url.port, url.table) == (True, "broker.example", 8884, "our-table_1")
    assert (url.username, url.password) == ("kit@home", "s:cret")
    assert (
        "s:cret" not in str(url) and str(url) == "mqtts://kit@home@broker.example:8884/our-table_1"
    )
    assert parse_url("mqtt://pi.local/t").port == 1883


@pytest.mark.parametrize(
    "address",
    ["mqtt://pi.local/a/b", "mqtt:///t", "mqtt://pi.local/t?x=1", "tcp://pi.local/t", "pi.local"],
)
def test_a_bad_address_is_refused_with_a_sentence(address):
    with pytest.raises(RemoteURLError) as refused:
        parse_url(address)
    assert address in str(refused.value)
