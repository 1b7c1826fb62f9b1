# ruff: noqa: UP031, SIM105
# MicroPython: plain %-formatting, no f-strings, no contextlib.
"""NXP MFRC522 reading one ISO 14443A tag (NTAG21x, 7-byte UID) per beach.

The cheap alternative reader: its field reaches only a few centimetres and ISO 14443A
anticollision is not worth it for one disc, so a beach of this kit holds one tagged disc at a
time and a second tag in the field is reported as a ``collision`` fault, never guessed at.

Each scan (register use as in the public MicroPython and Arduino MFRC522 drivers,
wendlers/micropython-mfrc522 and miguelbalboa/rfid):

1. WUPA (0x52, 7-bit short frame) rather than REQA, so the tag halted by the previous scan
   answers again; ATQA (2 bytes) or timer timeout = empty field.
2. Per cascade level (SEL 0x93, 0x95, 0x97): ANTICOLLISION [SEL, 0x20] returns 4 UID bytes
   and their BCC (XOR); SELECT [SEL, 0x70, uid4, BCC, CRC_A] returns SAK. A first byte 0x88
   (cascade tag) with SAK bit 0x04 means the UID continues at the next level.
3. HLT A [0x50, 0x00, CRC_A]: no answer expected.

The chip's timer (TAuto, 25 us ticks) ends every transceive that gets no answer after 2 ms,
so an empty beach costs about 2.5 ms of the scan round.
"""

from haleakala_pico import compat
from haleakala_pico.reader import (
    BADRESP,
    COLLISION,
    NO_LOCK,
    NOCHIP,
    TIMEOUT,
    Reader,
    ReaderFault,
    uid_hex,
)

# Registers.
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands.
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
POWER_DOWN = 0x10

# ComIrqReg bits.
TIMER_IRQ = 0x01
ERR_IRQ = 0x02
IDLE_IRQ = 0x10
RX_IRQ = 0x20

# ErrorReg bits.
PROTOCOL_ERR = 0x01
PARITY_ERR = 0x02
CRC_ERR = 0x04
COLL_ERR = 0x08
BUFFER_OVFL = 0x10

WUPA = 0x52
HLTA = 0x50
CASCADE_TAG = 0x88
SELECT_LEVELS = (0x93, 0x95, 0x97)
SAK_MORE = 0x04

TIMER_TICKS = 80  # 80 x 25 us = 2 ms answer timeout
SOFT_TIMEOUT_US = 10000  # backstop if the chip never raises an interrupt
RESET_TIMEOUT_US = 50000
RETRIES = 2  # a garbled answer (tag sliding in) gets this many more tries
FIELD_SETTLE_MS = 5  # ISO 14443-3: a tag answers within 5 ms of the field appearing


