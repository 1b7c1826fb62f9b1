"""Remote play: one authority, mirrors that follow it, and the messages between them.

Why a package of its own: the protocol (``wire``), the authority that alone deals, checks
and journals (``authority``) and the mirror a remote seat keeps (``mirror``) are
game-neutral and transport-neutral — they speak only ``haleakala.gameapi.GameState`` and
plain messages — so a kit over MQTT (``mqtt``, the only module that imports paho) and a
phone over the live view's web socket share one core. The format is docs/REMOTE-PROTOCOL.md.
"""
