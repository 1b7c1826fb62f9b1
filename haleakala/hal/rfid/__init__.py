"""The RFID kit, host side: the Pico's line protocol, the serial driver, a virtual Pico.

The Pico (firmware/) scans a reader under each beach and sends full snapshots of all six
beaches; ``driver.RfidDriver`` turns their changes into ``BeachContents`` events and keeps
the link's health. ``virtual_pico.VirtualPico`` speaks the same protocol over a
pseudo-terminal for tests and the desktop simulator.
"""
