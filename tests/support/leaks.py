"""English that reached a German or French player, found by its words: a word of the English
source text that no translation in the language's catalog uses (``gewinnt`` is German,
``decision`` is English). A check that asks the catalog about whole lines finds only lines
the catalog knows; a sentence never marked for translation passes it, this does not."""

from __future__ import annotations

import re
from functools import cache

from haleakala.i18n import catalogs

WORD = re.compile(r"[^\W\d_]{3,}")
"""Words of three letters or more ("the", "disc"); shorter ones ("a", "to") say little."""
NOTATION = {
    "boat", "take", "lava", "none", "buy", "keep", "pass", "stay", "play", "cut", "with",
    "discard", "draw", "pile", "end", "legal", "hint", "help", "board", "hand", "undo",
    "save", "load", "quit", "butterflies", "forest", "majority", "segment", "mountain",
    "priestess", "yellow", "red", "greedy", "random",
}  # fmt: skip
"""What a player types (commands and notation) and the bots' names: the same everywhere."""


@cache
def _spoken(language: str) -> frozenset[str]:
    """Every word the language's catalog writes (its translations), folded."""
    words: set[str] = set()
    for m in catalogs.read(catalogs.po_path(language), language):
        for text in [m.string] if isinstance(m.string, str) else list(m.string or ()):
            words.update(w.casefold() for w in WORD.findall(text or ""))
    return frozenset(words)


@cache
def _english() -> frozenset[str]:
    """Every word of the English source messages, folded."""
    words: set[str] = set()
    for m in catalogs.read(catalogs.TEMPLATE):
        for text in [m.id] if isinstance(m.id, str) else list(m.id):
            words.update(w.casefold() for w in WORD.findall(text or ""))
    return frozenset(words)


def english_words(text: str, language: str) -> list[str]:
    """Words of ``text`` that are English and not the language's (nor notation, nor an
    island's printed name in capitals)."""
    found = []
    for word in WORD.findall(text):
        folded = word.casefold()
        if word.isupper() and len(word) == 4:  # Kahuna's islands: ALOA … LALE
            continue
        if folded in NOTATION or folded in _spoken(language):
            continue
        if folded in _english():
            found.append(word)
    return sorted(set(found))
