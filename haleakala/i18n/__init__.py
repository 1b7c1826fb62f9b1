"""The languages a player reads: gettext catalogs for English, German and French.

Everything a player reads (OLED screens, refusals, menus, score pages, the terminal game, the
simulator window and its help page) goes through ``_`` and ``ngettext``; logs, maker commands
and developer messages stay English and do not. One language is in use at a time, chosen
once at start (``use``) and again from the board's menu: the companion has one player-facing
surface per process, so a module-level choice is the whole state.

    >>> use("de")
    'de'
    >>> ngettext("{n} shell", "{n} shells", 2).format(n=number(2))
    '2 Muscheln'

Pure modules (``rules``) never import this package: they mark their sentences with a local
``N_`` (an identity function the extractor knows), and the words layer looks the English
template up here. The catalogs live in ``locale/`` as ``.po`` files under version control;
their compiled ``.mo`` twins are built by the set-up (``catalogs.compile_all``), never
committed.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "NAMES",
    "N_",
    "CatalogNotCompiled",
    "UnknownLanguage",
    "_",
    "check",
    "choose",
    "current",
    "english_ngettext",
    "from_environment",
    "ngettext",
    "number",
    "pgettext",
    "render",
    "speak",
    "use",
]


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (a table of terms, a
    template built in a pure module): whoever shows it later calls ``_`` on it."""
    return message


def english_ngettext(singular: str, plural: str, n: int) -> str:
    """The English form for ``n``, untranslated: for developer text that stays English (a
    log line, the simulator's status). Words a player reads are values instead
    (``core.text.ngettext``). Import it as ``ngettext`` so that the extractor marks both
    forms."""
    return singular if n == 1 else plural


LANGUAGES: tuple[str, ...] = ("en", "de", "fr")
"""Languages with a catalog, English (the source language) first."""
NAMES: dict[str, str] = {"en": N_("English"), "de": N_("Deutsch"), "fr": N_("Français")}
"""Each language's name in itself, as the board's menu lists them (the same in every
catalog: a player looks for their language by its own name)."""
DEFAULT = "en"
DOMAIN = "haleakala"
LOCALE_DIR = Path(__file__).parent / "locale"


class UnknownLanguage(ValueError):
    """A language the companion has no catalog for, named with the ones it has."""

    def __init__(self, language: str) -> None:
        self.language = language
        shown = ", ".join(LANGUAGES)
        close = [code for code in LANGUAGES if code == language.strip().casefold()[:2]]
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        super().__init__(f"unknown language {language!r}{hint}: choose one of {shown}")


class CatalogNotCompiled(RuntimeError):
    """A language whose ``.mo`` file is missing: the set-up did not compile the catalogs."""

    def __init__(self, language: str, path: Path) -> None:
        self.language = language
        super().__init__(
            f"the {NAMES.get(language, language)} catalog is not compiled ({path} is missing): "
            "run tools/bootstrap.sh, or python -m haleakala.i18n.catalogs compile"
        )


_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_language = DEFAULT


def mo_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def check(language: str) -> str:
    """``language`` if it has a catalog, else ``UnknownLanguage``."""
    if language not in LANGUAGES:
        raise UnknownLanguage(language)
    return language


def use(language: str) -> str:
    """Speak ``language`` from now on and return it.

    English is the source language: without its compiled catalog the English source text is
    shown as written. German and French need theirs (``CatalogNotCompiled`` says how to
    build it); the language in use stays as it was when that happens.
    """
    global _translations, _language
    check(language)
    path = mo_path(language)
    if path.is_file():
        with path.open("rb") as fp:
            translations: _gettext.NullTranslations = _gettext.GNUTranslations(fp)
    elif language == DEFAULT:
        translations = _gettext.NullTranslations()
    else:
        raise CatalogNotCompiled(language, path)
    for domain, directory in game_catalogs():
        game_mo = directory / language / "LC_MESSAGES" / f"{domain}.mo"
        if game_mo.is_file():
            with game_mo.open("rb") as fp:
                translations.add_fallback(_gettext.GNUTranslations(fp))
        elif language != DEFAULT and game_mo.with_suffix(".po").is_file():
            raise CatalogNotCompiled(language, game_mo)
    _translations, _language = translations, language
    return language


