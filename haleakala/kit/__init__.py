"""The maker's kit: bill of materials, board overlay, wiring diagrams, power budget,
self-test and the Raspberry Pi install.

Everything a maker builds from is generated from the same config the daemon reads (pin map,
zone map, LED limits), so the copper cannot drift from the code: a test regenerates the
committed documents and fails when they differ.
"""
