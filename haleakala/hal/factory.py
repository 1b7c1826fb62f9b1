"""Choosing the hardware backend, the way gpiozero chooses a pin factory.

Order: the explicit argument, then ``HALEAKALA_HARDWARE=sim|pi``, then the config's
``hardware`` key, then auto-detection: ``pi`` only when ``/proc/device-tree/model`` says
"Raspberry Pi", else ``sim``, so a laptop never tries to open GPIO by accident.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from haleakala.config import Config
    from haleakala.hal.base import Hardware

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


def open_hardware(
    config: Config | None = None, backend: str | None = None, **options: Any
) -> Hardware:
    """Open the kit's hardware on the chosen backend.

    ``options`` go to the backend (``SimHardware.from_config`` or ``open_pi_hardware``),
    e.g. ``clock=`` for the sim or ``pin_factory=`` for the pi backend.
    """
    if config is None:
        from haleakala.config import Config

        config = Config()
    chosen = choose_backend(config, backend)
    if chosen == "sim":
        from haleakala.hal.simulated import SimHardware

        return SimHardware.from_config(config, **options)
    from haleakala.hal.pi import open_pi_hardware

    return open_pi_hardware(config, **options)
