"""The views every game gets without writing its own: its position as text (its
description's ``render``) and its legal decisions as typed lines or buttons, at the
terminal (``terminal``), in the window (``window``), on the live view (``live``) and on a
phone seat (``seat``). A game that draws itself in a front-end names its own view in its
description; the others fall back here, never to another game's drawing.
"""
