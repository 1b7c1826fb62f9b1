"""What the OLED offers to choose: the menu, the score pages and every decision chooser.

Each function builds one ``ui.Chooser`` (title and lines, with the value selecting a line
does) from the game and the settings; none changes anything. The controller opens them and
acts on the value selected. With ``words.labels`` this is where the kit's player-facing
lines live, so the languages work finds them in two places.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from haleakala import i18n, palette
from haleakala.core.text import Param, Term, Text, Upper
from haleakala.games.haleakala import PLAYERS, VARIANTS, Game
from haleakala.games.haleakala.decision import Boat, Place, Return, decode, encode
from haleakala.games.haleakala.words import labels
from haleakala.games.haleakala.words import notes as N
from haleakala.games.haleakala.words import speech as SW
from haleakala.i18n import N_

from . import ui as U

if TYPE_CHECKING:
    from haleakala.games.haleakala.bots.coach import Hint
    from haleakala.games.haleakala.scoring import Scoring
    from haleakala.speech.settings import Settings

    from .host import Host, LiveView

log = logging.getLogger("haleakala.companion")

SCORE_PAGES = 5
"""A score page chooser has this many pages the encoder turns through: enough for every
point row (10 rows, 2 a page beside the header, the scoring's sum and the total)."""


def _who(game: Game) -> Upper:
    return Upper(Term(PLAYERS[game.decider]))


def main_menu(
    game: Game,
    sources: Sequence[str],
    variant: str,
    solo: str | None,
    strength: str,
    cursor: int = 0,
    live: tuple[Param, str] | None = None,
    speech: Settings | None = None,
) -> U.Chooser:
    """Back at a turn start: resume, undo the last decision of a player, a new game, the
    variant, solo mode and its strength, a hint, the last scoring and, when the live view
    runs, its joining page (``live``: the entry's label and value, ``web.join.menu_option``).
    A kit that speaks (``speech``: its settings) offers repeat, the voice and the volume
    right after resume, where a player who cannot read the panel finds them first."""
    options = [U.Option(Text(N_("resume")), "resume")]
    if speech is not None:
        options.append(U.Option(SW.REPEAT, "repeat"))
        options.append(U.Option(SW.voice_option(speech.verbosity), "voice"))
        options.append(U.Option(SW.volume_option(speech.volume), "volume"))
    players = [i for i, s in enumerate(sources) if s == "player"]
    if players:
        d = game.history[players[-1]]
        options.append(U.Option(Text.of(N_("undo {decision}"), decision=game.format(d)), "undo"))
    options.append(U.Option(Text.of(N_("new game ({variant})"), variant=Term(variant)), "new"))
    options.append(U.Option(Text.of(N_("variant: {variant}"), variant=Term(variant)), "variant"))
    solo_label = (
        Text.of(N_("companion: {colour}"), colour=Term(solo))
        if solo
        else Text(N_("companion: off"))
    )
    options.append(U.Option(solo_label, "solo"))
    options.append(
        U.Option(Text.of(N_("strength: {strength}"), strength=Term(strength)), "strength")
    )
    language = i18n.NAMES[i18n.current()]  # each language by its own name: not translated
    options.append(U.Option(Text.of(N_("language: {language}"), language=language), "language"))
    colours = Term(palette.NAMES[palette.current()])  # a word for the mode the lights are in
    options.append(U.Option(Text.of(N_("colours: {mode}"), mode=colours), "colours"))
    if not game.is_terminal() and game.to_move != solo:
        options.append(U.Option(Text(N_("hint")), "hint"))
    if game.scorings:
        options.append(U.Option(Text(N_("scores")), "scores"))
    if live is not None:
        options.append(U.Option(*live))
    return U.Chooser(U.MENU, Text(N_("MENU")), tuple(options), cursor % len(options))


JOIN_TITLE = Text(N_("LIVE VIEW"))


def join_page(live: LiveView) -> U.Chooser:
    """The live view's joining page: the QR code of its URL and the URL in text, one ready
    128×64 image (its bytes are the chooser's subject; the OLED shows them as they are)
    until a button is pressed. The live view draws it (``join_picture``), so the companion
    imports nothing of the web."""
    url = live.url
    return U.Chooser(U.JOIN, JOIN_TITLE, (U.Option(url, "menu"),), 0, live.join_picture())


def confirm_new(variant: str) -> U.Chooser:
    return U.Chooser(
        U.CONFIRM_NEW,
        Text(N_("NEW GAME?")),
        (
            U.Option(Text(N_("no, go back")), "no"),
            U.Option(Text.of(N_("yes, {variant} game"), variant=Term(variant)), "yes"),
        ),
    )


def score_pages(scoring: Scoring, title: Text) -> U.Chooser:
    """A scoring's breakdown (one of the game's ``scorings``), page by page."""
    page = U.Option(Text(N_("page")), "page")
    return U.Chooser(U.SCORES, title, (page,) * SCORE_PAGES, 0, scoring)


FINAL_SCORES = Text(N_("FINAL SCORES"))
"""The title of the last score page (the game's result)."""


def scoring_title(number: object) -> Text:
    """The title of a scoring's page: ``SCORING 1``."""
    return Text.of(N_("SCORING {n}"), n=number if isinstance(number, int) else str(number))


def boat_question(game: Game) -> U.Chooser:
    """Select at a turn start: move the boat (action 3)? Yes or no."""
    yes = labels.boat_option_label(game, asking=True)
    return U.Chooser(
        U.BOAT,
        Text.of(N_("{colour}: BOAT?"), colour=_who(game)),
        (U.Option(yes, encode(Boat())), U.Option(Text(N_("no")), "cancel")),
    )


def forced_boat(game: Game, d: int) -> U.Chooser:
    """The only legal decision is moving the boat: shown, it applies itself."""
    return U.Chooser(
        U.BOAT,
        Text.of(N_("{colour}: MOVE BOAT"), colour=_who(game)),
        (U.Option(labels.boat_option_label(game, asking=False), d),),
        cancellable=False,
    )


def beach_chooser(game: Game, beach: int) -> U.Chooser | None:
    """Buttons kit: the discs that may be placed on ``beach`` (plain, then with the
    invocation disc) and taken back from it; None when there is none."""
    placements: list[U.Option] = []
    invocations: list[U.Option] = []
    returns: list[U.Option] = []
    for d in game.legal_actions():
        move = decode(d, game.board)
        if not isinstance(move, Place | Return) or move.beach != beach:
            continue
        option = U.Option(labels.beach_option_label(move), d)
        if isinstance(move, Return):
            returns.append(option)
        else:
            (invocations if move.invoke else placements).append(option)
    options = placements + invocations + returns
    if not options:
        return None
    title = Text.of(N_("{colour}: BEACH {beach}"), colour=_who(game), beach=beach)
    return U.Chooser(U.BEACH, title, tuple(options), 0, beach)


def why_not_beach(game: Game, beach: int) -> Param:
    """Why no disc may go onto or leave ``beach`` now, in the rules' words."""
    p = game.decider
    supply = [v for v in game.board.discs if game.disc_at[p][v] < 0]
    if supply:
        refusal = game.refusal(encode(Place(supply[0], beach)))
        return refusal.words if refusal else Text(N_("no disc may go there now"))
    mine = [v for v in game.board.discs if game.disc_at[p][v] == beach]
    if mine:
        refusal = game.refusal(encode(Return(mine[0], beach)))
        return refusal.words if refusal else Text(N_("no disc may leave it now"))
    return Text.of(
        N_("all {colour}'s discs are on the island and none on beach {beach}"),
        colour=Term(PLAYERS[p]),
        beach=beach,
    )


def decision_chooser(game: Game, legal: Sequence[int]) -> U.Chooser:
    """Shaman destination, card, Lava Priestess, shell, pre-scoring purchase: the legal
    options, the "do nothing" ones first."""
    first: list[U.Option] = []
    rest: list[U.Option] = []
    for d in legal:
        label, leads = labels.option_label(game, d)
        (first if leads else rest).append(U.Option(label, d))
    return U.Chooser(
        U.DECISION,
        Text.of(
            N_("{colour}: {what}"), colour=_who(game), what=Text(labels.PHASE_TITLES[game.phase])
        ),
        tuple(first + rest),
        cancellable=False,
    )


def proposal(game: Game, d: int | None, kit: str) -> U.Chooser:
    """Solo: the companion's decision and what the players do about it (no line while its
    bot still thinks)."""
    title = Text.of(N_("COMPANION ({colour})"), colour=_who(game))
    if d is None:
        return U.Chooser(U.PROPOSAL, title, (), cancellable=False)
    headline, how = labels.proposal_words(game, d, kit)
    detail = Text.of(N_("{headline} - {how}"), headline=headline, how=how) if how else headline
    return U.Chooser(U.PROPOSAL, title, (U.Option(game.format(d), d, detail),), cancellable=False)


SCORES_S = 120.0
"""A score page stays until select (or back) dismisses it, or this long."""


class Menus:
    """The overlays over the decision: the menu, the new-game question and score pages.

    Back opens the menu at a turn start; select acts on its line (resume, undo, new game,
    variant, solo seat and strength, a hint, the last scoring). A score page closes itself
    after ``SCORES_S``; closing any overlay restarts a countdown it hid.
    """

    def __init__(self, host: Host) -> None:
        self.host = host
        self.given: Hint | None = None  # the coach's latest hint, judged at the next decision
        self.teacher: U.Teacher | None = None  # the lessons on offer (haleakala.learn installs)

    def open(self, cursor: int = 0, on: object = None) -> None:
        """The menu, the cursor on line ``cursor`` (or on the line whose value is ``on``)."""
        h = self.host
        live = None
        if h.live_view is not None:
            live = h.live_view.menu_option()
        speech = h.narrator.voice.settings if h.narrator is not None else None
        chooser = main_menu(
            h.game, h.sources, h.variant, h.seat.colour, h.seat.strength, cursor, live, speech
        )
        if self.teacher is not None:  # learn to play, or the way out of a lesson
            learn = (
                U.Option(Text(N_("leave the lesson")), "leave_lesson")
                if h.lesson is not None
                else U.Option(Text(N_("learn to play")), "learn")
            )
            options = (*chooser.options, learn)
            chooser = replace(chooser, options=options, cursor=cursor % len(options))
        values = [o.value for o in chooser.options]
        if on in values:
            chooser = replace(chooser, cursor=values.index(on))
        h.panel = replace(h.panel, overlay=chooser)

    def scores(self, scoring: Scoring, title: Text) -> None:
        h = self.host
        h.panel = replace(
            h.panel, overlay=score_pages(scoring, title), overlay_until=h.clock() + SCORES_S
        )

    def expires(self) -> float | None:
        """When the score page on the OLED closes by itself (None: no score page)."""
        overlay = self.host.panel.overlay
        if overlay is not None and overlay.kind == U.SCORES:
            return self.host.panel.overlay_until
        return None

    def close(self) -> None:
        h = self.host
        now = h.clock()
        h.panel = replace(h.panel, overlay=None, overlay_until=None)
        if h.panel.auto_at is not None and h.panel.auto_at < now:
            h.panel = replace(h.panel, auto_at=now + h.auto_s)  # the countdown starts again
        if h.seat.bot_at is not None and h.seat.bot_at < now:
            h.seat.bot_at = now + h.seat.show_s

    def back(self) -> None:
        """Back on an overlay: the new-game question and the live view's joining page
        return to the menu, else it closes."""
        overlay = self.host.panel.overlay
        if overlay is not None and overlay.kind == U.CONFIRM_NEW:
            self.open()
        elif overlay is not None and overlay.kind == U.JOIN:
            self.open(on="live")
        else:
            self.close()

    def select(self) -> None:
        """Select on an overlay: act on the line under the cursor."""
        h = self.host
        overlay = h.panel.overlay
        assert overlay is not None
        if overlay.kind == U.SCORES:
            self.close()
            return
        if overlay.kind == U.JOIN:  # seen (or scanned): back to the menu, on its line
            self.open(on="live")
            return
        value = overlay.current.value if overlay.current else None
        if overlay.kind == U.CONFIRM_NEW:
            if value == "yes":
                h.panel = replace(h.panel, overlay=None)
                h.new_game()
            else:
                self.open()
            return
        if value == "resume":
            self.close()
        elif value in ("repeat", "voice", "volume") and h.narrator is not None:
            self.speech(value, overlay.cursor)
        elif value == "undo":
            h.panel = replace(h.panel, overlay=None)
            h.undo()
        elif value == "new":
            h.panel = replace(h.panel, overlay=confirm_new(h.variant))
        elif value == "variant":
            h.variant = VARIANTS[(VARIANTS.index(h.variant) + 1) % len(VARIANTS)]
            self.open(overlay.cursor)
        elif value in ("solo", "strength"):
            if value == "solo":
                h.seat.next_colour()
            else:
                h.seat.next_strength()
            log.info(
                "solo: the companion plays %s (%s)", h.seat.colour or "nobody", h.seat.strength
            )
            h.seat.record(h.journal)
            h.seat.forget()
            self.open(overlay.cursor)
            h.refresh()
        elif value == "language":
            self.next_language()
            self.open(overlay.cursor)
            h.refresh()
        elif value == "colours":
            self.next_colours()
            self.open(overlay.cursor)
            h.refresh()
        elif value == "scores" and h.game.scorings:
            self.scores(h.game.scorings[-1], scoring_title(len(h.game.scorings)))
        elif value == "live" and h.live_view is not None:
            h.panel = replace(h.panel, overlay=join_page(h.live_view))
        elif value == "hint" and not h.game.is_terminal():
            h.panel = replace(h.panel, overlay=None)
            self.hint()
        elif value == "learn" and self.teacher is not None:
            self.teacher.offer(h)
        elif value == "leave_lesson" and h.lesson is not None:
            h.panel = replace(h.panel, overlay=None)
            h.lesson.leave(h)
        elif isinstance(value, str) and value.startswith("lesson:") and self.teacher is not None:
            h.panel = replace(h.panel, overlay=None)
            self.teacher.start(h, value.removeprefix("lesson:"))

    def after_decision(self, d: int, by: str, ply: int) -> None:
        """A decision was made at ``ply``: the coach's hint given for it is judged, and a
        lesson on the board moves on (its other side replies)."""
        h = self.host
        hint, self.given = self.given, None
        if hint is not None and by == "player" and hint.ply == ply:
            from haleakala.games.haleakala.bots.coach import judge

            log.info("hint judged: %s", judge(hint, d))
            h.show(*N.hint_judged(judge(hint, d)), refusal=False)
        if h.lesson is not None:
            h.lesson.decided(h, d, by)

    def next_language(self) -> None:
        """The next language of the companion (en, de, fr), kept in the journal so that a
        restart speaks it again; a language whose catalog is not compiled is said, not used."""
        h = self.host
        languages = i18n.LANGUAGES
        language = languages[(languages.index(i18n.current()) + 1) % len(languages)]
        try:
            i18n.use(language)
        except i18n.CatalogNotCompiled as exc:
            log.error("%s", exc)
            h.show(
                Text(N_("NO CATALOG")),
                Text.of(
                    N_("This language is not installed: {language}."),
                    language=i18n.NAMES[language],
                ),
            )
            return
        log.info("language: %s", language)
        if h.journal is not None:
            h.journal.append_language(language)

    def speech(self, value: str, cursor: int) -> None:
        """Repeat the last thing said (the menu closes, so it is heard over nothing), or the
        next verbosity or volume, kept in the journal like the language."""
        h = self.host
        narrator = h.narrator
        assert narrator is not None
        if value == "repeat":
            self.close()
            narrator.repeat()
            return
        voice = narrator.voice
        settings = voice.settings
        settings = settings.next_verbosity() if value == "voice" else settings.next_volume()
        voice.set(settings)
        log.info("speech: %s, volume %d %%", settings.verbosity, settings.volume)
        if h.journal is not None:
            h.journal.append_speech(settings.to_record())
        self.open(cursor)

    def next_colours(self) -> None:
        """The next colour mode of the lights and screens (default, cvd), kept in the journal
        so that a restart lights the board in it again."""
        h = self.host
        mode = palette.use(palette.next_mode())
        log.info("colours: %s", mode)
        if h.journal is not None:
            h.journal.append_palette(mode)

    def hint(self) -> None:
        """The coach's decision for the player to move, its reason on the OLED and in the
        log (a ``hint`` record of NOTATION.md); judged when the player decides."""
        from haleakala.games.haleakala.bots.coach import BOARD_HINT_ITERATIONS, advise

        h = self.host
        hint = advise(h.game, iterations=BOARD_HINT_ITERATIONS, seed=len(h.game.history))
        self.given = hint
        log.info("hint: %s", hint.record())
        h.show(*N.hint(hint.notation, hint.reason), refusal=False)
