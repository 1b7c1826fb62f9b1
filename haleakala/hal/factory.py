"""Choosing the hardware backend, the way gpiozero chooses a pin factory, and opening it.

Order: the explicit argument, then ``HALEAKALA_HARDWARE=sim|pi``, then the config's
``hardware`` key, then auto-detection: ``pi`` only when ``/proc/device-tree/model`` says
"Raspberry Pi", else ``sim``, so a laptop never tries to open GPIO by accident.

This module is the only place that reads the choice and builds devices for it: the daemon,
the self-test, the simulator, the tag enrolment and the benchmarks ask ``open_hardware`` (the
whole kit, the RFID link included when the kit has one) or ``open_rfid_link`` (the link
alone). On ``pi`` the link is ``RfidDriver`` on ``config.rfid.port``; on ``sim`` it is a
``VirtualPico`` on a pseudo-terminal read by that same driver (``VirtualPicoLink``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from haleakala.config import Config
    from haleakala.hal.base import Hardware, RfidLink
    from haleakala.hal.events import Disc

ENV_BACKEND = "HALEAKALA_HARDWARE"
BACKENDS = ("sim", "pi")
MODEL_PATH = Path("/proc/device-tree/model")


class BackendError(ValueError):
    """An unknown backend name: says where the name came from and which names exist."""


def is_raspberry_pi(model_path: Path = MODEL_PATH) -> bool:
    try:
        model = model_path.read_bytes()
    except OSError:
        return False
    return b"Raspberry Pi" in model


def choose_backend(
    config: Config | None = None,
    backend: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    model_path: Path = MODEL_PATH,
) -> str:
    """The backend name to use; raises ``BackendError`` for an unknown name."""
    env = os.environ if env is None else env
    for name, origin in (
        (backend, "the backend argument"),
        (env.get(ENV_BACKEND) or None, f"${ENV_BACKEND}"),
        (config.hardware if config is not None else None, "the config key 'hardware'"),
    ):
        if name is None:
            continue
        name = name.strip().lower()
        if name in BACKENDS:
            return name
        if name != "auto":
            raise BackendError(
                f"unknown hardware backend {name!r} from {origin}: "
                f"use {', '.join(BACKENDS)} or auto"
            )
        break  # "auto" at any level means: detect
    return "pi" if is_raspberry_pi(model_path) else "sim"


def open_rfid_link(
    config: Config | None = None,
    backend: str | None = None,
    *,
    tags: Mapping[str, Disc | str] | None = None,
    port: str | None = None,
    **options: Any,
) -> RfidLink:
    """The RFID Pico's link, not started (``start(post)`` opens it; ``close()`` ends it).

    It reads ``port`` when one is given (a caller that brings its own Pico end: a bench's
    pseudo-terminal, ``tags enroll --port``), whatever the backend. Otherwise the backend's:
    on ``pi`` the kit's Pico at ``config.rfid.port`` (``auto``: the udev link, then a by-id
    name) and ``config.rfid.baud``; on ``sim`` a new ``VirtualPicoLink`` (its ``pico`` is the
    board of tags to lay discs on). ``tags`` replaces ``config.tags`` (UID -> disc).
    ``options`` go to ``RfidDriver`` (``post``, ``on_uids``, ``warn_unknown``,
    ``stale_after_s``, ``retry_max_s``, ``read_timeout_s``) and, on ``sim``, ``firmware`` and
    ``snapshot_period_s`` to the virtual Pico.
    """
    if config is None:
        from haleakala.config import Config

        config = Config()
    tag_map = config.tags if tags is None else tags
    if port is None and choose_backend(config, backend) == "sim":
        from haleakala.hal.rfid.virtual_link import VirtualPicoLink

        return VirtualPicoLink(tag_map, **options)
    from haleakala.hal.rfid.driver import RfidDriver

    options.setdefault("baud", config.rfid.baud)
    return RfidDriver(tag_map, port=config.rfid.port if port is None else port, **options)


def open_hardware(
    config: Config | None = None,
    backend: str | None = None,
    *,
    rfid: bool | None = None,
    rfid_options: Mapping[str, Any] | None = None,
    history: int | None = None,
    window: bool = False,
    **options: Any,
) -> Hardware:
    """Open the kit's hardware on the chosen backend.

    ``rfid``: open the RFID link (``open_rfid_link(config, backend, **rfid_options)``) as
    part of the inputs: it starts and closes with them, and is ``Hardware.rfid``. None (the
    default) means: when the config's kit is ``rfid`` on the ``pi`` backend. On ``sim`` the
    beaches are injected (``SimInputs.place``) unless ``rfid=True`` asks for the virtual
    Pico, so scenario tests and autoplay stay in memory.

    ``history`` is how many frames the sim backend keeps (it records what it shows; the pi
    backend records nothing, so it ignores it). The loudspeaker is the config's ``[speech]
    output`` (``hal.audio.open_audio``; ``window``: the simulator's window, whose "auto" is
    the desktop's sound). ``options`` go to the backend
    (``SimHardware.from_config`` or ``open_pi_hardware``), e.g. ``clock=`` for either or
    ``pin_factory=`` for the pi backend.
    """
    if config is None:
        from haleakala.config import Config

        config = Config()
    chosen = choose_backend(config, backend)
    if rfid is None:
        rfid = config.kit == "rfid" and chosen == "pi"
    link = open_rfid_link(config, chosen, **(rfid_options or {})) if rfid else None
    from haleakala.hal.audio import open_audio

    speech = config.speech
    options.setdefault(
        "audio",
        open_audio(
            speech.output, chosen, device=speech.device, directory=speech.directory, window=window
        ),
    )
    try:
        if chosen == "sim":
            from haleakala.hal.simulated import SimHardware

            if history is not None:
                options["history"] = history
            return SimHardware.from_config(config, rfid=link, **options)
        from haleakala.hal.pi import open_pi_hardware

        return open_pi_hardware(config, rfid=link, **options)
    except BaseException:
        if link is not None:
            link.close()
        raise
