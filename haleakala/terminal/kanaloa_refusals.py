"""Kanaloa's refusals in the player's language. The rules (``kanaloa/refusals.py``) stay
pure and English, and give a sentence built from a few frames; here each known frame and
phrase is matched and said again from a gettext template, its ruling kept. A sentence not
known here (a new one in the rules) is shown as the rules wrote it, ruling included.
"""

from __future__ import annotations

import re

from haleakala.i18n import N_, _, current
from haleakala.words.kanaloa import colour

ASKED = {
    text: text
    for text in (
        N_("a fish on a free current (N13-N16)"),
        N_("a first piece on an island without a piece (N17)"),
        N_("the volcano's place (N30)"),
        N_("one of your two pieces taken off the map (N20)"),
        N_("the island where the Dolphin lands (N25)"),
        N_("the tile given to the Dolphin (N25)"),
        N_(
            "a move, a sacrifice, or with a blocked piece a whitened fish or the Dolphin "
            "(N18, N21-N24, N34)"
        ),
        N_("another tile for the open sacrifice, or done (N34)"),
        N_("the tile the Ku player robs (N43)"),
        N_("the tile taken from the island (N26)"),
        N_("a Kanaloa change, the second piece, or end (N18)"),
        N_("allow or forbid the Kanaloa change (N42)"),
        N_("nothing"),
    )
}
"""What each decision point asks for (``kanaloa.refusals.ASKED``), as the rules word it."""

SPECIFIC = [
    (r"the current (?P<current>\S+) is not in play \(N9\)",
     N_("the current {current} is not in play (N9)")),
    (r"the fish on (?P<current>\S+) points the other way \(N21\)",
     N_("the fish on {current} points the other way (N21)")),
    (r"you have no piece that can act on (?P<island>\S+) \(N21, N32\)",
     N_("you have no piece that can act on {island} (N21, N32)")),
    (r"(?P<island>\S+) may not be entered while the volcano is there \(N31\)",
     N_("{island} may not be entered while the volcano is there (N31)")),
    (r"(?P<island>\S+) is out of play with (?P<n>\d) players \(N9\)",
     N_("{island} is out of play with {n} players (N9)")),
    (r"(?P<island>\S+) is not vacant \(N17, N30, N45\)",
     N_("{island} is not vacant (N17, N30, N45)")),
    (r"(?P<colour>\w+) does not play \(N7\)", N_("{colour} does not play (N7)")),
    (r"(?P<colour>\w+) does not hold that tile or cannot be robbed now \(N43\)",
     N_("{colour} does not hold that tile or cannot be robbed now (N43)")),
    (r"(?P<colour>\w+) decides now, not (?P<other>\w+) \(N52\)",
     N_("{colour} decides now, not {other} (N52)")),
]  # fmt: skip
FIXED = {
    text: text
    for text in (
        N_("the fish shows another player's colour (N21)"),
        N_("only a blocked piece whitens a fish of another colour (N22, N23)"),
        N_("only a Lono card holder places the second piece (N45)"),
        N_("only the Kanaloa gods card holder turns a fish (N40)"),
        N_("the gods card action of this turn is used (N19)"),
        N_("the change would break reachability or take a piece's last way off (N40, N41)"),
        N_("only the Lono gods card holder exchanges tiles (N44)"),
        N_("the exchange needs two different tiles of adjacent islands in play (N44, N19)"),
        N_("only the Ku gods card holder robs (N43)"),
        N_("that tile is not there, or does not show the god (N26, N34)"),
        N_("the game is over (N47)"),
    )
}
FRAMES = [
    (r"(?P<text>'.*') does not fit now: (?P<colour>\w+) must choose (?P<asked>.*)",
     N_("{text} does not fit now: {colour} must choose {asked}")),
    (r"(?P<text>'.*') is not legal: (?P<specific>.*)", N_("{text} is not legal: {specific}")),
    (r"(?P<text>'.*') is not legal here; (?P<colour>\w+) must choose (?P<asked>.*)",
     N_("{text} is not legal here; {colour} must choose {asked}")),
]  # fmt: skip


def _part(text: str) -> str:
    """One clause of a refusal in the language in use (unknown: as it is)."""
    if text in FIXED or text in ASKED:
        return _(text)
    for pattern, template in SPECIFIC:
        found = re.fullmatch(pattern, text)
        if found:
            values = found.groupdict()
            for key in ("colour", "other"):
                if key in values:
                    values[key] = colour(values[key])
            return _(template).format(**values)
    return text


def speak_refusal(reason: str) -> str:
    """A refusal of the Kanaloa rules in the language in use."""
    if current() == "en":
        return reason
    for pattern, template in FRAMES:
        found = re.fullmatch(pattern, reason, flags=re.DOTALL)
        if found:
            values = found.groupdict()
            if "colour" in values:
                values["colour"] = colour(values["colour"])
            for key in ("asked", "specific"):
                if key in values:
                    values[key] = _part(values[key])
            return _(template).format(**values)
    return _part(reason)
