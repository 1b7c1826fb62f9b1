"""Words as values: a ``Text`` is a catalog message id (its English template) and the
parameters that fill it, made where the event or refusal is made and rendered at the screen
in the viewer's language.

A table and a remote viewer may read different languages, so what the rules say cannot be an
English sentence that a front-end parses back; it is this value, and each screen renders it
(``haleakala.i18n.render``). ``str(text)`` is the English sentence, for logs and tests.

Parameters may nest: a ``Text`` inside a ``Text`` (a refusal's "instead …" clause), a ``Term``
(a word of the game the catalogs translate: a colour, a land, a card's name), an int (written
the language's way) or a plain str (notation such as ``3@2`` or ``take 2a``, the same in every
language). Pure: this module knows no catalog; ``render`` takes the translation functions.

    >>> str(Text.of("{who} takes {slot}", who=Term("red"), slot="2a"))
    'red takes 2a'
    >>> str(Text.count("{n} shell", "{n} shells", 2, n=2))
    '2 shells'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs' extractor without translating it here."""
    return message


class Term(str):
    """A word of the game inside a sentence (a colour, a land, a card's name): English here,
    its catalog entry in the viewer's language when rendered."""

    __slots__ = ()


class Help(Term):
    """The notation's summary inside a sentence: a game term the catalogs translate."""

    __slots__ = ()


Param: TypeAlias = "int | str | Term | Text | Capitalised | Upper"


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence as a value: ``template`` (a catalog msgid with ``{name}`` placeholders),
    ``params`` sorted by name, and for a sentence whose form depends on a count, the
    ``plural`` msgid and the ``number`` that chooses between them (``ngettext``)."""

    template: str
    params: tuple[tuple[str, Param], ...] = ()
    plural: str = ""
    number: int | None = None

    @classmethod
    def of(cls, template: str, **params: Param) -> Text:
        """``template`` (marked ``N_``) filled with ``params``."""
        return cls(template, tuple(sorted(params.items())))

    @classmethod
    def count(cls, singular: str, plural: str, number: int, /, **params: Param) -> Text:
        """The singular or plural form by ``number``, as ``ngettext`` chooses it in the
        viewer's language (French says "0 coquillage", English "0 shells"); the count is
        usually a parameter too (``n=``), but need not be ("lava is on craters {c}")."""
        return cls(singular, tuple(sorted(params.items())), plural, number)

    def __str__(self) -> str:
        return english(self)


@dataclass(frozen=True, slots=True)
class Capitalised:
    """``value`` with its first letter upper case once rendered ("Rot legt 3 …" from the
    term "red"): a sentence starts with a capital in every language."""

    value: Param

    def __str__(self) -> str:
        return english(self)


@dataclass(frozen=True, slots=True)
class Upper:
    """``value`` in capitals once rendered ("GELB LEGT 3 …" from the term "yellow"): the
    OLED's headlines shout, in every language."""

    value: Param

    def __str__(self) -> str:
        return english(self)


def ngettext(singular: str, plural: str, number: int, /, **params: Param) -> Text:
    """``Text.count`` under the name the catalogs' extractor knows for a plural message:
    ``ngettext("{n} shell", "{n} shells", n, n=n)`` is one catalog entry with two forms."""
    return Text.count(singular, plural, number, **params)


def join(parts: Sequence[Param], last: str = N_("{join} or {texts}")) -> Param:
    """``a``, ``a or b``, ``a, b or c`` as one value (``last`` joins the final pair; the
    catalogs hold ``{join} or {texts}`` and ``{first}, {rest}``)."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    head: Param = parts[0]
    for part in parts[1:-1]:
        head = Text.of(N_("{first}, {rest}"), first=head, rest=part)
    return Text.of(last, join=head, texts=parts[-1])


def sentence(value: Param | None) -> Text:
    """Any refusal or message as a ``Text``: a bare English sentence becomes a template of
    its own (shown as it is where no catalog has it)."""
    if isinstance(value, Text):
        return value
    return Text(str(value) if value is not None else "")


def render(
    value: Param,
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    number: Callable[[int], str] = str,
) -> str:
    """``value`` in one language: templates and terms through ``gettext``/``ngettext``,
    ints through ``number``, other strings as they are (notation)."""
    if isinstance(value, Text):
        if value.number is not None and value.plural:
            form = ngettext(value.template, value.plural, value.number)
        else:
            form = gettext(value.template) if value.template else ""
        if not value.params:
            return form
        filled = {k: render(v, gettext, ngettext, number) for k, v in value.params}
        try:
            return form.format(**filled)
        except (KeyError, IndexError, ValueError):  # a translation the catalog check refuses
            return value.template.format(**filled)
    if isinstance(value, Term):
        return gettext(str(value))
    if isinstance(value, Capitalised):
        said = render(value.value, gettext, ngettext, number)
        return said[:1].upper() + said[1:]
    if isinstance(value, Upper):
        return render(value.value, gettext, ngettext, number).upper()
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return number(value)
    return str(value)


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def english(value: Param) -> str:
    """The English sentence (the catalogs' source language): what logs and tests read."""
    return render(value, _same, _english_plural)


def _same(message: str) -> str:
    return message


__all__ = [
    "N_",
    "Capitalised",
    "Param",
    "Term",
    "Text",
    "Upper",
    "english",
    "join",
    "ngettext",
    "render",
    "sentence",
]
