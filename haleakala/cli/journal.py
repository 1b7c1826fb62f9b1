"""``haleakala journal check|resume``: what a start would make of the journal, and the way on
when recovery cannot settle it by itself.

Recovery accepts a journal record only when its digest proves it follows the history before
it. When intact, acknowledged records cannot be connected to that history (records copied or
moved out of order, rules that changed), the daemon writes nothing and pauses at the last
decision it can prove. ``check`` reads the files and says what a start would do (it changes
nothing; exit 1 when the journal waits for a decision). ``resume --at N`` keeps the journal and
the snapshot as they are in ``*.bad-*`` backups, then writes the proven history up to
decision N (default: the last proven); a daemon that waits goes on from there by itself.
Run it as the daemon's user (``sudo -u haleakala haleakala journal resume``).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from haleakala.cli import UsageError, add_config_option

if TYPE_CHECKING:
    from haleakala.companion.journal import Journal
    from haleakala.games.haleakala import Game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "journal",
        help="check the game journal, or resume a paused one at a proven decision",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check_p = actions.add_parser(
        "check",
        help="say what a start would make of the journal (changes nothing)",
        description="Say what a start would make of the journal; change nothing. Exit 0: a "
        "start resumes it by itself; 1: it waits for 'haleakala journal resume'.",
    )
    resume_p = actions.add_parser(
        "resume",
        help="resume a paused journal at a decision recovery can prove",
        description="Keep the journal and the snapshot in backups, then write the proven "
        "history up to decision N as the journal (a waiting daemon goes on by itself).",
    )
    resume_p.add_argument(
        "--at",
        type=int,
        default=None,
        metavar="N",
        help="the decision to resume at (default: the last one recovery can prove)",
    )
    for sub, func in ((check_p, check), (resume_p, resume)):
        add_config_option(sub)
        sub.add_argument(
            "--state-dir", default=None, help="journal directory (default: the config's)"
        )
        sub.set_defaults(func=func)


def _state_dir(args: argparse.Namespace) -> Path:
    if args.state_dir:
        return Path(args.state_dir)
    from haleakala.config import ConfigError, load

    try:
        return Path(load(args.config).state_dir)
    except ConfigError as exc:
        raise UsageError(f"{exc} (or name the journal's folder with --state-dir)") from exc
    except OSError as exc:
        raise UsageError(f"cannot read the config: {exc}") from exc


def _recovered(args: argparse.Namespace) -> tuple[Journal, Game | None, int]:
    """The journal of the state directory, recovered without writing anything."""
    from haleakala.companion.journal import Journal, JournalError

    state_dir = _state_dir(args)
    if not state_dir.is_dir():
        raise UsageError(f"{state_dir} is not a folder (check --state-dir or the config)")
    logging.getLogger("haleakala.journal").addHandler(logging.NullHandler())  # printed here
    journal = Journal(state_dir, readonly=True)
    try:
        game = journal.recover()
    except JournalError as exc:
        print(f"haleakala journal: {exc}", file=sys.stderr)
        return journal, None, 1
    return journal, game, 0


def _describe(journal: Journal, game: Game) -> str:
    return (
        f"game {journal.game_id} ({game.variant}, seed {game.seed}) at decision "
        f"{len(game.history)}, digest {game.digest()}"
    )


def check(args: argparse.Namespace) -> int:
    journal, game, status = _recovered(args)
    if status:
        return status
    for note in journal.notes:
        print(note)
    if game is None:
        print(f"no game in {journal.state_dir}: a start begins a new one")
        return 0
    if journal.unsettled is not None:
        proven = journal.unsettled.proven
        print(
            f"the journal waits: it proves {_describe(journal, game)}; resume there with: "
            f"haleakala journal resume --at {proven} --state-dir {journal.state_dir}"
        )
        return 1
    verdict = "nothing to repair" if not journal.notes else "a start repairs it as above"
    print(f"journal OK: {_describe(journal, game)}; {verdict}")
    return 0


def resume(args: argparse.Namespace) -> int:
    journal, game, status = _recovered(args)
    if status:
        return status
    if game is None or journal.unsettled is None:
        where = f"decision {len(game.history)}" if game is not None else "a new game"
        print(
            f"haleakala journal: the journal waits for no decision: a start resumes "
            f"{where} by itself (see haleakala journal check)",
            file=sys.stderr,
        )
        return 1
    at = journal.unsettled.proven if args.at is None else args.at
    if not 0 <= at <= journal.unsettled.proven:
        raise UsageError(
            f"decision {at} is not proven: the journal proves decisions 0 to "
            f"{journal.unsettled.proven}"
        )
    try:
        resumed = journal.resume_at(at)
    except OSError as exc:
        from haleakala.companion.journal import storage_error

        print(f"haleakala journal: {storage_error(exc, journal.path)}", file=sys.stderr)
        return 1
    finally:
        journal.close()
    print(
        f"resumed {_describe(journal, resumed)}; the files as they were are kept in "
        f"{', '.join(path.name for path in journal.backups)}; a paused daemon goes on by itself"
    )
    return 0
