"""The desktop simulator: the whole kit on a laptop, running the real daemon.

Nothing here implements the game flow: a ``SimSession`` runs the companion daemon on the
``sim`` hardware backend, the window only turns clicks and keys into hardware events and
draws what the hardware would show (LED pixels, the OLED image) plus the physical pieces,
and scenarios script the same inputs without a window.

pygame is imported only by ``window`` (and the commands that open it), so ``haleakala``
without the ``sim`` extra keeps working: the headless scenario runner needs no pygame.
"""
