"""The RFID kit, host side: the Pico's line protocol, the link's judgement, the serial driver,
a virtual Pico and the sim backend's link.

The Pico (firmware/) scans a reader under each beach and sends full snapshots of all six
beaches; ``session.RfidSession`` (pure) turns their changes into ``BeachContents`` events and
keeps the link's health, ``driver.RfidDriver`` feeds it from the serial port in a thread.
``virtual_pico.VirtualPico`` speaks the same protocol over a pseudo-terminal for tests and
the simulator, and ``virtual_link.VirtualPicoLink`` pairs it with the driver. Only
``hal.factory`` builds a link (``open_rfid_link``, or ``open_hardware`` for an RFID kit).
"""
