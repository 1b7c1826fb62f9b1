"""Extracting, updating, checking and compiling the message catalogs, with Babel.

    python -m haleakala.i18n.catalogs extract   # source -> locale/haleakala.pot
    python -m haleakala.i18n.catalogs update    # .pot -> each language's .po (en filled in)
    python -m haleakala.i18n.catalogs compile   # .po -> .mo beside it (the set-up runs this)
    python -m haleakala.i18n.catalogs check     # untranslated, fuzzy, placeholder mismatches

The same steps with Babel's own command line, from the repository root::

    pybabel extract -F babel.cfg -c TRANSLATORS: --add-location=file --sort-output \\
        -o haleakala/i18n/locale/haleakala.pot .
    pybabel update -i haleakala/i18n/locale/haleakala.pot -d haleakala/i18n/locale -D haleakala
    pybabel compile -d haleakala/i18n/locale -D haleakala

This module imports only Babel and the standard library (not the ``haleakala`` package), so
``setup.py`` can load it by path to compile the catalogs into a wheel it builds.
"""

from __future__ import annotations

import argparse
import contextlib
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

DOMAIN = "haleakala"
LANGUAGES = ("en", "de", "fr")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
REPO_ROOT = LOCALE_DIR.parents[2]
MAPPING = REPO_ROOT / "babel.cfg"


def po_path(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return po_path(language, locale_dir).with_suffix(".mo")


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp, locale=language, domain=DOMAIN)


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fp:
        write_po(fp, catalog, width=100, sort_output=True, include_lineno=False)


# --------------------------------------------------------------------------- extract


def extract(output: Path = TEMPLATE) -> Path:
    """Every marked message of the source (``babel.cfg``: the ``haleakala`` package) into the
    template ``output``: ``_``, ``ngettext``, ``pgettext`` and ``N_``; ``# TRANSLATORS:``
    comments go along. Locations name the file only, so moving a line changes nothing."""
    output.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.chdir(REPO_ROOT):  # locations relative to the repository
        _extract(output)
    return output


def _extract(output: Path) -> None:
    CommandLineInterface().run(
        [
            "pybabel",
            "--quiet",
            "extract",
            "-F",
            str(MAPPING),
            "-c",
            "TRANSLATORS:",
            "--add-location=file",
            "--sort-output",
            "--width=100",
            "--project=haleakala-companion",
            "--copyright-holder=Haleakala Companion contributors",
            "-o",
            str(output),
            ".",
        ]
    )


def message_ids(catalog: Catalog) -> set[tuple[str, ...]]:
    """The messages of a catalog as comparable keys: (context, singular[, plural])."""
    keys: set[tuple[str, ...]] = set()
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
        keys.add((m.context or "", *ids))
    return keys


# --------------------------------------------------------------------------- update


def update(template: Path = TEMPLATE, locale_dir: Path = LOCALE_DIR) -> None:
    """Bring each language's ``.po`` in line with the template: new messages arrive
    untranslated (German, French) or as written (English, the source language); changed ones
    keep their old translation marked fuzzy for review; vanished ones are dropped."""
    for language in LANGUAGES:
        pot = read(template)  # fresh each time: update() adopts the template's messages
        path = po_path(language, locale_dir)
        catalog = read(path, language) if path.is_file() else _new_catalog(language, pot)
        catalog.update(pot, no_fuzzy_matching=False)
        catalog.obsolete.clear()
        if language == "en":
            for m in catalog:
                if m.id:
                    m.string = m.id if isinstance(m.id, str) else tuple(m.id)
                    m.flags.discard("fuzzy")
        _write(catalog, path)


def _new_catalog(language: str, pot: Catalog) -> Catalog:
    catalog = Catalog(locale=language, domain=DOMAIN, project=pot.project, version=pot.version)
    catalog.copyright_holder = pot.copyright_holder
    return catalog


# --------------------------------------------------------------------------- check


def placeholders(text: str) -> set[str]:
    """Named ``str.format`` fields of ``text`` (``{beach}``, ``{n:>2}`` -> ``n``); a text
    that is not a valid format string gives ``{"<broken>"}`` so that it never matches."""
    try:
        return {
            field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(text)
            if field is not None
        }
    except ValueError:
        return {"<broken>"}


@dataclass(frozen=True)
class Finding:
    language: str
    msgid: str
    problem: str

    def __str__(self) -> str:
        return f"{self.language}: {self.msgid!r}: {self.problem}"


COUNT_FIELDS = frozenset({"n", "count"})
"""A plural form may leave out the count itself ("eine Muschel" for n == 1), nothing else."""


