"""``haleakala tags enroll`` and ``show``: guided enrolment against the virtual Pico over a
pseudo-terminal, and the careful rewrite of the config's [tags] table."""

from __future__ import annotations

import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support.paths import REPO_ROOT

from haleakala import cli
from haleakala.cli import tags as tags_cli
from haleakala.cli.tags import ENROL_ORDER, EnrolError, enroll, replace_tags_section
from haleakala.hal.events import Disc
from haleakala.hal.rfid.virtual_pico import VirtualPico

EXAMPLE = REPO_ROOT / "hw" / "config.example.toml"
UIDS = {disc: f"E00401500000{i + 1:04X}" for i, disc in enumerate(ENROL_ORDER)}


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[VirtualPico]:
    vp = VirtualPico(snapshot_period_s=0.05)
    vp.start(tmp_path / "pico")
    yield vp
    vp.stop()


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        EXAMPLE.read_text()
        if EXAMPLE.exists()
        else 'kit = "rfid"\n\n[rfid]\nport = "auto"\n\n[tags]\n# disc tags\n'
    )
    return path


def placing(pico: VirtualPico, beaches=(0, 1, 2, 3, 4, 5)):
    """on_prompt: put the asked-for disc's tag on the next beach, from another thread."""
    count = [0]

    def on_prompt(disc: Disc) -> None:
        beach = beaches[count[0] % len(beaches)]
        count[0] += 1
        threading.Timer(0.05, pico.place, (beach, UIDS[disc])).start()

    return on_prompt


def test_enrolling_all_twelve_discs_writes_the_tag_map(pico, config) -> None:
    before = config.read_text()
    said: list[str] = []
    result = enroll(config, pico.path, say=said.append, on_prompt=placing(pico), timeout_s=5)
    assert result == {uid: disc for disc, uid in UIDS.items()}
    written = tomllib.loads(config.read_text())
    assert written["tags"] == {uid: disc.name for disc, uid in UIDS.items()}
    # Everything else in the file is untouched, byte for byte.
    head = before.split("[tags]")[0]
    assert config.read_text().startswith(head)
    assert {k: v for k, v in written.items() if k != "tags"} == {
        k: v for k, v in tomllib.loads(before).items() if k != "tags"
    }
    assert said[0].startswith("[1/12] Put the red1 disc")
    assert any("yellow* = " in line for line in said)


def test_tag_enrolled_for_another_disc_is_refused(pico, config) -> None:
    config.write_text(config.read_text() + f'"{UIDS[Disc("red", 2)]}" = "red2"\n')
    said: list[str] = []

    def on_prompt(disc: Disc) -> None:
        pico.place(0, UIDS[Disc("red", 2)])  # the wrong disc first...
        threading.Timer(0.3, pico.place, (3, UIDS[disc])).start()  # ...then the right one

    result = enroll(
        config, pico.path, [Disc("red", 1)], say=said.append, on_prompt=on_prompt, timeout_s=5
    )
    assert any("already enrolled as red2" in line for line in said)
    assert result == {UIDS[Disc("red", 2)]: Disc("red", 2), UIDS[Disc("red", 1)]: Disc("red", 1)}


def test_re_enrolling_one_disc_replaces_only_its_tag(pico, config) -> None:
    old = {"E0040150AAAA0001": "red1", "E0040150AAAA0002": "yellow*"}
    config.write_text(config.read_text() + "".join(f'"{u}" = "{d}"\n' for u, d in old.items()))
    enroll(
        config,
        pico.path,
        [Disc("red", 1)],
        say=lambda _t: None,
        on_prompt=placing(pico),
        timeout_s=5,
    )
    assert tomllib.loads(config.read_text())["tags"] == {
        UIDS[Disc("red", 1)]: "red1",
        "E0040150AAAA0002": "yellow*",
    }


def test_ctrl_c_leaves_the_config_untouched(pico, config) -> None:
    before = config.read_bytes()
    place = placing(pico)

    def on_prompt(disc: Disc) -> None:
        if disc == Disc("red", 4):
            raise KeyboardInterrupt
        place(disc)

    with pytest.raises(KeyboardInterrupt):
        enroll(config, pico.path, say=lambda _t: None, on_prompt=on_prompt, timeout_s=5)
    assert config.read_bytes() == before


