"""Benchmarks, one module per subsystem; ``haleakala bench WHAT`` (``haleakala.cli.bench``)
runs them.

- ``engine``: random games per second through the rules engine.
- ``journal``: recovery of a journal with a long garbage tail (MB/s, peak memory).
- ``daemon``: the companion's event-to-frame latency, idle CPU, start-up, RFID flood.
- ``sim``: the simulator window's frames per second.
- ``rfid``: serial frame parsing and the scan-to-event time of the firmware scanner.
- ``ai`` (and ``ai_games`` for games other than Haleakala): the search bot's win rates.
- ``stats``: the one percentile and the one Wilson interval they all report with.

Speed is measured here, never in timed tests.
"""
