"""The package build compiles the message catalogs into the wheel (``pip install .``, the
Pi installer's ``pip install CHECKOUT[pi]``): ``.mo`` files are built, never committed.

Everything else about the package is in pyproject.toml; this file only adds that step (and the
copy of `systemd/` into `haleakala/kit/systemd`, so a wheel carries its unit) to
``build_py``. The compiler is ``haleakala/i18n/catalogs.py``, loaded by path so that the build
does not import the package (Babel comes from ``[build-system] requires``).
"""

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class build_py_with_catalogs(build_py):
    def run(self) -> None:
        super().run()
        spec = importlib.util.spec_from_file_location(
            "_haleakala_catalogs", HERE / "haleakala" / "i18n" / "catalogs.py"
        )
        assert spec is not None and spec.loader is not None
        catalogs = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = catalogs  # dataclasses look their module up there
        spec.loader.exec_module(catalogs)
        locale = HERE / "haleakala" / "i18n" / "locale"
        # An editable install reads the source tree: compile there; a wheel gets its own.
        target = locale if self.editable_mode else Path(self.build_lib, "haleakala/i18n/locale")
        catalogs.compile_all(locale, target, only_stale=self.editable_mode)
        # The release's own unit and drop-ins travel in the wheel: `haleakala update` from a
        # wheel on a USB stick installs the unit that release was written for.
        if not self.editable_mode and (HERE / "systemd").is_dir():
            units = Path(self.build_lib, "haleakala/kit/systemd")
            units.mkdir(parents=True, exist_ok=True)
            for path in sorted((HERE / "systemd").iterdir()):
                if path.suffix in (".service", ".conf", ".rules"):
                    (units / path.name).write_bytes(path.read_bytes())


setup(cmdclass={"build_py": build_py_with_catalogs})
