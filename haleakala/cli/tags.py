"""``haleakala tags``: enrol the RFID tags glued into the discs, and show the tag map.

``enroll`` asks for each disc in turn (red1..red5, red*, yellow1..yellow5, yellow*), waits
for exactly one new tag to appear on any beach, and writes the ``[tags]`` table of the config
file at the end: only that table is rewritten, the rest of the file stays as it was, byte for
byte. Nothing is written before the last disc, so Ctrl-C leaves the config untouched.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import re
import sys
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from haleakala.cli import UsageError, add_config_option
from haleakala.hal.events import Disc, LinkHealth
from haleakala.hal.rfid.protocol import normalise_uid

ENROL_ORDER = tuple(
    Disc(colour, value) for colour in ("red", "yellow") for value in (1, 2, 3, 4, 5, 0)
)
"""The twelve discs of a game: five number discs and the invocation disc per player."""

_HEADER = re.compile(r"^\s*\[\s*tags\s*\]\s*(#.*)?$")
_TABLE = re.compile(r"^\s*\[")
_HEX = set("0123456789ABCDEF")


class EnrolError(Exception):
    """Enrolment cannot go on (no Pico, a config that cannot be written): exit status 1."""


# ----------------------------------------------------------------------------- the file


def read_config(path: Path) -> tuple[str, dict[str, Any]]:
    """The config's text and its parsed TOML ("" and {} when there is no file yet)."""
    if not path.exists():
        return "", {}
    text = path.read_text(encoding="utf-8")
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(
            f"{path} is not valid TOML ({exc}); fix it first (haleakala config check)"
        ) from None


def tag_map_of(raw: Mapping[str, Any], path: Path) -> dict[str, Disc]:
    """The ``[tags]`` table as UID -> Disc, refusing what the daemon would refuse."""
    tags = raw.get("tags", {})
    if not isinstance(tags, dict):
        raise UsageError(f'{path}: tags must be a [tags] table of "UID" = "disc" lines')
    result: dict[str, Disc] = {}
    owner: dict[Disc, str] = {}
    for key, name in tags.items():
        uid = normalise_uid(key)
        if not uid or len(uid) % 2 or not set(uid) <= _HEX:
            raise UsageError(
                f"{path} [tags]: {key!r} is not a tag UID in hex; fix or delete that line"
            )
        try:
            disc = Disc.parse(name) if isinstance(name, str) else None
        except ValueError:
            disc = None
        if disc is None:
            raise UsageError(
                f"{path} [tags]: {name!r} is not a disc (red1..red5, "
                "yellow1..yellow5, red*, yellow*); fix or delete that line"
            )
        if disc in owner:
            raise UsageError(
                f"{path} [tags]: {disc.name} is enrolled twice ({owner[disc]} "
                f"and {uid}); delete one line or re-enrol with "
                f"--disc {disc.name}"
            )
        owner[disc] = uid
        result[uid] = disc
    return result


def _order(disc: Disc) -> int:
    return ENROL_ORDER.index(disc)


def tag_lines(tag_map: Mapping[str, Disc]) -> list[str]:
    return [
        f'"{uid}" = "{disc.name}"\n'
        for uid, disc in sorted(tag_map.items(), key=lambda item: _order(item[1]))
    ]


def replace_tags_section(text: str, tag_map: Mapping[str, Disc]) -> str:
    """``text`` with its ``[tags]`` table holding exactly ``tag_map``.

    Everything outside the table is kept byte for byte; the table's own comment lines are
    kept (they document it), its key lines replaced. No table: one is appended.
    """
    entries = tag_lines(tag_map)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    start = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if start is None:
        gap = ["\n"] if lines and lines[-1].strip() else []
        return "".join(lines + gap + ["[tags]\n"] + entries)
    end = next((i for i in range(start + 1, len(lines)) if _TABLE.match(lines[i])), len(lines))
    comments = [line for line in lines[start + 1 : end] if line.strip().startswith("#")]
    tail = ["\n"] if end < len(lines) else []
    return "".join(lines[: start + 1] + comments + entries + tail + lines[end:])


