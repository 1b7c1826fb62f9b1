"""The kit's configuration: one TOML file, a dataclass tree with defaults, and a checker.

The same pin map drives the daemon, the wiring diagrams and the maker's self-test, so a
mistake here is a mistake in copper: ``check`` names every problem with its key path and a
fix, instead of stopping at the first. A missing file means the built-in defaults (the kit as
documented in ``hw/config.example.toml``), and ``Config.source`` says so.

The package splits by concern: ``schema`` (the tree, limits and ``Problem``), ``build``
(parsed TOML to a tree, key by key), ``checks`` (what the values mean together), ``reading``
(text and files, with their limits) and ``writer`` (back to TOML). This module holds the path
lookup and re-exports the public names, so ``from haleakala.config import load`` stays.
"""

from __future__ import annotations

import os
from pathlib import Path

from haleakala.config.reading import _read, check, check_text, from_dict, loads
from haleakala.config.schema import (
    BAUD_RANGE,
    DRIVERS,
    HARDWARE,
    HAT_EEPROM_GPIOS,
    HEADER_GPIOS,
    I2C1_GPIOS,
    I2C_PORTS,
    KITS,
    LANGUAGES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_HOLD_MS,
    MAX_TEXT,
    MODELS,
    NAME_MAX,
    PIXEL_ORDERS,
    PWM_LED_GPIO,
    SPI0_GPIOS,
    SPI_LED_GPIO,
    UID_BYTES,
    Config,
    ConfigError,
    DisplayConfig,
    InputsConfig,
    LedsConfig,
    PinsConfig,
    Problem,
    RfidConfig,
    errors,
)
from haleakala.config.writer import to_toml

__all__ = [
    "BAUD_RANGE",
    "DEFAULT_PATH",
    "DRIVERS",
    "ENV_PATH",
    "HARDWARE",
    "HAT_EEPROM_GPIOS",
    "HEADER_GPIOS",
    "I2C1_GPIOS",
    "I2C_PORTS",
    "KITS",
    "LANGUAGES",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_HOLD_MS",
    "MAX_TEXT",
    "MODELS",
    "NAME_MAX",
    "PIXEL_ORDERS",
    "PWM_LED_GPIO",
    "SPI0_GPIOS",
    "SPI_LED_GPIO",
    "UID_BYTES",
    "Config",
    "ConfigError",
    "DisplayConfig",
    "InputsConfig",
    "LedsConfig",
    "PinsConfig",
    "Problem",
    "RfidConfig",
    "check",
    "check_text",
    "errors",
    "from_dict",
    "load",
    "loads",
    "resolve_path",
    "to_toml",
]

DEFAULT_PATH = Path("/etc/haleakala/config.toml")
ENV_PATH = "HALEAKALA_CONFIG"
"""Environment variable naming the config file (the daemon's ``--config`` wins over it)."""


def resolve_path(path: str | os.PathLike[str] | None = None) -> tuple[Path, bool]:
    """Which file to read and whether the user named it (argument, then env, then default)."""
    if path is not None:
        return Path(path), True
    if os.environ.get(ENV_PATH):
        return Path(os.environ[ENV_PATH]), True
    return DEFAULT_PATH, False


def load(path: str | os.PathLike[str] | None = None, *, supply: bool = True) -> Config:
    """Load the config. No file at the default path means built-in defaults (``note`` says so);
    a file named explicitly (argument or ``HALEAKALA_CONFIG``) must exist.

    Raises ``FileNotFoundError`` for a missing named file and ``ConfigError`` for mistakes.
    """
    target, explicit = resolve_path(path)
    if not target.exists():
        if explicit:
            raise FileNotFoundError(f"config file {target} does not exist")
        return Config(note=f"no config file at {target}: using built-in defaults")
    raw, problems = _read(target)
    if raw is None:
        raise ConfigError(problems, target)
    config, problems = from_dict(raw, target, supply=supply)
    if errors(problems):
        raise ConfigError(errors(problems), target)
    return config
