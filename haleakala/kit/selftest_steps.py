"""The self-test's vocabulary: what one step asks (a frame to look at, an input to make),
what a part's result is, and the ``Operator`` who answers: a person at the console, or
``SimOperator``, which makes the simulated parts answer by themselves so a broken part fails
on the sim backend exactly as on a Pi."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from haleakala.hal.events import BEACHES, InputEvent

if TYPE_CHECKING:
    from PIL.Image import Image

    from haleakala.hal.rfid.virtual_pico import VirtualPico
    from haleakala.hal.simulated import SimHardware


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class PartResult:
    part: str
    ok: bool
    detail: str
    hint: str = ""

    def line(self) -> str:
        if self.ok:
            return f"PASS  {self.part}: {self.detail}"
        check = f" — check {self.hint}" if self.hint else ""
        return f"FAIL  {self.part}: {self.detail}{check}"


@dataclass
class Report:
    title: str
    results: list[PartResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.results) and all(r.ok for r in self.results)

    @property
    def failed(self) -> list[PartResult]:
        return [r for r in self.results if not r.ok]

    def lines(self) -> list[str]:
        lines = [self.title, *(r.line() for r in self.results)]
        passed = len(self.results) - len(self.failed)
        summary = f"{passed} of {len(self.results)} parts pass"
        if self.failed:
            summary += "; failed: " + ", ".join(r.part for r in self.failed)
        return [*lines, summary]


# --------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class LedFrameCheck:
    """One frame shown on the chain and the chain pixels that should be lit in it."""

    what: str
    lit: frozenset[int]


@dataclass(frozen=True)
class VisualCheck:
    """Something a person looks at: LED frames or the OLED image."""

    part: str
    question: str
    frames: tuple[LedFrameCheck, ...] = ()
    image: Image | None = None
    heard: int = 0  # the loudspeaker: this many sentences were just played


@dataclass(frozen=True)
class InputStep:
    """An input the self-test waits for. ``action`` tells a simulated part what to do:
    ("press", button), ("turn", steps), ("place", beach) or ("link",)."""

    part: str
    instruction: str
    action: tuple[Any, ...]


@dataclass(frozen=True)
class TagsSeen:
    """Raw tag UIDs on a beach, enrolled or not (RFID kit: any tagged disc will do)."""

    beach: int
    uids: frozenset[str]


class Operator(Protocol):
    interactive: bool

    def say(self, text: str) -> None: ...

    def confirm(self, check: VisualCheck) -> tuple[bool, str]:
        """(looks right, what was wrong)."""

    def act(self, step: InputStep) -> None:
        """Ask for (or make) the input of ``step``."""


class ConsoleOperator:
    """A person at the kit: reads the instructions, looks, presses, answers y/n."""

    interactive = True

    def __init__(
        self, out: TextIO = sys.stdout, ask: Callable[[str], str] = input, timeout_s: float = 10
    ) -> None:
        self.out = out
        self.ask = ask
        self.timeout_s = timeout_s

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def confirm(self, check: VisualCheck) -> tuple[bool, str]:
        try:
            answer = self.ask(f"{check.question} [Y/n] ").strip().lower()
        except EOFError:
            return False, "no answer (input closed)"
        if answer in ("", "y", "yes"):
            return True, ""
        return False, "you answered no"

    def act(self, step: InputStep) -> None:
        self.say(f"{step.instruction} (waiting {self.timeout_s:g} s)")


class SimOperator:
    """The simulated parts answer by themselves: events are injected into the SimHardware,
    and what the self-test showed is read back from its recording LEDs and display."""

    interactive = False

    def __init__(self, hardware: SimHardware, disc: str = "red1") -> None:
        self.hw = hardware
        self.disc = disc

    def say(self, text: str) -> None:
        pass

    def confirm(self, check: VisualCheck) -> tuple[bool, str]:
        if check.heard:
            from haleakala.hal.audio import HEARD_RMS, SimAudio, rms

            audio = self.hw.audio
            spoken = list(audio.spoken)[-check.heard :] if isinstance(audio, SimAudio) else []
            if len(spoken) < check.heard:
                return False, f"{check.heard - len(spoken)} sentence(s) never reached the speaker"
            quiet = [s.language for s in spoken if not s.finished or rms(s.samples) < HEARD_RMS]
            return (False, f"silent in {', '.join(quiet)}") if quiet else (True, "")
        if check.image is not None:
            shown = self.hw.display.last
            if shown is None:
                return False, "the display shows nothing"
            if shown.tobytes() != check.image.tobytes():
                return False, "the display shows something other than the test pattern"
            return True, ""
        frames = list(self.hw.leds.frames)[-len(check.frames) :] if check.frames else []
        if len(frames) < len(check.frames):
            return False, f"{len(check.frames) - len(frames)} frame(s) never reached the chain"
        for want, got in zip(check.frames, frames, strict=True):
            lit = frozenset(i for i, p in enumerate(got.pixels) if p != (0, 0, 0))
            if lit != want.lit:
                saw = _indices(lit) if lit else "nothing"
                return (
                    False,
                    f"{want.what}: chain pixels {_indices(want.lit)} should light, saw {saw}",
                )
        return True, ""

    def _pico(self) -> VirtualPico | None:
        """The virtual Pico when the factory gave the hardware an RFID link on the sim
        backend; None when beaches are injected directly."""
        from haleakala.hal.rfid.virtual_link import VirtualPicoLink

        link = self.hw.rfid
        return link.pico if isinstance(link, VirtualPicoLink) else None

    def act(self, step: InputStep) -> None:
        kind = step.action[0]
        pico = self._pico()
        if kind == "place" and pico is not None:
            pico.place(step.action[1], ANY_TAG)  # moves it off the previous beach
        elif kind == "link" and pico is not None:
            pico.vanish()  # plugged in again: the driver finds it and the link comes up
            pico.reappear()
        elif kind == "press":
            from haleakala.hal.simulated import SimClock

            if isinstance(self.hw.inputs.clock, SimClock):
                self.hw.inputs.tap(step.action[1])  # raw edges through the debouncer
            else:
                self.hw.press(step.action[1])
        elif kind == "turn":
            self.hw.turn(step.action[1])
        elif kind == "place":
            self.hw.place(step.action[1], [self.disc])
        elif kind == "link":
            self.hw.inputs.link(True, "simulated RFID Pico")


ANY_TAG = "E0040150C0FFEE01"
"""The tag the simulated person lays on the virtual Pico: enrolled or not, any tag counts."""


def _indices(pixels: frozenset[int]) -> str:
    return ", ".join(str(i) for i in sorted(pixels))


# --------------------------------------------------------------------------- RFID on a Pi


class TagsRelay:
    """Raw tag UIDs from the RFID link (its ``on_uids``) as ``TagsSeen`` events, so that a
    tag not enrolled yet counts too. Only a tag that arrives on a beach is told: a disc left
    on the previous beach must not answer for the next one."""

    def __init__(self) -> None:
        self._post: Callable[[InputEvent | TagsSeen], None] | None = None
        self._last: list[frozenset[str]] = [frozenset()] * BEACHES

    def seen(self, beaches: Sequence[frozenset[str] | None]) -> None:
        """The link's ``on_uids``: the UIDs per beach after each snapshot (None: unknown)."""
        for beach, uids in enumerate(beaches):
            if uids is None:
                continue
            arrived, self._last[beach] = uids - self._last[beach], uids
            if arrived and self._post is not None:
                self._post(TagsSeen(beach, frozenset(arrived)))

    def start(self, post: Callable[[InputEvent | TagsSeen], None]) -> None:
        self._post = post

    def close(self) -> None:
        self._post = None