def write_tag_map(path: Path, tag_map: Mapping[str, Disc]) -> None:
    """Rewrite the ``[tags]`` table of ``path`` (created if missing), atomically, and check
    that the result means exactly the old config with the new tags."""
    text, raw = read_config(path)
    new_text = replace_tags_section(text, tag_map)
    try:
        new_raw = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        new_raw = None
    if (
        new_raw is None
        or {k: v for k, v in new_raw.items() if k != "tags"}
        != {k: v for k, v in raw.items() if k != "tags"}
        or tag_map_of(new_raw, path) != dict(tag_map)
    ):
        raise EnrolError(
            f"cannot rewrite the tags of {path} safely: keep them as a plain "
            '[tags] table of "UID" = "disc" lines, then enrol again'
        )
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(new_text)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def check_writable(path: Path) -> None:
    """Refuse before the maker spends five minutes placing discs, not after."""
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise EnrolError(
            f"cannot write {path}: directory {parent} does not exist (create it, or pass --config)"
        )
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise EnrolError(
            f"cannot write {path}: permission denied (run with sudo, or pass "
            "--config with a file you can write)"
        )


# ----------------------------------------------------------------------------- enrolment


def _on_board(raw: Iterable[frozenset[str] | None]) -> set[str]:
    return {uid for beach in raw if beach is not None for uid in beach}


def enroll(
    config: Path,
    port: str = "auto",
    discs: Iterable[Disc] = ENROL_ORDER,
    *,
    baud: int = 115200,
    say: Callable[[str], None] = print,
    on_prompt: Callable[[Disc], None] | None = None,
    timeout_s: float | None = None,
    wait_link_s: float = 5.0,
) -> dict[str, Disc]:
    """Enrol ``discs`` one by one from the RFID Pico on ``port``; write and return the map.

    ``on_prompt`` is called after each "put the disc" prompt (tests place the tag there).
    Raises ``EnrolError`` (no Pico, a disc not placed within ``timeout_s``), ``UsageError``
    (a broken config), ``KeyboardInterrupt`` (the config is then untouched).
    """
    from haleakala.hal.factory import open_rfid_link

    wanted = list(dict.fromkeys(discs))
    _text, raw = read_config(config)
    existing = tag_map_of(raw, config)
    check_writable(config)
    keep = {uid: disc for uid, disc in existing.items() if disc not in wanted}
    snapshots: queue.Queue[tuple[frozenset[str] | None, ...]] = queue.Queue()
    health: list[LinkHealth] = []
    # The Pico on ``port`` whatever the backend: enrolment reads a real kit's tags.
    driver = open_rfid_link(
        tags={},
        port=port,
        baud=baud,
        on_uids=snapshots.put,
        post=lambda e: health.append(e) if isinstance(e, LinkHealth) else None,
        warn_unknown=False,
    )
    recorded: dict[str, Disc] = {}
    driver.start()
    try:
        try:
            board = _on_board(snapshots.get(timeout=wait_link_s))
        except queue.Empty:
            why = health[-1].detail if health else "no data"
            raise EnrolError(
                f"no snapshot from the RFID Pico within {wait_link_s:g} s "
                f"({why}); check the USB cable and that the firmware runs, "
                "or pass --port"
            ) from None
        for number, disc in enumerate(wanted, 1):
            say(
                f"[{number}/{len(wanted)}] Put the {disc.name} disc on any beach "
                "(Ctrl-C stops; nothing is saved before the last disc)."
            )
            if on_prompt is not None:
                on_prompt(disc)
            uid, board = _wait_for_new_tag(
                disc, board, snapshots, {**keep, **recorded}, say, timeout_s
            )
            recorded[uid] = disc
            say(f"      {disc.name} = {uid}")
    finally:
        driver.close()
    result = {**keep, **recorded}
    write_tag_map(config, result)
    say(f"Enrolled {len(recorded)} disc(s); {len(result)} tags in the [tags] table of {config}.")
    return result


