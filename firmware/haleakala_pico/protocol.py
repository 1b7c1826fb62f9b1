# ruff: noqa: UP031
# MicroPython: plain %-formatting, no f-strings.
"""Line framing of everything the Pico tells the Pi (specification: firmware/PROTOCOL.md).

A frame is one ASCII line::

    $HK1,<kind>,<boot>,<seq>[,<field>...]*<CRC>\\n

``$HK1,`` marks a frame (anything else on the serial line, such as REPL output, is ignored by
the host), ``boot`` names this run of the firmware, ``seq`` counts frames, and ``CRC`` is the
CRC-16/CCITT-FALSE of the characters between ``$`` and ``*`` as four upper-case hex digits.
The host implementation lives in haleakala/hal/rfid/protocol.py; tests keep the two equal.
"""

SYNC = "$HK1,"
MAX_DETAIL = 48
SEQ_MASK = 0xFFFFFFFF
_DETAIL_OK = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _.:=/+-()#"


def _crc_table():
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table.append(c & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    crc = 0xFFFF
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ b) & 0xFF]
    return crc


def clean_detail(text):
    """Fault details travel inside a frame: keep them short and free of , * $ and newlines."""
    out = []
    for ch in str(text)[:MAX_DETAIL]:
        out.append(ch if ch in _DETAIL_OK else "_")
    return "".join(out)


def beach_field(uids):
    """One beach of a snapshot: ``?`` unknown, empty, or sorted UIDs joined by ``.``."""
    if uids is None:
        return "?"
    return ".".join(sorted(uids))


class Encoder:
    """Builds the frames of one firmware run: owns the boot id and the sequence counter."""

    def __init__(self, boot):
        self.boot = "%08X" % (boot & 0xFFFFFFFF)
        self.seq = 0

    def frame(self, kind, fields):
        body = "HK1," + kind + "," + self.boot + "," + str(self.seq)
        if fields:
            body = body + "," + ",".join(fields)
        self.seq = (self.seq + 1) & SEQ_MASK
        return "$" + body + ("*%04X\n" % crc16(body.encode()))

    def hello(self, firmware, reader_kinds, debounce_scans, snapshot_period_ms, runtime=None):
        fields = [firmware, ".".join(reader_kinds), str(debounce_scans), str(snapshot_period_ms)]
        if runtime:
            fields.append(runtime)
        return self.frame("hello", fields)

    def snap(self, beaches):
        return self.frame("snap", [beach_field(b) for b in beaches])

    def hb(self, uptime_s, round_ms, faulted):
        return self.frame("hb", [str(uptime_s), str(round_ms), str(faulted)])

    def fault(self, reader, kind, detail):
        return self.frame("fault", [str(reader), kind, clean_detail(detail)])
