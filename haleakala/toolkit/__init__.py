"""The front-ends' toolkit: the bases a game's views build on, importing no game.

The terminal session loop (``terminal``), the window shell (``window``), the log writer and
replayer (``gamelog``, ``replayer``), bounded file reading (``textfile``), the live view's and
phone seats' bases and the generic views every game gets without writing its own
(``generic``). The games' views (``haleakala.games.<name>.views``) stand on this layer; the
apps (``cli``, ``terminal``, ``web``, ``simulator``, ``companion``, ``remote``) stand on both
and find a game's views through its description (``haleakala.gameapi``).
"""
