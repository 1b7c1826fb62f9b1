"""The colour modes' screenshots in docs/palette/, and the same passed through simulated
colour-vision deficiency (issue 30).

Draws the simulator window in every mode (the real daemon on simulated hardware, a seeded
game), then passes every screenshot of docs/palette/ (the window's, and the live view's that
``HALEAKALA_DOCS_SCREENSHOTS=1 pytest tests/web/test_web_palette_browser.py`` leaves there)
through the simulations the palette check uses: protanopia and deuteranopia after Machado,
Oliveira & Fernandes (2009), tritanopia after Brettel, Viénot & Mollon (1997), by ColorAide
(the test extra). Each simulation is a 3-D lookup table applied by Pillow, so a 1280×800
picture takes a moment, not minutes. The result is one 2×2 picture per screenshot: normal
vision, protanopia, deuteranopia, tritanopia, each at half size.

    .venv/bin/python tools/palette_screenshots.py                 # refresh docs/palette/
    .venv/bin/python tools/palette_screenshots.py --out /tmp/p    # somewhere else
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from coloraide import Color
from PIL import Image, ImageDraw, ImageFilter

from haleakala import palette

DOCS = Path(__file__).resolve().parents[1] / "docs" / "palette"
SIMULATIONS = (
    ("protanopia", "protan", "machado"),
    ("deuteranopia", "deutan", "machado"),
    ("tritanopia", "tritan", "brettel"),
)
LUT_SIZE = 33


def lut(deficiency: str, method: str) -> ImageFilter.Color3DLUT:
    """The simulation as a lookup table over sRGB (linear interpolation between its points)."""

    def seen(r: float, g: float, b: float) -> tuple[float, float, float]:
        c = Color("srgb", [r, g, b]).filter(deficiency, method=method).convert("srgb").clip()
        red, green, blue = c.coords()
        return (red, green, blue)

    return ImageFilter.Color3DLUT.generate(LUT_SIZE, seen)


def window_shots(out: Path) -> list[Path]:
    """The simulator window in every mode, the same seeded game 60 decisions in."""
    shots = []
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    for mode in palette.MODES:
        path = out / f"window-{mode}.png"
        command = [sys.executable, "-m", "haleakala", "sim", "--screenshot", str(path),
                   "--decisions", "60", "--seed", "7", "--variant", "tactical",
                   "--palette", mode, "--lang", "en"]  # fmt: skip
        subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
        shots.append(path)
    return shots


def simulated(path: Path, tables: dict[str, ImageFilter.Color3DLUT]) -> Path:
    """``path`` as seen with normal vision and each simulated deficiency, in a 2×2 grid."""
    image = Image.open(path).convert("RGB")
    half = (image.width // 2, image.height // 2)
    grid = Image.new("RGB", (half[0] * 2, half[1] * 2))
    tiles = [("normal vision", image)] + [(name, image.filter(t)) for name, t in tables.items()]
    for i, (name, tile) in enumerate(tiles):
        small = tile.resize(half, Image.Resampling.LANCZOS)
        draw = ImageDraw.Draw(small)
        draw.rectangle((0, small.height - 22, 150, small.height), fill=(0, 0, 0))
        draw.text((6, small.height - 18), name, fill=(255, 255, 255))
        grid.paste(small, ((i % 2) * half[0], (i // 2) * half[1]))
    target = path.with_name(path.stem + "-simulated.png")
    grid.quantize(256, dither=Image.Dither.NONE).save(target, optimize=True)  # a quarter the size
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    window_shots(args.out)
    tables = {name: lut(deficiency, method) for name, deficiency, method in SIMULATIONS}
    for path in sorted(args.out.glob("*.png")):
        if not path.stem.endswith("-simulated"):
            print(simulated(path, tables))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
