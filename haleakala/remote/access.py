"""Who may join a remote table: the table key (the host makes one when none is given), the
line and QR code that tell the other kits how to join, and the broker password (from the
config's file or the environment; on the command line it still works, with a warning).

Why a key by default: on a broker others can reach, a table without one takes anyone's
messages as a seat's (a stranger's decision, a forged end). Playing without one needs
``--no-table-key`` and is warned about; only a broker whose accounts and ACLs already keep
strangers out makes that safe (docs/REMOTE-PROTOCOL.md).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from .mqtt import TableURL

KEY_ENV = "HALEAKALA_TABLE_KEY"
PASSWORD_ENV = "HALEAKALA_MQTT_PASSWORD"
KEY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""Letters and digits that read and type unambiguously (no l/1, o/0, i)."""
KEYLESS_WARNING = (
    "warning: this table plays WITHOUT a table key (--no-table-key): anyone who can reach the "
    "broker can send a decision as a seat or end the game; play so only on a broker whose "
    "accounts and ACLs keep strangers out"
)


class AccessError(ValueError):
    """A table that cannot be joined as asked; the message says what to do."""


def make_key() -> str:
    """A new table key: four groups of four (about 79 bits), easy to read out and type."""
    chars = [secrets.choice(KEY_ALPHABET) for _ in range(16)]
    return "-".join("".join(chars[i : i + 4]) for i in range(0, 16, 4))


def key_file(state_dir: Path, table: str) -> Path:
    """Where a host keeps the key it made for ``table`` (readable by its user only): the
    same friends play the next game at that table with the same key."""
    return state_dir / f"table-key-{table}"


def _read_secret(path: str, what: str) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise AccessError(f"the {what} file {path} cannot be read: {exc}") from None
    if not text:
        raise AccessError(f"the {what} file {path} is empty")
    return text


def table_secret(
    url: TableURL,
    *,
    given: str | None,
    keyless: bool,
    host: bool,
    state_dir: Path,
    env: Mapping[str, str] = os.environ,
    key_path: str = "",
) -> tuple[str, list[str]]:
    """(the table's secret, lines to say); ``AccessError`` when a seat has none. In order:
    ``--table-key``, the address's ``?key=``, ``$HALEAKALA_TABLE_KEY``, the config's
    ``table_key_file``; else a host uses the key it keeps for the table (made now if new)."""
    found = given or url.key or env.get(KEY_ENV, "") or (
        _read_secret(key_path, "table key") if key_path else ""
    )  # fmt: skip
    if keyless:
        if found:
            raise AccessError("--no-table-key and a table key together: choose one")
        return "", [KEYLESS_WARNING]
    if found:
        return found, []
    if not host:
        raise AccessError(
            f"table {url.table} needs its key: start this kit with the join line the host "
            f"printed (--remote '…/{url.table}?key=…'), or set ${KEY_ENV}; a table whose host "
            "plays without a key is joined with --no-table-key"
        )
    path = key_file(state_dir, url.table)
    if path.exists():
        return _read_secret(str(path), "table key"), []
    key = make_key()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(key + "\n")
    return key, [f"made a table key for table {url.table} (kept in {path})"]


def join_address(url: TableURL, secret: str) -> str:
    """The address a seat kit joins with: broker, table and key, without any password."""
    key = f"?key={quote(secret, safe='')}" if secret else ""
    return f"{url.scheme}://{url.host}:{url.port}/{url.table}{key}"


def show_join(url: TableURL, secret: str, seats: list[str], out: TextIO) -> None:
    """How the other kits join: one line to copy, and the same address as a QR code (read
    it with a phone and send it to the other house). The broker password is never in it."""
    address = join_address(url, secret)
    colours = " or ".join(seats) or "COLOUR"
    print(f"to join table {url.table}: haleakala run --remote '{address}' --seat {colours}",
          file=out)  # fmt: skip
    if url.username:
        print("(each kit gives the broker its own user and password: not in this line)", file=out)
    try:
        import segno
    except ImportError:
        print("(the QR code needs segno: pip install segno)", file=out)
        return
    # a terminal without the block characters keeps the line above
    with contextlib.suppress(UnicodeEncodeError):
        segno.make_qr(address, error="l").terminal(out=out, compact=True)
    out.flush()


def broker_password(
    url: TableURL, *, env: Mapping[str, str] = os.environ, password_file: str = ""
) -> tuple[TableURL, list[str]]:
    """The address with the broker password from ``$HALEAKALA_MQTT_PASSWORD`` or the
    config's ``password_file``; one in the address itself still works, with a warning."""
    if url.password:
        return url, [
            "warning: the broker password is on the command line, where every user of this "
            f"machine can read it (ps) and the shell's history keeps it: put it in ${PASSWORD_ENV} "
            "or in a file named by [remote] password_file in the config"
        ]
    password = env.get(PASSWORD_ENV, "") or (
        _read_secret(password_file, "broker password") if password_file else ""
    )  # fmt: skip
    if password and not url.username:
        return url, [
            f"warning: a broker password is given (${PASSWORD_ENV} or password_file) but the "
            "address names no user (mqtt://USER@HOST/…): it is not used"
        ]
    return (replace(url, password=password) if password else url), []


def access(
    args: Any, url: TableURL, config: Any, state_dir: Path
) -> tuple[TableURL, str, list[str]]:
    """``run --remote``'s address with its password, the table's secret, and what to say
    about them (``broker_password``, ``table_secret``)."""
    url, said = broker_password(url, password_file=config.remote.password_file)
    secret, more = table_secret(
        url,
        given=getattr(args, "table_key", None),
        keyless=bool(getattr(args, "no_table_key", False)),
        host=bool(getattr(args, "host", False)),
        state_dir=state_dir,
        key_path=config.remote.table_key_file,
    )
    return url, secret, said + more


def from_config(args: Any) -> bool:
    """``haleakala run`` without ``--remote``: the config's ``[remote]`` (enabled) fills
    in the options, so the daemon under systemd plays remote as configured. True if it did."""
    from haleakala.config import ConfigError, load

    try:
        config = load(getattr(args, "config", None))
    except (ConfigError, OSError):
        return False  # the daemon reports the config's problems as it always does
    remote = config.remote
    if not remote.enabled:
        return False
    args.remote = remote.broker
    if not getattr(args, "seat", None):
        args.seat = [remote.seat]
    args.host = bool(getattr(args, "host", False) or remote.host)
    if not getattr(args, "ca_file", None) and remote.ca_file:
        args.ca_file = remote.ca_file
    return True


def phone_options(args: Any) -> str:
    """``--web`` in a remote game serves its phone seats (``--seat COLOUR=phone``, at the
    host): the one without the other is refused with a sentence ("" when all is well)."""
    phones = [s for s in getattr(args, "seat", None) or () if s.partition("=")[2] == "phone"]
    web = getattr(args, "web", None)
    if phones and not getattr(args, "host", False):
        return "--seat COLOUR=phone is the host's to say (the host serves the phone seats)"
    if phones and not web:
        return (
            "a phone seat needs --web [HOST:]PORT, where the host serves it (0.0.0.0:8080 "
            "for the phones on the LAN)"
        )
    if web and not phones:
        return (
            "--web in a remote game serves its phone seats (--seat COLOUR=phone at the host); "
            "the live view of a remote game is not served yet: leave --web out"
        )
    return ""


def serve_phones(kit: Any, address: str) -> Any:
    """The host kit's phone seats, served at ``address`` (``remote.phones``)."""
    from haleakala.gameapi import game_class

    from .phones import serve

    start = game_class(kit.authority.name).from_json(kit.start_json)
    return serve(kit, start, address)
