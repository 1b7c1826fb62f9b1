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


# -- the stronger check of every front-end (issue 39) ----------------------------------------

_FUNCTION_WORDS_TEXT = """
    the and with your you yours this that these those from for are is were be been being
    has have had not its it which what when where who whom whose why how there their they
    them into onto than then only each every other here now does did can cannot could would
    should shall must may might our his her him she he we us my me of to at by if up out
    off over under about again once both any some more most such very too just yet still
    also already yes all
    """
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())
"""English words that carry no meaning of the game but make any English sentence: found in a
German or French text outside the notation, they are English that reached the player, even
in a sentence no catalog ever knew (``english_words`` only knows the catalog's words)."""
ALSO = {
    "de": frozenset({"also", "will", "was", "her", "still", "not", "an", "in", "so", "die"}),
    "fr": frozenset({"a", "as", "on", "or", "me", "son"}),
}
"""Function words that are words of the language as well ("also" is German, "on" French)."""
COMMANDS = frozenset(
    ["help", "legal", "hint", "board", "map", "undo", "save", "load", "quit", "exit", "back"]
)
"""The English command words, accepted in every language beside the local ones (typed, so
notation in this sense); the local words are what the texts name."""
PROPER = frozenset({"haleakala", "kahuna", "kanaloa", "companion", "haus", "sonne"})
"""The games' and the program's names."""


