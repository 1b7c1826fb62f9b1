"""What every game shares and no game owns: refusals, words as values (``text``) and the
other game-neutral pieces beside ``haleakala.gameapi``. Pure: no I/O, no clock."""
