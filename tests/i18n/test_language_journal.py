"""The language chosen at the board is journaled like the solo setting: a restarted daemon
(power cut, update) speaks it again, whether it replays the journal or starts from a
snapshot, and a damaged value is ignored rather than trusted."""

from __future__ import annotations

from haleakala.companion.autoplay import choose
from haleakala.companion.journal import Journal
from haleakala.games.haleakala import Game


def _journal_with_decisions(tmp_path, decisions: int, every: int = 0) -> tuple[Journal, Game]:
    journal = Journal(tmp_path, snapshot_every=every)
    game = Game("base", seed=7, start="red")
    journal.start(game, language="de")
    for _ in range(decisions):
        game.apply(choose(game, 1))
        journal.append_decision(game)
        if journal.snapshot_due:
            journal.write_snapshot(game)
    return journal, game


def test_the_new_games_language_and_a_menu_change_survive_a_restart(tmp_path):
    journal, game = _journal_with_decisions(tmp_path, 3)
    assert Journal(tmp_path).recover() is not None
    again = Journal(tmp_path)
    again.recover()
    assert again.language == "de"
    journal.append_language("fr")
    game.apply(choose(game, 1))
    journal.append_decision(game)
    again = Journal(tmp_path)
    resumed = again.recover()
    assert again.language == "fr"
    assert resumed is not None and resumed.digest() == game.digest()


def test_the_language_survives_a_resume_from_the_snapshot(tmp_path):
    journal, game = _journal_with_decisions(tmp_path, 6, every=2)
    journal.append_language("fr")
    for _ in range(3):
        game.apply(choose(game, 1))
        journal.append_decision(game)
        if journal.snapshot_due:
            journal.write_snapshot(game)
    again = Journal(tmp_path)
    assert again.recover() is not None
    assert again.language == "fr"


def test_a_language_without_a_catalog_in_the_journal_is_ignored(tmp_path):
    journal, _game = _journal_with_decisions(tmp_path, 2)
    journal.append_language("xx")
    again = Journal(tmp_path)
    assert again.recover() is not None
    assert again.language == "de"


def test_the_boards_menu_changes_the_language_and_a_restart_keeps_it(tmp_path):
    """The menu's language line cycles English, German, French; the choice is journaled and
    a companion restarted on the same journal speaks it again (the daemon does the same)."""
    from support.companion_rig import Rig

    from haleakala import i18n
    from haleakala.hal.events import EncoderTurned

    try:
        rig = Rig("buttons", journal=Journal(tmp_path))
        rig.press("back")
        values = [o.value for o in rig.c.shown.options]
        rig.send(EncoderTurned(values.index("language")))
        rig.press("select")
        assert i18n.current() == "de"
        assert any("Sprache: Deutsch" in line for line in rig.c.prompt)
        assert rig.c.journal.language == "de"
        rig.press("select")
        assert i18n.current() == "fr" and rig.c.journal.language == "fr"
        again = Journal(tmp_path)
        assert again.recover() is not None
        assert again.language == "fr"
    finally:
        i18n.use("en")