def _wait_for_new_tag(
    disc: Disc,
    board: set[str],
    snapshots: queue.Queue,
    taken: Mapping[str, Disc],
    say: Callable[[str], None],
    timeout_s: float | None,
) -> tuple[str, set[str]]:
    """Wait until exactly one tag that was not on the board appears; returns it and the
    board as it is then. Tags enrolled for other discs are refused, with a word why."""
    baseline = set(board)
    refused: set[str] = set()
    crowded = False
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while True:
        try:
            raw = snapshots.get(timeout=0.2)
        except queue.Empty:
            if deadline is not None and time.monotonic() > deadline:
                raise EnrolError(f"no new tag for {disc.name} within {timeout_s:g} s") from None
            continue
        now = _on_board(raw)
        baseline &= now  # a tag lifted off and put back counts as new
        new = now - baseline
        for uid in sorted(new - refused):
            if uid in taken:
                say(
                    f"      Tag {uid} is already enrolled as {taken[uid].name}: take it off "
                    f"and put the {disc.name} disc on a beach."
                )
                refused.add(uid)
        fresh = sorted(new - set(taken))
        if len(fresh) == 1:
            return fresh[0], now
        if len(fresh) > 1 and not crowded:
            say(
                f"      {len(fresh)} new tags at once: leave only the {disc.name} disc on the "
                "board."
            )
            crowded = True


# ----------------------------------------------------------------------------- command


def _config_path(args: argparse.Namespace) -> Path:
    from haleakala.config import resolve_path

    return resolve_path(args.config)[0]


def _parse_discs(names: list[str] | None) -> list[Disc]:
    if not names:
        return list(ENROL_ORDER)
    discs = []
    for name in names:
        try:
            discs.append(Disc.parse(name))
        except ValueError:
            raise UsageError(
                f"--disc {name!r}: discs are red1..red5, yellow1..yellow5, "
                "red* and yellow* (quote the * in the shell)"
            ) from None
    return discs


def enroll_command(args: argparse.Namespace) -> int:
    path = _config_path(args)
    discs = _parse_discs(args.disc)
    _text, raw = read_config(path)
    rfid = raw.get("rfid", {}) if isinstance(raw.get("rfid", {}), dict) else {}
    port = args.port or rfid.get("port", "auto")
    baud = int(rfid.get("baud", 115200))
    timeout = args.timeout or None
    print(f"Enrolling {len(discs)} disc(s) into {path} from the RFID Pico ({port}).")
    from haleakala.kit.service import service_paused

    try:
        with service_paused("tags enroll"):  # the daemon holds the Pico's serial port
            enroll(
                path,
                port,
                discs,
                baud=baud,
                timeout_s=timeout,
                say=lambda text: print(text, flush=True),
            )
    except KeyboardInterrupt:
        print(f"\nEnrolment cancelled: {path} is unchanged.", file=sys.stderr)
        return 130
    except EnrolError as exc:
        print(f"haleakala tags enroll: {exc}", file=sys.stderr)
        return 1
    return 0


def show_command(args: argparse.Namespace) -> int:
    path = _config_path(args)
    _text, raw = read_config(path)
    tag_map = tag_map_of(raw, path)
    by_disc = {disc: uid for uid, disc in tag_map.items()}
    where = str(path) if path.exists() else f"{path} (no such file)"
    print(f"Tag map in {where}: {len(tag_map)} of {len(ENROL_ORDER)} discs enrolled")
    for disc in ENROL_ORDER:
        print(f"  {disc.name:<8} {by_disc.get(disc, '-  (not enrolled)')}")
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tags",
        help="enrol the discs' RFID tags and show the tag map (RFID kit)",
        description="Enrol the RFID tags glued into the discs, or show the tag map.",
    )
    actions = parser.add_subparsers(dest="tags_action", metavar="ACTION")
    enrol = actions.add_parser(
        "enroll",
        help="put each disc on a beach in turn and record its tag",
        description="Asks for each disc in turn and records the tag that appears on a "
        "beach; writes the [tags] table of the config at the end.",
    )
    add_config_option(enrol)
    enrol.add_argument(
        "--port", help='the Pico\'s serial port (default: [rfid] port of the config, else "auto")'
    )
    enrol.add_argument(
        "--disc",
        action="append",
        metavar="NAME",
        help="enrol only this disc, e.g. --disc red3 (repeatable)",
    )
    enrol.add_argument(
        "--timeout",
        type=float,
        default=0,
        metavar="SECONDS",
        help="give up if a disc is not placed within this time (0: wait)",
    )
    enrol.set_defaults(func=enroll_command)
    show = actions.add_parser("show", help="print which tag is glued into which disc")
    add_config_option(show)
    show.set_defaults(func=show_command)
    parser.set_defaults(func=lambda _args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2