@cache
def _notation(game: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A game's notation: every decision it can write (formatted), the first words of its
    decisions, and every word of it (island names, gods, tile codes, sides)."""
    from haleakala.gameapi import describe, hook, new_game

    description = describe(game)
    state = new_game(game, 1, players=max(description.player_counts))
    decisions: set[str] = set()
    for code in hook(description.all_codes)():
        try:
            decisions.add(state.format(code))
        except (ValueError, IndexError, KeyError):
            continue
    first = frozenset(d.split(" ")[0] for d in decisions)
    words = frozenset(w for d in decisions for w in re.findall(r"[^\W\d_]+", d))
    return frozenset(decisions), first, words


@cache
def _all_notation_words() -> frozenset[str]:
    from haleakala.gameapi import GAMES

    return frozenset(w.casefold() for g in GAMES for w in _notation(g)[2])


@cache
def _spoken_words(language: str) -> frozenset[str]:
    """Every word the language's catalogs write (the program's and each game's own), all
    lengths, folded, outside their notation: a translation that quotes ``fish HONU>KAI
    white`` does not make "white" French."""
    from haleakala.gameapi import GAMES
    from haleakala.i18n import game_catalogs

    paths = [catalogs.po_path(language)]
    paths += [d / language / "LC_MESSAGES" / f"{name}.po" for name, d in game_catalogs()]
    words: set[str] = set()
    for path in paths:
        if not path.is_file():
            continue
        for m in catalogs.read(path, language):
            for text in [m.string] if isinstance(m.string, str) else list(m.string or ()):
                for game in GAMES:
                    text = without_notation(text or "", game, keywords=False)
                words.update(w.casefold() for w in re.findall(r"[^\W\d_]+", text))
    return frozenset(words)


@cache
def _english_all() -> frozenset[str]:
    """Every word of the English source messages, all lengths, folded."""
    from haleakala.i18n import game_catalogs

    paths = [catalogs.TEMPLATE] + [d / f"{name}.pot" for name, d in game_catalogs()]
    words: set[str] = set()
    for path in paths:
        for m in catalogs.read(path):
            for text in [m.id] if isinstance(m.id, str) else list(m.id):
                words.update(w.casefold() for w in re.findall(r"[^\W\d_]+", text or ""))
    return frozenset(words)


@cache
def _english_phrases(language: str) -> tuple[str, ...]:
    """The literal parts (between placeholders) of the English messages the language
    translates differently, of three words or more: found whole in a German or French text,
    they are a message shown untranslated."""
    found: set[str] = set()
    for m in catalogs.read(catalogs.po_path(language), language):
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
        if not m.id or any(s in ids for s in strings):
            continue
        for msgid in ids:
            for part in re.split(r"\{[^}]*\}|\n", msgid):
                part = part.strip(" .,:;()")
                if len(part.split()) >= 3 and not _only_notation(part):
                    found.add(part)
    return tuple(sorted(found))


def _only_notation(text: str) -> bool:
    """A line of a help text that is notation only ("sacrifice Pele5 to Pele, add Kane3,
    done"): the same in every language, so no English phrase when it is shown."""
    from haleakala.gameapi import GAMES

    ours = [g for g, ref in GAMES.items() if ref.startswith("haleakala.")]
    return any(not re.search(r"[^\W\d_]", without_notation(text, g)) for g in ours)


def _arg_like(token: str) -> bool:
    """A notation argument: a code with digits or signs (``Pele5``, ``HONU>KAI``, ``3@2``)
    or a name in capitals (``HONU``, ``ÎLE``)."""
    core = token.strip(".,;:()[]'\"«»")
    letters = "".join(c for c in core if c.isalpha())
    return bool(core) and (
        any(c in "<>@+/:" or c.isdigit() for c in core) or (len(letters) >= 2 and letters.isupper())
    )


def without_notation(text: str, game: str, *, keywords: bool = True) -> str:
    """``text`` with the game's notation blanked out: every whole decision it can write
    (``sacrifice Pele5 to Pele``, ``cut ALOA-BARI with ALOA+BARI``), and a decision word
    followed by arguments (``move h>k``, ``fish QUEUE>TÊTE white``: a form in a help text)."""
    decisions, first, words = _notation(game)
    lengths = sorted({len(d) for d in decisions}, reverse=True)
    out = list(text)
    for m in re.finditer(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(first))) + r")\b", text):
        start = m.start()
        for n in lengths:
            end = start + n
            if end > len(text):
                continue
            if text[start:end] in decisions and (end == len(text) or not text[end].isalnum()):
                out[start:end] = " " * n
                break
    text = "".join(out)
    tokens = list(re.finditer(r"\S+", text))
    blank: set[int] = set()
    for k, tok in enumerate(tokens):
        if tok.group().strip("(") not in first or k + 1 >= len(tokens):
            continue
        j = k + 1
        while j < len(tokens) and (
            _arg_like(tokens[j].group())
            or (j > k + 1 and tokens[j].group().strip(".,;:()") in words)
        ):
            j += 1
        if j > k + 1:
            blank.update(range(k, j))
    if keywords:  # a decision's first word alone: "fish 32", "(draw)" in a count
        blank.update(k for k, t in enumerate(tokens) if t.group().strip(".,;:()|·") in first)
    for k, tok in enumerate(tokens):  # a decision wrapped after its first word:
        # "ELAI-HUNA with HUNA+HUNA" on the line after "cut"; "Ku/Pele3 to Pele"
        if tok.group().strip(".,;:()") not in words:
            continue
        before = k > 0 and _arg_like(tokens[k - 1].group())
        if before or (k + 1 < len(tokens) and _arg_like(tokens[k + 1].group())):
            blank.add(k)
    out = list(text)
    for k in blank:
        out[tokens[k].start() : tokens[k].end()] = " " * (tokens[k].end() - tokens[k].start())
    return "".join(out)


def leaks(text: str, language: str, game: str) -> list[str]:
    """What in ``text`` (shown to a German or French player of ``game``) is English: an
    English message shown whole, an English function word, or a word of the English
    messages the language's catalogs never write (``greedy``, ``green`` outside a
    decision), once the game's notation, its names and the typed commands are set aside."""
    found = [f"«{p}»" for p in _english_phrases(language) if p in text]
    _decisions, _first, words = _notation(game)
    names = {w.casefold() for w in words if w[:1].isupper()} | PROPER
    rest = without_notation(text, game)
    for word in re.findall(r"[^\W\d_]+(?:['-][^\W\d_]+)*", rest):
        if "-" in word:  # a compound ("Such-Bot", "Lava-Priesterin"): the language's own
            continue
        folded = word.casefold().split("'")[0]
        if folded in COMMANDS or folded in names or (word.isupper() and len(word) == 1):
            continue
        function = folded in FUNCTION_WORDS and folded not in ALSO.get(language, ())
        unspoken = len(folded) >= 3 and folded in _english_all()
        if function or (unspoken and folded not in _spoken_words(language)):
            found.append(word)
    return sorted(set(found))