def problems(catalog: Catalog, language: str) -> Iterator[Finding]:
    """What is wrong with one language's catalog: a message without a translation, one
    marked fuzzy (its source changed since it was translated), a translation that drops or
    adds a placeholder, a plural without every form the language's rule has."""
    for m in catalog:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
        shown = ids[0]
        if m.fuzzy:
            yield Finding(language, shown, "fuzzy: the English changed, review the translation")
        if not strings or not all(strings):
            yield Finding(language, shown, "no translation")
            continue
        if len(ids) == 1:
            want = placeholders(ids[0])
            for s in strings:
                got = placeholders(s)
                if got != want:
                    yield Finding(language, shown, _difference(want, got))
            continue
        if len(strings) != catalog.num_plurals:
            yield Finding(
                language,
                shown,
                f"{len(strings)} plural forms, the language has {catalog.num_plurals}",
            )
        want = placeholders(ids[0]) | placeholders(ids[1])
        for s in strings:
            got = placeholders(s)
            if not (want - COUNT_FIELDS) <= got <= want:
                yield Finding(language, shown, _difference(want, got))


def _difference(want: set[str], got: set[str]) -> str:
    parts = []
    if want - got:
        parts.append("drops " + ", ".join(f"{{{f}}}" for f in sorted(want - got)))
    if got - want:
        parts.append("adds " + ", ".join(f"{{{f}}}" for f in sorted(got - want)))
    return "placeholder mismatch: the translation " + " and ".join(parts)


def check_all(locale_dir: Path = LOCALE_DIR) -> list[Finding]:
    found: list[Finding] = []
    for language in LANGUAGES:
        path = po_path(language, locale_dir)
        if not path.is_file():
            found.append(Finding(language, "", f"{path} is missing: run update"))
            continue
        found += problems(read(path, language), language)
    return found


# --------------------------------------------------------------------------- compile


def compile_one(po: Path, mo: Path, language: str) -> None:
    catalog = read(po, language)
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as fp:
        write_mo(fp, catalog, use_fuzzy=False)


def compile_all(
    locale_dir: Path = LOCALE_DIR, dest_dir: Path | None = None, *, only_stale: bool = False
) -> list[Path]:
    """Compile every ``.po`` under ``locale_dir`` into a ``.mo`` under ``dest_dir`` (the
    same tree by default; a wheel's build directory when packaging). ``only_stale``: skip a
    ``.mo`` newer than its ``.po``, so the set-up's run on every ``./run`` costs nothing.
    The program's own catalogs also bring every game's (``game_catalogs``)."""
    written = compile_domain(locale_dir, DOMAIN, dest_dir, only_stale=only_stale)
    if locale_dir == LOCALE_DIR:
        games = REPO_ROOT / "haleakala" / "games"
        for domain, directory in game_catalogs(games):
            dest = None
            if dest_dir is not None:
                dest = dest_dir.parent.parent / directory.relative_to(REPO_ROOT / "haleakala")
            written += compile_domain(directory, domain, dest, only_stale=only_stale)
    return written


def game_catalogs(games_dir: Path) -> list[tuple[str, Path]]:
    """(domain, locale directory) of each game package under ``games_dir`` that carries its
    own catalogs: ``<game>/locale/<game>.pot`` and its ``.po`` files (the domain is the
    game's registry name, its package's directory name)."""
    return [
        (d.parent.name, d)
        for d in sorted(games_dir.glob("*/locale"))
        if (d / f"{d.parent.name}.pot").is_file()
    ]


def compile_domain(
    locale_dir: Path, domain: str, dest_dir: Path | None = None, *, only_stale: bool = False
) -> list[Path]:
    """Compile one domain's ``.po`` files (a game's catalogs, or the program's)."""
    written = []
    for language in LANGUAGES:
        po = locale_dir / language / "LC_MESSAGES" / f"{domain}.po"
        mo = (dest_dir or locale_dir) / language / "LC_MESSAGES" / f"{domain}.mo"
        if not po.is_file():
            continue
        if only_stale and mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        compile_one(po, mo, language)
        written.append(mo)
    return written


# --------------------------------------------------------------------------- command line


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m haleakala.i18n.catalogs", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("step", choices=("extract", "update", "compile", "check"))
    parser.add_argument(
        "--if-stale", action="store_true", help="compile: only .po files newer than their .mo"
    )
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.step == "extract":
        print(extract())
    elif args.step == "update":
        update(extract())
    elif args.step == "compile":
        for mo in compile_all(only_stale=args.if_stale):
            print(f"compiled {mo}", file=sys.stderr)
    else:
        found = check_all()
        for finding in found:
            print(finding)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
