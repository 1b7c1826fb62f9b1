"""Hardware abstraction: what the daemon needs from LEDs, display and inputs.

Backends (``sim``, ``pi``) are chosen like gpiozero's pin factory; devices never know
which one they got. Vendor libraries are imported lazily, only in the ``pi`` backend.
"""
