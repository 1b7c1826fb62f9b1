"""The companion daemon: controller, scenes, journal and main loop (``haleakala run``).

One thread owns the game (``controller.Companion``); hardware events reach it through a
queue; scenes turn its state into LED frames and OLED images; the journal makes every
accepted decision durable. Modules import the rules and the HAL, never the reverse.
"""
