"""English text in the language in use, by catalog lookup: ``tr("red takes 2a (Shell)")``
gives ``"Rot nimmt 2a (Muschel)"``.

The companion keeps its state in English (the OLED's message, a chooser's lines, the log a
window shows) so that logs and tests read one language; each front-end translates at its
edge, where text meets pixels or the terminal. Text made from a marked template
(``N_("{colour} takes {slot} ({card})").format(...)``) is matched against every template of
the catalog; the template is translated and the values it was filled with are translated
the same way (a colour, a card's name), numbers and notation stay as they are.

Matching is anchored and prefers the template with the most literal text, so a generic
template never wins over a specific one; text no template matches is shown as it is.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache, lru_cache

from haleakala import i18n
from haleakala.rules.deck import BOARD_ITEMS

GENERIC = 12
"""A template with less literal text than this (``{colour}: {words}``, ``{a} wins``) is
generic: it matches only when every value it captures is itself known to the catalog."""
MAX_DEPTH = 8
"""Values inside values (a headline inside a proposal inside a message) nest this deep."""


@dataclass(frozen=True)
class _Template:
    msgid: str
    plural: str | None
    pattern: re.Pattern[str]
    literal: int  # characters of literal text: more is more specific


def tr(text: str) -> str:
    """``text`` in the language in use (unchanged in English, or when nothing matches)."""
    if i18n.current() == i18n.DEFAULT or not text:
        return text
    return _translate(i18n.current(), text, 0)


@lru_cache(maxsize=8192)
def _translate(language: str, text: str, depth: int) -> str:
    index = _index(language)
    if text in index.exact:
        return i18n._(text)
    if text in index.said:  # already in the language: a translation is never translated again
        return text
    if depth < MAX_DEPTH:
        for template in index.templates:
            match = template.pattern.match(text)
            if not match or any(v != v.strip() for v in match.groupdict().values()):
                continue  # (a value never starts or ends with a space: "Cartes\u00a0: …" is
                # French already, not "{colour}: {words}")
            generic = template.literal < GENERIC
            if not all(
                _known(language, index, v, depth)
                for v in match.groupdict().values()
                if generic or " " in v
            ):
                # "{colour} wins" must not turn "the hint 2@1 wins …" into a mix, nor
                # "{who} places {value} on beach {beach}" swallow "0 – the boat sails to 3"
                continue
            return _fill(language, template, match.groupdict(), depth)
    if text.strip() != text:  # keep the surrounding spaces, translate the words
        inner = text.strip()
        lead = text[: len(text) - len(text.lstrip())]
        return lead + _translate(language, inner, depth) + text[len(lead) + len(inner) :]
    words = text.split(" ")
    if len(words) > 1 and all(w in index.exact or _is_code(w) for w in words):
        return " ".join(w if _is_code(w) else i18n._(w) for w in words)  # "red 3", "2F forest"
    if len(words) > 1 and _is_code(words[-1]):  # "FINAL SCORES 1/2": the page stays
        head = " ".join(words[:-1])
        done = _translate(language, head, depth)
        if done != head:
            return f"{done} {words[-1]}"
    if text.isupper() and any(c.isalpha() for c in text):  # "FOREST STATUES", "RED"
        english = index.folded.get(text.casefold(), text.lower())
        done = _translate(language, english, depth)
        if done != english:
            return done.upper()
    if text[:1].isupper() and (text[1:2].islower() or text[1:2] == " "):  # "Red wins", "A …"
        tail = text[0].lower() + text[1:]
        done = _translate(language, tail, depth)
        if done != tail:
            return done[:1].upper() + done[1:]
    return text


def _fill(language: str, template: _Template, values: dict[str, str], depth: int) -> str:
    said = {
        k: v if _is_number(v) or _is_notation(v) else _translate(language, v, depth + 1)
        for k, v in values.items()
    }
    if template.plural is not None:
        count = next((int(v) for k, v in values.items() if k in ("n", "count") and v.isdigit()), 1)
        form = i18n.ngettext(template.msgid, template.plural, count)
    else:
        form = i18n._(template.msgid)
    try:
        return form.format(**said)
    except (KeyError, IndexError, ValueError):  # a translation the catalog test would refuse
        return form


NOTATION = frozenset({"buy", "take", "lava", "boat", "keep", "pass", "none", *BOARD_ITEMS})
"""The words of the decision notation (``buy forest``, ``take 2a``, ``lava none``): a player
types them as they are, in every language."""
NOTATION_VERBS = frozenset({"buy", "take", "lava", "boat", "keep", "pass"})
"""A decision's text starts with one of these (or is a code such as ``3@2``): ``mountain 0M``
is a place in words, not notation, though ``mountain`` is also a board item."""


def _known(language: str, index: _Index, value: str, depth: int) -> bool:
    """Is ``value`` something the catalog speaks (a message, a translation, text a template
    makes), a number, or notation? Generic templates fill only with such values."""
    if _is_code(value) or value in index.exact or value in index.said:
        return True
    if _is_notation(value):
        return True
    return _translate(language, value, depth + 1) != value


def _is_notation(value: str) -> bool:
    """A decision as a player types it (``buy forest``, ``take 2a``, ``3@2``): never
    translated, whatever words it shares with the game's terms."""
    words = value.split()
    if len(words) == 1:
        return _is_code(value)
    return (
        len(words) > 1
        and words[0] in NOTATION_VERBS
        and all(_is_code(w) or w in NOTATION for w in words)
    )


