"""The words a player types to talk to the program rather than to the game: ``help``,
``legal``, ``quit``... in English in every language, and beside them the language's own
(``hilfe``, ``aide``), so a German player who types ``hilfe`` gets the help rather than
"'hilfe' is not a decision".

Decisions are notation, the same in every language; these commands are not, so each has a
catalog entry (context "command") whose translation is the local word. A local word never
replaces the English one: both are accepted, and ``help`` lists the local ones.

    >>> from haleakala import i18n
    >>> i18n.use("de")
    'de'
    >>> command("Hilfe"), command("help"), command("4@3")
    ('help', 'help', None)
    >>> i18n.use("en")
    'en'
"""

from __future__ import annotations

from haleakala.i18n import _, pgettext

ENGLISH = (
    "help", "?", "legal", "hint", "board", "map", "undo", "save", "load", "quit", "exit",
    "back",
)  # fmt: skip
"""Every command word, as typed in English (``?`` and ``exit`` are other spellings)."""
SAME = {"?": "help", "exit": "quit"}


def local_words() -> dict[str, str]:
    """The language's own command words (folded) -> the English command; empty in English.
    Looked up in the language in use at each call (the menu may change it)."""
    words = {
        "help": pgettext("command", "help"),
        "legal": pgettext("command", "legal"),
        "hint": pgettext("command", "hint"),
        "board": pgettext("command", "board"),
        "map": pgettext("command", "map"),
        "undo": pgettext("command", "undo"),
        "save": pgettext("command", "save"),
        "load": pgettext("command", "load"),
        "quit": pgettext("command", "quit"),
        "back": pgettext("command", "back"),
    }
    return {local.casefold(): english for english, local in words.items() if local != english}


def command(word: str, allowed: tuple[str, ...] = ENGLISH) -> str | None:
    """The English command that ``word`` (the first word of a typed line, English or local,
    any case) names, if it is one of ``allowed``; else None (a decision, or nothing)."""
    folded = word.casefold()
    english = SAME.get(folded, folded) if folded in ENGLISH else local_words().get(folded)
    if english is None:
        return None
    return english if english in allowed or folded in allowed else None


def local_line(allowed: tuple[str, ...] = ENGLISH) -> str:
    """The local words of the ``allowed`` commands, for the end of a help text ("also in
    German: hilfe = help, …"); empty in English."""
    pairs = [f"{local} = {english}" for local, english in local_words().items()
             if english in allowed]  # fmt: skip
    if not pairs:
        return ""
    return _("The commands in your language too: {words}").format(words=", ".join(pairs))
