"""The companion's narrator: what changed on the island since the last look, said aloud.

After every event and timer the controller calls ``observe`` (on its own thread, after the
change was journaled); the narrator compares what it saw last with what is now and hands the
voice (``speech.voice.Voice``) what is new, already rendered in the language in use:

- a decision by either side (the players', the forced-decision timer's, the solo companion's
  or the remote player's), in its short form at ``events`` and its long form with what it
  caused at ``everything``; eruptions, burnt statues, scorings with their breakdown and the
  result at every level;
- whose turn it is when it changes; the companion's (or the remote player's) proposal;
- a note or refusal on the OLED (refusals first, interrupting), the board's disagreement on
  the RFID kit, each with the beaches it flashes named by touch
  (``games.haleakala.words.speech.tactile``);
- a lesson's step; and at ``everything`` the OLED itself whenever its words change (the line
  under the cursor as the encoder turns).

Why it watches instead of being called at each place: the words already exist as values the
OLED shows (``ui.Panel``), so reading them where they land says exactly what a sighted player
reads, and no part of the controller has to remember to speak. Decisions are said only once
the keeper has saved them, keyed by the game and the journal position, and the narrator
starts from the position the journal resumed (announced once), so a restart repeats nothing.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from haleakala import i18n
from haleakala.core.text import Param, Text
from haleakala.games.haleakala.events import Ended, Erupted, Scored
from haleakala.games.haleakala.game import OVER
from haleakala.games.haleakala.words import moves
from haleakala.games.haleakala.words import speech as S
from haleakala.speech.settings import Settings
from haleakala.speech.voice import ALERT, DETAIL, EVENT, Utterance

from . import oled
from . import ui as U

if TYPE_CHECKING:
    from haleakala.games.haleakala import Game
    from haleakala.speech.voice import Voice

log = logging.getLogger("haleakala.speech")

EVERY_EVENT = (Erupted, Scored, Ended)
"""Events said in full at every verbosity: they change the score."""


_SHOUTED = re.compile(r"\b[^\W\d_]{2,}\b")


def _said(value: Param) -> str:
    """A value in the language in use, as a sentence: the OLED's headlines in capitals
    ("NOT ALLOWED", "YELLOW PLACES 3") are said as words, never spelled letter by letter."""
    text = i18n.render(value).strip()
    text = _SHOUTED.sub(lambda m: m[0].lower() if m[0].isupper() else m[0], text)
    return text[:1].upper() + text[1:]


def sentence(*parts: Param) -> str:
    """Parts said one after another, each ending like a sentence (espeak-ng pauses there)."""
    out = []
    for part in parts:
        text = _said(part)
        if text:
            out.append(text if text[-1] in ".!?:;" else text + ".")
    return " ".join(out)


class Narrator:
    """Watches one ``Companion`` (``host``) and speaks through ``voice``."""

    def __init__(self, host: Any, voice: Voice) -> None:
        self.host = host
        self.voice = voice
        self.game: Game = host.game
        self.game_key = self._game_key()
        self.seen_ply = len(self.game.history)
        self.turn: tuple[int, str] | None = None
        self.message: U.Message | None = None
        self.mismatch: U.Mismatch | None = None
        self.proposal: tuple[int, Any] | None = None
        self.lesson: tuple[Any, ...] | None = None
        self.screen: tuple[str, ...] = ()
        self.troubles = 0
        self.serial = 0
        self.epoch = 0  # an undo or a new game: the same ply is a new decision
        self._started = False
        self.broken = False

    # -- keys -------------------------------------------------------------------------------

    def _game_key(self) -> str:
        journal = getattr(self.host, "journal", None)
        game_id = journal.game_id if journal is not None and journal.game_id else None
        return game_id or f"seed{self.host.game.seed}"

    def _key(self, what: str, ply: int | None = None) -> str:
        ply = self.seen_ply if ply is None else ply
        return f"{self.game_key}/{self.epoch}/{ply}/{what}"

    def _say(self, key: str, text: str, priority: int = EVENT, **kw: Any) -> None:
        if text:
            self.voice.say(Utterance(key, text, i18n.current(), priority, **kw))

    # -- the look ---------------------------------------------------------------------------

    def observe(self) -> bool:
        """Say what is new; True when it changed the panel (a note that the voice is quiet),
        so the caller draws again. Never raises: a bug here silences the voice (one log line)
        and the game goes on."""
        if self.broken:
            return False
        try:
            return self._observe()
        except Exception:
            self.broken = True
            log.exception("speech: the narrator failed; the game goes on silently")
            self.voice.set(Settings("off", self.voice.settings.volume))
            return False

    def _observe(self) -> bool:
        changed = self._troubles()
        if self.voice.silent:
            self._catch_up()
            return changed
        host = self.host
        if not self._started:
            self._started = True
            self._say(self._key("start"), sentence(S.resumed(host.game, self.seen_ply)))
            self.turn = (host.game.decider, host.game.phase)
        if host.keeper.unsaved is None:  # only what the journal holds is said
            self._decisions()
        panel = host.panel
        self._message(panel.message)
        self._mismatch(panel.mismatch)
        self._turn()
        self._proposal(panel.chooser)
        self._lesson()
        self._screen()
        return changed

    def _catch_up(self) -> None:
        """Silent: follow the game without saying it, so switching on says only what is new."""
        host = self.host
        if host.keeper.unsaved is None:
            self.game, self.seen_ply = host.game, len(host.game.history)
        self.message, self.mismatch = host.panel.message, host.panel.mismatch
        self._started = True

    def _troubles(self) -> bool:
        """A new reason why the voice is quiet: once on the OLED (the log has it already)."""
        troubles = self.voice.troubles
        if len(troubles) == self.troubles:
            return False
        latest = troubles[-1]
        self.troubles = len(troubles)
        language = i18n.NAMES.get(latest.language, latest.language)
        self.host.show(S.NO_SOUND, S.trouble(latest.kind, language), refusal=False)
        self.message = self.host.panel.message  # not said: the voice is the trouble
        return True

    def _decisions(self) -> None:
        host = self.host
        game = host.game
        history = game.history
        if game is self.game:
            return
        key = self._game_key()
        if key != self.game_key or history[: self.seen_ply] != self.game.history[: self.seen_ply]:
            # Another game, or an undo (its note says what was taken back): start from here.
            new = key != self.game_key
            self.game_key, self.game, self.seen_ply = key, game, len(history)
            self.epoch += 1
            if new:
                self._say(self._key("new"), sentence(S.resumed(game, 0)))
                self.turn = (game.decider, game.phase)
            return
        if len(history) < self.seen_ply:
            self.game, self.seen_ply = game, len(history)
            return
        replay = self.game.clone()
        for ply in range(self.seen_ply, len(history)):
            code = history[ply]
            before, mover = replay.clone(), replay.decider
            events = list(replay.apply(code))
            self._decision(before, mover, code, events, ply + 1)
        self.game, self.seen_ply = game, len(history)

    def _decision(self, before: Game, mover: int, code: int, events: list, ply: int) -> None:
        shown = [e for e in events if not isinstance(e, Ended)]
        long = moves.describe_move(before, mover, code, shown)
        full = sentence(*long)
        short = S.short_decision(before, mover, code, shown)
        settings = self.voice.settings
        if settings.verbosity == "everything" or short is None:
            said = full
        else:
            important: list[Any] = [e for e in shown if isinstance(e, EVERY_EVENT)]
            said = sentence(short, *moves.event_lines(before, important, told=mover))
        self._say(self._key("decision", ply), said, EVENT, full=full)
        ended = next((e for e in events if isinstance(e, Ended)), None)
        if ended is not None:
            result = sentence(moves.result_sentence(ended.result))
            self._say(self._key("result", ply), result, EVENT)

    def _message(self, message: U.Message | None) -> None:
        if message is None or message is self.message:
            self.message = message
            return
        self.message = message
        where = S.where(message.beaches)
        text = sentence(message.title, message.text, where)
        priority = ALERT if message.refusal else EVENT
        self.serial += 1
        self._say(self._key(f"note{self.serial}"), text, priority)

    def _mismatch(self, mismatch: U.Mismatch | None) -> None:
        if mismatch is None or mismatch == self.mismatch:
            self.mismatch = mismatch
            return
        self.mismatch = mismatch
        text = sentence(
            mismatch.headline, mismatch.reason, *mismatch.fixes, S.where(mismatch.beaches)
        )
        self.serial += 1
        priority = ALERT if mismatch.refusal else EVENT
        self._say(self._key(f"board{self.serial}"), text, priority)

    def _turn(self) -> None:
        game = self.host.game
        if game.phase == OVER:
            return
        now = (game.decider, game.phase)
        if now == self.turn:
            return
        changed_player = self.turn is None or now[0] != self.turn[0]
        self.turn = now
        if self.host.seat.plays(game):
            if changed_player:
                self._say(self._key("turn"), sentence(S.companions_turn(game)))
            return
        if changed_player:
            self._say(self._key("turn"), sentence(S.turn(game)))
        elif self.voice.settings.verbosity == "everything":
            self._say(self._key(f"phase{game.phase}"), sentence(S.turn(game)), level="everything")

    def _proposal(self, chooser: U.Chooser | None) -> None:
        """The solo companion's (or the remote player's) decision for the players to carry
        out: said once when it appears."""
        if chooser is None or chooser.kind != U.PROPOSAL or not chooser.options:
            return
        option = chooser.options[0]
        seen = (self.seen_ply, option.value)
        if seen == self.proposal:
            return
        self.proposal = seen
        text = sentence(chooser.title, option.detail or option.label)
        self._say(self._key("proposal"), text, EVENT)

    def _lesson(self) -> None:
        lesson = self.host.lesson
        view = lesson.view() if lesson is not None else None
        if view is None:
            self.lesson = None
            return
        step = (view.number, view.kind, view.say)
        if step == self.lesson or not view.showing:
            return
        self.lesson = step
        title = i18n.pgettext(view.context, view.title)
        words = i18n.pgettext(view.context, view.say)
        self.serial += 1
        priority = ALERT if view.kind in ("hint", "refused") else EVENT
        self._say(self._key(f"lesson{self.serial}"), sentence(title, words), priority)

    def _screen(self) -> None:
        """``everything``: the OLED read aloud whenever its words change; on a list only the
        line under the cursor once the title was said."""
        if self.voice.settings.verbosity != "everything":
            return
        host = self.host
        now = host.clock()
        shown = oled.whole(host.game, host.ui_state(now), now)
        lines = tuple(shown.text())
        if lines == self.screen:
            return
        before, self.screen = self.screen, lines
        if shown.cursor is not None and shown.cursor < len(shown.lines):
            pick: list[str] = [shown.lines[shown.cursor]]
        elif shown.cards and shown.selected is not None:
            card = shown.cards[shown.selected]
            pick = [f"{card.slot} {card.name}" + (f" ({card.values})" if card.values else "")]
        else:  # a text wrapped to the panel's width: one sentence again
            pick = [" ".join(line.replace("\t", " ").strip() for line in shown.lines)]
        if not before or before[0] != lines[0]:
            pick = [shown.title.lstrip("!• "), *pick]
        self.serial += 1
        text = sentence(*(line.replace("\t", " ") for line in pick))
        self._say(f"screen/{self.serial}", text, DETAIL, level="everything", channel="screen")

    # -- the actions the menu offers ---------------------------------------------------------

    def repeat(self) -> None:
        if not self.voice.repeat():
            self._say(self._key(f"nothing{self.serial}"), sentence(S.NOTHING_TO_REPEAT), ALERT)


def spoken_text(value: Text) -> str:
    """``value`` as the narrator says it (tests, the bench)."""
    return sentence(value)
