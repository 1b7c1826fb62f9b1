"""The generated parts (hw/parts/, the cad extra) are what the geometry builds, byte for byte,
and every 3D part is a closed, manifold solid of the size placement.json says."""

from __future__ import annotations

import io
import json

import pytest

pytest.importorskip("build123d")
trimesh = pytest.importorskip("trimesh")

from haleakala.kit import parts  # noqa: E402
from haleakala.kit.common import REPO_ROOT, stale  # noqa: E402
from haleakala.kit.geometry import default_geometry  # noqa: E402


@pytest.fixture(scope="module")
def generated() -> dict:
    return parts.generate(default_geometry(), REPO_ROOT / "hw")


def test_the_committed_parts_are_regenerated_byte_identically(generated):
    out_of_date = [str(p.relative_to(REPO_ROOT)) for p in stale(generated)]
    assert out_of_date == [], "run 'haleakala kit parts' and commit the files"


def test_every_printed_part_is_a_closed_manifold_solid_of_its_placed_size(generated):
    placed = {
        p["file"]: p["bbox"]
        for p in json.loads(generated[REPO_ROOT / "hw" / "placement.json"])["parts"]
    }
    stls = {p: b for p, b in generated.items() if p.suffix == ".stl"}
    assert len(stls) == len(parts.SOLIDS)
    for path, data in stls.items():
        mesh = trimesh.load(io.BytesIO(data), file_type="stl")
        name = str(path.relative_to(REPO_ROOT))
        assert mesh.is_watertight and mesh.is_volume, f"{name} is not a closed manifold solid"
        lo, hi = placed[name]
        assert [*mesh.bounds[0], *mesh.bounds[1]] == pytest.approx([*lo, *hi], abs=0.05), name