def game_catalogs() -> list[tuple[str, Path]]:
    """(domain, locale directory) of every registered game whose package carries its own
    catalogs: ``<package>/locale/<lang>/LC_MESSAGES/<game>.po``, the game's registry name as
    the domain. They are consulted after the program's (``locale/`` here), so a game's
    messages live with the game. Found without importing any game: the registry line names
    the package, and its directory is located, not loaded."""
    import importlib.util

    from haleakala.gameapi import GAMES

    found = []
    for name, ref in GAMES.items():
        package = ref.partition(":")[0].rpartition(".")[0]
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            directory = Path(location) / "locale"
            if (directory / f"{name}.pot").is_file():
                found.append((name, directory))
    return found


def current() -> str:
    """The language in use."""
    return _language


def _(message: str) -> str:
    """``message`` (English source text) in the language in use."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that goes with ``n`` in the language in use (its
    catalog's plural rule: French says "1 coquillage", "0 coquillage")."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, told apart from the same English word in another
    ``context`` (a menu entry "back" and the back button are not the same word everywhere)."""
    return _translations.pgettext(context, message)


def number(value: float) -> str:
    """``value`` written as the language in use writes numbers (``1,5`` in German and
    French, ``1.5`` in English; thousands grouped)."""
    # Babel is imported here, not at the top: the Pi installer runs the CLI on Debian's bare
    # python3 before the venv (and Babel) exist, and it never formats a number for a player.
    from babel import Locale
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=Locale.parse(_language)))


def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the POSIX locale asks for, if it is one we have, else None.

    As gettext reads it: the locale is ``LC_ALL``, else ``LC_MESSAGES``, else ``LANG``; a C or
    POSIX locale means untranslated (English) and ``LANGUAGE``, a colon-separated list of
    preferences, is consulted only for a real locale.
    """
    env = os.environ if environ is None else environ
    locale_name = next((env[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(v)), "")
    if _bare(locale_name) in ("", "C", "POSIX"):
        return None
    for candidate in [*env.get("LANGUAGE", "").split(":"), locale_name]:
        code = _bare(candidate).replace("-", "_").split("_")[0].casefold()
        if code in LANGUAGES:
            return code
    return None


def _bare(locale_name: str) -> str:
    """``de_DE`` from ``de_DE.UTF-8@euro``."""
    return locale_name.split(".")[0].split("@")[0].strip()


def choose(
    explicit: str | None = None,
    configured: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """Which language to speak: the one asked for (``--lang``, the board's menu), else the
    config's (``"auto"`` or None: no choice), else the locale's, else English.

    An explicit or configured language we have no catalog for is an ``UnknownLanguage``,
    not a silent fall back to English: someone asked for it by name.
    """
    for asked in (explicit, configured):
        if asked and asked != "auto":
            return check(asked)
    return from_environment(environ) or DEFAULT


def speak(
    explicit: str | None = None,
    configured: str | None = None,
    environ: Mapping[str, str] | None = None,
    warn: Callable[[str], object] | None = None,
) -> str:
    """``use(choose(...))`` for a program's start: a language whose catalog was not compiled
    is reported through ``warn`` and English is spoken instead, so the game still starts;
    without ``warn`` that is an error (``CatalogNotCompiled``)."""
    language = choose(explicit, configured, environ)
    try:
        return use(language)
    except CatalogNotCompiled as exc:
        if warn is None:
            raise
        warn(f"{exc}; speaking English")
        return use(DEFAULT)


def render(value: object) -> str:
    """Words made as values (``haleakala.core.text.Text``: a template and its parameters, a
    ``Term``, a number) in the language in use; any other value as ``str`` gives it. This is
    where a sentence of the rules meets the viewer's language: nothing parses English back."""
    from haleakala.core.text import Capitalised, Term, Text, Upper
    from haleakala.core.text import render as _render

    if isinstance(value, Text | Term | Capitalised | Upper | int) and not isinstance(value, bool):
        return _render(value, _, ngettext, _small_number)
    return str(value)


def _small_number(value: int) -> str:
    """``number`` for a sentence's count: 0 to 999 read alike in every language (no group,
    no decimals), so the OLED's screens skip Babel's formatting for them (a screen is made
    at every event)."""
    return str(value) if 0 <= value < 1000 else number(value)
