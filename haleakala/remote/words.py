"""What the board of a remote game says, as ``Text`` values (made here, rendered at the OLED
in the table's language): the remote player named as remote, the waits for the host, a
divergence and its reason, the refusals of undo and a new game.

Why values: two tables of one game may read two languages, and the reasons travel between
the kit's thread and the board's; a value is translated once, where it is shown.
"""

from __future__ import annotations

from haleakala.core.text import N_, Param, Term, Text

Note = tuple[Text, Text]
"""A message on the OLED: its title and its text."""

DIVERGED = Text(N_("DIVERGED"))
REMOTE_TITLES = {"red": Text(N_("RED (REMOTE)")), "yellow": Text(N_("YELLOW (REMOTE)"))}


def remote_title(colour: str) -> Text:
    """The title over the remote player's decision (not "COMPANION (YELLOW)")."""
    return REMOTE_TITLES[colour]


def waiting_for(colour: str) -> Text:
    """While the remote player has not decided yet (not "is thinking")."""
    return Text.of(N_("waiting for {colour}'s move"), colour=Term(colour))


def not_decided_yet(colour: str) -> Text:
    """The board touched while the remote player has not decided (not "the companion")."""
    return Text.of(
        N_("{colour} has not decided yet at the other table: leave the board as it was"),
        colour=Term(colour),
    )


def carry_out(colour: str, instruction: Param) -> Text:
    """The board touched otherwise than the remote player's decision says."""
    return Text.of(
        N_("{colour} played at the other table: {instruction}"),
        colour=Term(colour),
        instruction=instruction,
    )


def not_legal_here(seq: int, decision: str) -> Text:
    """The agreed game's decision cannot be made on this board's game."""
    return Text.of(
        N_("decision {seq} of the agreed game ({decision}) is not legal on this board"),
        seq=seq,
        decision=decision,
    )


def unreadable(seq: int, decision: str) -> Text:
    return Text.of(
        N_("decision {seq} of the agreed game ({decision}) cannot be read on this board"),
        seq=seq,
        decision=decision,
    )


def never_came(seq: int) -> Text:
    return Text.of(N_("decision {seq} never came: the remote game was closed"), seq=seq)


def behind(board: int, agreed: int) -> Note:
    """The board's game is not at the agreed game's place: nothing was sent."""
    return DIVERGED, Text.of(
        N_("this board has {board} decisions, the agreed game {agreed}: nothing was sent"),
        board=board,
        agreed=agreed,
    )


def other_position(agreed: int) -> Note:
    """The board's position is not the agreed one: nothing was sent."""
    return DIVERGED, Text.of(
        N_("this board's position is not the agreed game's after decision {agreed}: nothing "
           "was sent"),
        agreed=agreed,
    )  # fmt: skip


def unasked(seq: int, decision: str) -> Note:
    """An agreed decision of this seat that this board never sent."""
    return DIVERGED, Text.of(
        N_("the agreed game's decision {seq} ({decision}) was not made at this board"),
        seq=seq,
        decision=decision,
    )


def sent(decision: str) -> Note:
    return Text(N_("SENT")), Text.of(
        N_("{decision} is sent: it counts once the host agrees"), decision=decision
    )


def still_sending(decision: str) -> Note:
    return Text(N_("SENT")), Text.of(
        N_("{decision} is still waiting for the host's answer"), decision=decision
    )


def refused(decision: str, reason: str) -> Note:
    """The host's refusal; its reason is the host's sentence as it came over the wire."""
    return Text(N_("REFUSED")), Text.of(
        N_("the host refused {decision}: {reason}"), decision=decision, reason=reason
    )


def played_elsewhere(colour: str) -> Note:
    """A decision of another seat taken at this board: never sent."""
    return Text(N_("NOT YOURS")), Text.of(
        N_("{colour} plays at the other table: this board does not decide for them"),
        colour=Term(colour),
    )


def no_undo() -> Note:
    return Text(N_("NO UNDO")), Text(
        N_("Both tables agreed on every decision of this remote game: none is taken back.")
    )


def no_new_game() -> Note:
    return Text(N_("NO NEW GAME")), Text(
        N_("A remote game goes on until it is over; then start the next one with run --remote.")
    )
