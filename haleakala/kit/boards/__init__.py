"""The kit's two carrier boards (the hub in the bay, a tile board under every tile) as KiCad 9
projects generated from the geometry and the pin map: ``model`` (what is on each board and
which net every pin is on), ``library`` (KiCad's own footprints and symbols, vendored),
``schematic``, ``pcb`` and ``router`` (the files), ``command`` (``haleakala kit boards``).
Pure standard library: the suite regenerates the files and compares them without KiCad."""
