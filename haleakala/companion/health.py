"""What the daemon tells ``haleakala update`` about itself, and what an update left to say.

The health record (``health.json`` in the state directory) is written once the daemon has
sent READY=1: its process, the release it runs from, and the game it resumed with the
decision and digest it resumed at. ``haleakala update`` waits for it after switching
releases (systemd's ``ActiveState`` says the unit started; only this says the game came back
at the same decision), and the boot-time release check reads it to tell a release that had
proved itself before a power cut from one that had not. It is small and replaced atomically;
no player data is in it.

The notice (``update-notice.json``) is the other way round: the updater or the boot-time
check writes it when an update was rolled back, and the daemon's next start shows it on the
OLED, logs it, and removes it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from haleakala.core.text import Text
from haleakala.i18n import N_

log = logging.getLogger("haleakala.daemon")

HEALTH_NAME = "health.json"
NOTICE_NAME = "update-notice.json"
RELEASES_DIR = "releases"


def running_release(prefix: str | None = None) -> str | None:
    """The release this interpreter runs from: ``/opt/haleakala/venv`` is a link through
    ``current`` to ``releases/NAME/venv``, so the real path names it. None outside a
    release (a checkout, a test)."""
    real = Path(os.path.realpath(prefix or sys.prefix))
    if real.parent.parent.name == RELEASES_DIR and real.name == "venv":
        return real.parent.name
    return None


def boot_id() -> str | None:
    with contextlib.suppress(OSError):
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    return None


def record(companion: Any, state: str) -> dict[str, Any]:
    """The health record of a companion that has just started (``state``: resumed, new,
    paused)."""
    journal = companion.journal
    return {
        "pid": os.getpid(),
        "release": running_release(),
        "boot_id": boot_id(),
        "state": state,
        "game": journal.game_id if journal is not None else None,
        "decision": len(companion.game.history),
        "digest": companion.game.digest(),
    }


def write_health(state_dir: Path, value: dict[str, Any]) -> None:
    """Replace the health record (atomically; not fsynced: it describes this boot, and the
    boot-time check treats a missing one as "not proven"). A failure is logged only: the
    game is in the journal."""
    from .journal.storage import write_atomically

    try:
        write_atomically(state_dir / HEALTH_NAME, json.dumps(value).encode(), sync=False)
    except OSError as exc:
        log.warning("health record not written (an update waiting for it rolls back): %s", exc)


def take_notice(state_dir: Path) -> dict[str, Any] | None:
    """The update notice, removed once read (it is in the log from now on)."""
    path = state_dir / NOTICE_NAME
    try:
        value = json.loads(path.read_bytes()[: 1 << 16])
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("update notice unreadable (%s): removed", exc)
        value = None
    with contextlib.suppress(OSError):
        path.unlink()
    return value if isinstance(value, dict) else None


def notice_words(notice: dict[str, Any]) -> tuple[Text, Text]:
    """The OLED's title and text for an update notice (the log gets ``why`` in full)."""
    new, old = str(notice.get("release") or "?"), str(notice.get("back_to") or "?")
    versions = new.split("-", 1)[0], old.split("-", 1)[0]  # "0.2.0-1a2b3c4d5e-pi": 0.2.0
    if versions[0] != versions[1]:  # what a player knows a release by (the log names all)
        new, old = versions
    if notice.get("kind") == "interrupted":
        text = Text.of(
            N_("The update to {new} was cut off. Back on {old}; the game is kept."),
            new=new,
            old=old,
        )
    else:
        text = Text.of(
            N_("Release {new} failed its check. Back on {old}; the game is kept."),
            new=new,
            old=old,
        )
    return Text(N_("UPDATE UNDONE")), text


def announce(companion: Any, state_dir: Path) -> None:
    """At start: an update notice is logged in full and shown on the OLED."""
    notice = take_notice(state_dir)
    if notice is None:
        return
    log.warning("update: %s", notice.get("why") or notice)
    title, text = notice_words(notice)
    companion.show(title, text, refusal=False)
