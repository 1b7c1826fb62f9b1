"""The live view (issue 15): the game on every phone at the table, served by the companion.

``snapshot`` (pure: game -> JSON-able dict, the island's geometry), ``server`` (aiohttp on its
own thread; the game thread only publishes immutable snapshots), ``join`` (the OLED's QR code
of the joining URL), ``static/`` (the page: HTML, JS, CSS, no CDN, no inline script).
aiohttp and segno come with the optional ``web`` extra; nothing imports them unless asked.
"""