def crc_a(data):
    """ISO 14443A CRC (CRC-16/ISO-IEC-14443-3-A), low byte first."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes((crc & 0xFF, (crc >> 8) & 0xFF))


class _Garbled(Exception):
    pass


class MFRC522(Reader):
    kind = "mfrc522"

    def __init__(self, spi, cs, rst, bus=None):
        self._spi = spi
        self._bus = NO_LOCK if bus is None else bus
        self._cs = cs
        self._rst = rst
        self._field_reset = False
        self.version = None

    # ------------------------------------------------------------------ SPI

    def read(self, reg):
        out = bytes((((reg << 1) & 0x7E) | 0x80, 0))
        buf = bytearray(2)
        self._exchange(out, buf)
        return buf[1]

    def write(self, reg, value):
        self._exchange(bytes(((reg << 1) & 0x7E, value & 0xFF)))

    def _fifo_write(self, data):
        self._exchange(bytes(((FIFO_DATA << 1) & 0x7E,)) + bytes(data))

    def _fifo_read(self, count):
        address = ((FIFO_DATA << 1) & 0x7E) | 0x80
        out = bytes([address] * count + [0])
        buf = bytearray(count + 1)
        self._exchange(out, buf)
        return bytes(buf[1:])

    def _exchange(self, out, into=None):
        """One SPI transaction with this chip selected (and the shared bus held)."""
        with self._bus:
            self._cs.value(0)
            try:
                if into is None:
                    self._spi.write(out)
                else:
                    self._spi.write_readinto(out, into)
            finally:
                self._cs.value(1)

    # ------------------------------------------------------------------ Reader interface

    def init(self):
        self._cs.value(1)
        self._rst.value(0)
        compat.sleep_ms(1)
        self._rst.value(1)
        compat.sleep_ms(5)
        version = self.read(VERSION)
        if version in (0x00, 0xFF):
            raise ReaderFault(NOCHIP, "no MFRC522 answers (version %02X)" % version)
        self.write(COMMAND, SOFT_RESET)
        start = compat.ticks_us()
        while self.read(COMMAND) & POWER_DOWN:
            if compat.ticks_diff(compat.ticks_us(), start) > RESET_TIMEOUT_US:
                raise ReaderFault(TIMEOUT, "MFRC522 did not wake after soft reset")
        self.version = "%02X" % version
        self.write(TX_MODE, 0x00)  # 106 kbit/s, no CRC: set per frame below
        self.write(RX_MODE, 0x00)
        self.write(T_MODE, 0x80)  # TAuto: timer starts when transmission ends
        self.write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 0x0A9 + 1) -> 40 kHz, 25 us
        self.write(T_RELOAD_H, (TIMER_TICKS >> 8) & 0xFF)
        self.write(T_RELOAD_L, TIMER_TICKS & 0xFF)
        self.write(TX_ASK, 0x40)  # 100 % ASK
        self.write(MODE, 0x3D)  # CRC preset 0x6363 (ISO 14443A)
        self.write(TX_CONTROL, self.read(TX_CONTROL) | 0x03)  # antenna on
        self._field_reset = False
        compat.sleep_ms(FIELD_SETTLE_MS)

    def inventory(self):
        tries = 0
        while True:
            if self._field_reset:
                self._cycle_field()
            self._field_reset = True  # cleared only by a clean read
            try:
                uids = self._read_uid()
            except _Garbled as exc:
                tries += 1
                if tries > RETRIES:
                    raise ReaderFault(BADRESP, str(exc)) from None
                continue
            self._field_reset = False
            return uids

    def _cycle_field(self):
        """Field off and on: after an aborted anticollision a tag sits in READY and
        ignores the next WUPA; without power it starts again from IDLE."""
        control = self.read(TX_CONTROL)
        self.write(TX_CONTROL, control & ~0x03)
        compat.sleep_ms(1)
        self.write(TX_CONTROL, control | 0x03)
        compat.sleep_ms(FIELD_SETTLE_MS)

    # ------------------------------------------------------------------ ISO 14443A

    def _transceive(self, data, last_bits=0):
        """Send a frame and return (bytes, valid bits in last byte), or None for silence."""
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)  # clear every interrupt request bit
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        self._fifo_write(data)
        self.write(BIT_FRAMING, last_bits)
        self.write(COMMAND, TRANSCEIVE)
        self.write(BIT_FRAMING, 0x80 | last_bits)  # StartSend
        start = compat.ticks_us()
        while True:
            irq = self.read(COM_IRQ)
            if irq & (RX_IRQ | IDLE_IRQ):
                break
            if irq & TIMER_IRQ:
                return None
            if compat.ticks_diff(compat.ticks_us(), start) > SOFT_TIMEOUT_US:
                raise ReaderFault(TIMEOUT, "no interrupt from the MFRC522")
        error = self.read(ERROR)
        if error & COLL_ERR:
            raise ReaderFault(COLLISION, "more than one tag on this beach")
        if error & (PROTOCOL_ERR | PARITY_ERR | BUFFER_OVFL):
            raise _Garbled("RF error %02X" % error)
        count = self.read(FIFO_LEVEL) & 0x7F
        valid = self.read(CONTROL) & 0x07
        return self._fifo_read(count), valid

    def _read_uid(self):
        self.write(COLL, self.read(COLL) & 0x7F)  # ValuesAfterColl off: collisions seen
        answer = self._transceive((WUPA,), 7)
        if answer is None:
            return []
        atqa, valid = answer
        if len(atqa) != 2 or valid:
            raise _Garbled("ATQA of %d bytes" % len(atqa))
        uid = b""
        for select in SELECT_LEVELS:
            answer = self._transceive((select, 0x20))
            if answer is None:
                raise _Garbled("tag left during anticollision")
            part = answer[0]
            if len(part) != 5 or part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                raise _Garbled("bad UID part %s" % uid_hex(part))
            frame = bytes((select, 0x70)) + part
            answer = self._transceive(frame + crc_a(frame))
            if answer is None:
                raise _Garbled("tag left during select")
            sak = answer[0]
            if len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                raise _Garbled("bad SAK %s" % uid_hex(sak))
            if sak[0] & SAK_MORE:
                if part[0] != CASCADE_TAG:
                    raise _Garbled("SAK says more UID but no cascade tag")
                uid += part[1:4]
                continue
            uid += part[:4]
            halt = bytes((HLTA, 0x00))
            try:
                self._transceive(halt + crc_a(halt))
            except _Garbled:
                pass  # the UID is complete; the halt is a courtesy
            return [uid_hex(uid)]
        raise ReaderFault(BADRESP, "UID longer than three cascade levels")