def test_ctrl_c_in_the_command_says_the_config_is_unchanged(config, monkeypatch, capsys) -> None:
    before = config.read_bytes()

    def interrupted(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(tags_cli, "enroll", interrupted)
    assert cli.main(["tags", "enroll", "--config", str(config), "--port", "/dev/null"]) == 130
    assert "is unchanged" in capsys.readouterr().err
    assert config.read_bytes() == before


def test_no_pico_is_a_clear_error(tmp_path: Path, config) -> None:
    with pytest.raises(EnrolError, match="no snapshot from the RFID Pico"):
        enroll(config, str(tmp_path / "nothing"), say=lambda _t: None, wait_link_s=0.5)


def test_unknown_disc_names_are_refused(config, capsys) -> None:
    assert cli.main(["tags", "enroll", "--config", str(config), "--disc", "green3"]) == 2
    assert "'green3'" in capsys.readouterr().err
    assert cli.main(["tags", "enroll", "--config", str(config), "--disc", "red6"]) == 2


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ('"E004015000000001" = "blue1"', "'blue1' is not a disc"),
        ('"E004015000000001" = "red9"', "'red9' is not a disc"),
        ('"XYZ" = "red1"', "not a tag UID"),
    ],
)
def test_broken_tag_map_is_refused_with_the_line_to_fix(
    config, capsys, line: str, complaint: str
) -> None:
    config.write_text(config.read_text() + line + "\n")
    assert cli.main(["tags", "show", "--config", str(config)]) == 2
    assert complaint in capsys.readouterr().err


def test_show_prints_every_disc_in_order(config, capsys) -> None:
    config.write_text(config.read_text() + '"e0:04:01:50:00:00:00:07" = "yellow*"\n')
    assert cli.main(["tags", "show", "--config", str(config)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("1 of 12 discs enrolled")
    assert [line.split()[0] for line in out[1:]] == [d.name for d in ENROL_ORDER]
    assert out[-1].split()[1] == "E004015000000007"
    assert "not enrolled" in out[1]


# ----------------------------------------------------------------------------- the rewrite

TAGS = {"E004015000000001": Disc("red", 1), "E004015000000002": Disc("yellow", 0)}


def test_tags_table_in_the_middle_is_replaced_and_its_comments_kept() -> None:
    text = (
        'kit = "rfid"\n\n[tags]\n# tag = disc\n"0102030405060708" = "red5"\n\n'
        "[inputs]\nhold_ms = 800\n"
    )
    new = replace_tags_section(text, TAGS)
    assert new == (
        'kit = "rfid"\n\n[tags]\n# tag = disc\n"E004015000000001" = "red1"\n'
        '"E004015000000002" = "yellow*"\n\n[inputs]\nhold_ms = 800\n'
    )


def test_missing_tags_table_is_appended() -> None:
    new = replace_tags_section('kit = "rfid"', TAGS)
    assert tomllib.loads(new) == {"kit": "rfid", "tags": {u: d.name for u, d in TAGS.items()}}


def test_tags_written_inline_are_not_rewritten_blindly(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('tags = { "E004015000000009" = "red3" }\n')
    with pytest.raises(EnrolError, match="plain"):
        tags_cli.write_tag_map(path, TAGS)
    assert path.read_text() == 'tags = { "E004015000000009" = "red3" }\n'


KEYS = st.text("abcdefghij_", min_size=1, max_size=6)
SIMPLE = st.one_of(st.integers(-5, 5), st.text("xyz /.", max_size=8), st.booleans())


@given(
    top=st.dictionaries(KEYS, SIMPLE, max_size=3),
    sections=st.dictionaries(
        KEYS.filter(lambda k: k != "tags"), st.dictionaries(KEYS, SIMPLE, max_size=3), max_size=3
    ),
    position=st.integers(0, 3),
    tags=st.dictionaries(
        st.integers(0, 2**64 - 1).map(lambda n: f"{n:016X}"),
        st.sampled_from(ENROL_ORDER),
        max_size=12,
    ),
)
def test_rewriting_tags_changes_nothing_else(top, sections, position, tags) -> None:
    assume(not set(top) & set(sections))

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        return f'"{v}"' if isinstance(v, str) else str(v)

    blocks = ["".join(f"{k} = {value(v)}\n" for k, v in top.items())]
    tables = [
        f"[{name}]\n" + "".join(f"{k} = {value(v)}\n" for k, v in body.items())
        for name, body in sections.items()
    ]
    tables.insert(min(position, len(tables)), '[tags]\n# comment\n"00000001" = "red1"\n')
    text = "\n".join(blocks + tables)
    unique = {}
    for uid, disc in tags.items():
        if disc not in unique.values():
            unique[uid] = disc
    new = tomllib.loads(replace_tags_section(text, unique))
    assert new.pop("tags") == {u: d.name for u, d in unique.items()}
    old = tomllib.loads(text)
    old.pop("tags")
    assert new == old


def test_enroll_command_end_to_end(pico, config, capsys) -> None:
    threading.Timer(0.5, pico.place, (2, UIDS[Disc("red", 3)])).start()
    assert (
        cli.main(
            [
                "tags",
                "enroll",
                "--config",
                str(config),
                "--port",
                pico.path,
                "--disc",
                "red3",
                "--timeout",
                "5",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "[1/1] Put the red3 disc" in out and f"red3 = {UIDS[Disc('red', 3)]}" in out
    assert tomllib.loads(config.read_text())["tags"] == {UIDS[Disc("red", 3)]: "red3"}