def _is_code(word: str) -> bool:
    """A number or a piece of notation (``3``, ``2F``, ``1a``, ``3@2``): the same in every
    language."""
    return " " not in word and (any(c.isdigit() for c in word) or word[:1] in (">", "-"))


def _is_number(value: str) -> bool:
    return bool(re.fullmatch(r"[-+]?\d+([.,]\d+)?", value))


class _Index:
    def __init__(self, templates: list[_Template], exact: set[str], said: set[str]) -> None:
        self.exact = exact
        self.said = said - exact
        self.folded = {msgid.casefold(): msgid for msgid in exact}
        self.templates = sorted(templates, key=lambda t: -t.literal)


@cache
def _index(language: str) -> _Index:
    """Every message of the language's compiled catalog: plain ones for a dictionary lookup,
    ones with placeholders as anchored patterns."""
    from babel.messages.mofile import read_mo  # at first use: see ``i18n.number``

    with i18n.mo_path(language).open("rb") as fp:
        catalog = read_mo(fp)
    templates: list[_Template] = []
    exact: set[str] = set()
    said: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        strings = message.string
        said.update([strings] if isinstance(strings, str) else list(strings or ()))
        if message.context:  # asked for by pgettext with its context, never by its words:
            continue  # a lesson's "SCORING" must not turn "SCORING 1 1/2" into English
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        plural = ids[1] if len(ids) > 1 else None
        for form in ids:
            compiled = _pattern(form)
            if compiled is None:
                exact.add(form)
            else:
                templates.append(_Template(ids[0], plural, *compiled))
    return _Index(templates, exact, said)


def _pattern(msgid: str) -> tuple[re.Pattern[str], int] | None:
    """An anchored pattern for a template with placeholders (None: it has none), and how
    much literal text it has. A template of placeholders alone matches nothing."""
    try:
        parts = list(string.Formatter().parse(msgid))
    except ValueError:
        return None
    if all(field is None for _, field, _, _ in parts):
        return None
    regex, seen, literal = "", set(), 0
    for text, field, _, _ in parts:
        regex += re.escape(text)
        literal += len(text.strip())
        if field is None:
            continue
        name = re.sub(r"\W", "_", field) or "_0"
        if name in seen:
            regex += f"(?P={name})"
        else:
            seen.add(name)
            regex += f"(?P<{name}>.+?)"
    if literal == 0:
        return None
    return re.compile(f"^{regex}$", re.DOTALL), literal


def forget() -> None:
    """Drop the indexes and cached translations (after the catalogs were recompiled)."""
    _index.cache_clear()
    _translate.cache_clear()
