# ruff: noqa: UP031
# MicroPython: plain %-formatting, no f-strings.
"""NXP PN5180 reading ISO 15693 tags (ICODE SLIX and kin): every tag of a stack of discs.

The inventory follows NXP AN12650 ("Using the PN5180 without library", ISO/IEC 15693
inventory) as the public PN5180 Arduino libraries implement it (ATrappmann/PN5180-Library
and its multi-tag forks):

1. LOAD_RF_CONFIG 0x0D/0x8D (ISO 15693, 26 kbit/s both ways), RF_ON, wait for TX_RFON_IRQ,
   then 1 ms so the tags power up (ISO 15693-3 gives them 1 ms).
2. Clear IRQ_STATUS; SYSTEM_CONFIG command Idle, then Transceive; SEND_DATA the inventory
   request [flags 0x06 = 16 slots + inventory + high data rate, 0x01, mask length, mask].
3. For each of the 16 slots: wait for the slot to end and read RX_STATUS. A collision (or a
   garbled frame) marks the slot for a second look; a clean 10-byte answer
   [flags, DSFID, UID least significant byte first] is a tag. Clearing TX_DATA_ENABLE in
   TX_CONFIG (once: it stays cleared until the next LOAD_RF_CONFIG) makes every following
   SEND_DATA send just an EOF, which opens the next slot.
4. Every colliding slot is polled again with the slot's 4 bits appended to the mask (tags
   answer in the slot given by the 4 UID bits after the mask), until no collision is left.
5. RF_OFF. Neighbouring beaches' fields are never on at the same time (the scanner pairs
   only opposite beaches), so a disc lying near the edge of a beach is not read by the
   neighbouring reader during the same scan.

Which inventory a scan runs is planned from the last scans (``ScanPlan``, firmware 1.3):
a 1-slot probe for an empty beach or a beach with one unchanged tag, a verify (the tag
told to stay quiet, the slot asked again) after a change and at least every
``FULL_EVERY``-th scan, a confirming scan of just the doubtful tags (each by a 1-slot
inventory masked with its whole UID) straight after a scan that changed its mind, and the
16-slot inventory for a beach with more tags, whose collisions the known tags explain are
settled with Stay quiet instead of a second 16-slot poll.
"""

from haleakala_pico import compat
from haleakala_pico.reader import (
    BADRESP,
    NO_LOCK,
    NOCHIP,
    TIMEOUT,
    Reader,
    ReaderFault,
    uid_hex,
    wait_pin,
)

# Host interface commands (PN5180 data sheet, host interface command list).
WRITE_REGISTER = 0x00
WRITE_REGISTER_OR_MASK = 0x01
WRITE_REGISTER_AND_MASK = 0x02
READ_REGISTER = 0x04
READ_EEPROM = 0x07
SEND_DATA = 0x09
READ_DATA = 0x0A
LOAD_RF_CONFIG = 0x11
RF_ON = 0x16
RF_OFF = 0x17

# Registers.
SYSTEM_CONFIG = 0x00
IRQ_STATUS = 0x02
IRQ_CLEAR = 0x03
RX_STATUS = 0x13
TX_CONFIG = 0x18

# IRQ_STATUS bits.
RX_IRQ = 1 << 0
TX_IRQ = 1 << 1
TX_RFON_IRQ = 1 << 9
RX_SOF_DET_IRQ = 1 << 14
GENERAL_ERROR_IRQ = 1 << 17
ALL_IRQ = 0x000FFFFF

# RX_STATUS fields.
RX_LENGTH = 0x1FF
RX_INTEGRITY_ERROR = 1 << 16
RX_PROTOCOL_ERROR = 1 << 17
RX_COLLISION = 1 << 18
RX_BAD = RX_INTEGRITY_ERROR | RX_PROTOCOL_ERROR | RX_COLLISION

PRODUCT_VERSION = 0x10  # EEPROM address of the 2-byte product version
ISO15693_TX = 0x0D  # RF configuration: ISO 15693 ASK100 26 kbit/s
ISO15693_RX = 0x8D
INVENTORY_16_SLOTS = 0x06  # request flags: inventory, high data rate, 16 slots
INVENTORY_1_SLOT = 0x26  # same with the Nb_slots flag: 1 slot
CMD_INVENTORY = 0x01
ADDRESSED = 0x22  # request flags: Address_flag (UID follows), high data rate
CMD_STAY_QUIET = 0x02  # ISO 15693-3: no answer; the tag ignores inventories until
# the field goes off (or a Reset to ready / Select)
EOF_ONLY = 0xFFFFFB3F  # TX_CONFIG AND-mask: no data, no SOF, just EOF

BUSY_TIMEOUT_US = 20000  # longest host command (LOAD_RF_CONFIG) is well under 1 ms
RESET_TIMEOUT_US = 50000
RF_ON_TIMEOUT_US = 10000
TAG_POWER_UP_US = 1000
TX_TIMEOUT_US = 5000  # the longest request (with mask) takes about 2.5 ms on air
SOF_WAIT_US = 400  # t1 (320.9 us) + start of SOF + margin: silence = empty slot
RX_TIMEOUT_US = 8000  # a 12-byte answer takes 3.6 ms on air
MAX_ROUNDS = 16  # collision re-polls before declaring the field unreadable
MAX_ANSWER = 64
FULL_EVERY = 4  # a beach holding one tag is verified at least every 4th scan


class ScanPlan:
    """Which inventory the next scan of one beach needs, from what its last scans found
    (firmware 1.3; ``haleakala bench rfid`` runs this same class, so the model and the
    firmware cannot disagree on it).

    ``FULL``: the 16-slot inventory. ``PROBE``: one 1-slot inventory (ISO 15693-3, the
    Nb_slots flag): silence is no tag, a clean answer is the one tag, a collision (two or
    more tags in the one slot) is sorted out as ``PN5180._probe`` says. ``VERIFY``: the
    probe, then its one tag is told to stay quiet and the slot is asked again, which must
    stay silent. ``CONFIRM``: the scan after a scan that changed its mind re-reads just
    the tags it changed its mind about, each by a 1-slot inventory masked with its whole
    64-bit UID (ISO 15693-3 allows a 64-bit mask with 1 slot; only that tag can answer).
    That scan is the debounce's confirming scan: it is there to read the doubtful tags a
    second time, and the others were read by the scan just before. A CONFIRM is never
    followed by another (a tag that flickers at the edge of the field must not keep the
    rest of the beach from being read).

    A probe cannot promise a weak tag: one strong tag can drown it in a single slot. A
    verify can, as a 16-slot inventory can: with the one tag quiet every other tag answers
    on its own. So a beach that was empty is probed (a drowned tag is found by the verify
    that follows, since the beach is then no longer empty); a beach with one tag is
    verified after any change (the debounce's confirming scan: no change counts on a probe
    alone) and at least every ``FULL_EVERY``-th scan, which bounds how long a weak disc
    can hide under a strong one, and probed otherwise; a beach with more tags gets the
    16-slot inventory."""

    FULL = 0
    PROBE = 1
    VERIFY = 2
    CONFIRM = 3

    def __init__(self, probe_empty=True, probe_one=True, confirm=True):
        self.probe_empty = probe_empty
        self.probe_one = probe_one
        self.confirm = confirm
        self.forget()

    def mode(self):
        if self.confirm and self.changed and self.last_mode != self.CONFIRM:
            return self.CONFIRM
        if not self.last:
            return self.PROBE if self.probe_empty else self.FULL
        if self.probe_one and len(self.last) == 1:
            if self.changed or self.probes >= FULL_EVERY - 1:
                return self.VERIFY
            return self.PROBE
        return self.FULL

    def doubtful(self):
        """The tags the last scan changed its mind about (for ``CONFIRM``)."""
        return sorted(
            [u for u in self.last if u not in self.before]
            + [u for u in self.before if u not in self.last]
        )

    def scanned(self, found, mode):
        self.changed = sorted(found) != sorted(self.last)
        self.before = self.last
        self.last = list(found)
        self.last_mode = mode
        if mode in (self.FULL, self.VERIFY):
            self.probes = 0
        else:
            self.probes += 1  # probes and confirms since the last verify or full scan

    def forget(self):
        """At start and after a reset: nothing is known, the beach looks empty."""
        self.last = []
        self.before = []
        self.changed = False
        self.last_mode = self.FULL
        self.probes = 0


def _le32(value):
    return bytes((value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF, (value >> 24) & 0xFF))


class PN5180(Reader):
    kind = "pn5180"

    def __init__(self, spi, cs, busy, rst, probe_empty=True, bus=None, probe_one=True):
        self._spi = spi
        self._bus = NO_LOCK if bus is None else bus
        self._cs = cs
        self._busy = busy
        self._rst = rst
        self._plan = ScanPlan(probe_empty, probe_one)
        self._tx_config = None  # TX_CONFIG as LOAD_RF_CONFIG leaves it (read at init)
        self._eof_only = False  # TX_CONFIG sends just an EOF (set in a 16-slot poll)
        self.version = None

    # ------------------------------------------------------------------ host interface

    def _send(self, frame):
        wait_pin(self._busy, 0, BUSY_TIMEOUT_US, "BUSY stuck high")
        with self._bus:
            self._cs.value(0)
            try:
                self._spi.write(frame)
            finally:
                self._cs.value(1)

    def _receive(self, count):
        wait_pin(self._busy, 0, BUSY_TIMEOUT_US, "BUSY stuck high")
        buf = bytearray(count)
        with self._bus:
            self._cs.value(0)
            try:
                self._spi.readinto(buf, 0xFF)
            finally:
                self._cs.value(1)
        return buf

    def read_register(self, reg):
        self._send(bytes((READ_REGISTER, reg)))
        b = self._receive(4)
        value = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
        if value == 0xFFFFFFFF:
            raise ReaderFault(NOCHIP, "register %02X reads all ones" % reg)
        return value

    def write_register(self, reg, value):
        self._send(bytes((WRITE_REGISTER, reg)) + _le32(value))

    def and_register(self, reg, mask):
        self._send(bytes((WRITE_REGISTER_AND_MASK, reg)) + _le32(mask))

    def or_register(self, reg, mask):
        self._send(bytes((WRITE_REGISTER_OR_MASK, reg)) + _le32(mask))

    def read_eeprom(self, address, count):
        self._send(bytes((READ_EEPROM, address, count)))
        return self._receive(count)

    # ------------------------------------------------------------------ Reader interface

    def init(self):
        self._cs.value(1)
        self._rst.value(0)
        compat.sleep_ms(1)
        self._rst.value(1)
        compat.sleep_ms(3)
        wait_pin(self._busy, 0, RESET_TIMEOUT_US, "BUSY stuck high after reset")
        version = self.read_eeprom(PRODUCT_VERSION, 2)
        if version[0] == version[1] and version[0] in (0x00, 0xFF):
            raise ReaderFault(
                NOCHIP, "no PN5180 answers (version %02X%02X)" % (version[1], version[0])
            )
        self.version = "%d.%d" % (version[1], version[0])
        # The ISO 15693 configuration always loads the same EEPROM values; its TX_CONFIG is
        # what a 16-slot poll's EOF-only setting is undone to, without cycling the field.
        self._send(bytes((LOAD_RF_CONFIG, ISO15693_TX, ISO15693_RX)))
        self._tx_config = self.read_register(TX_CONFIG)
        self._send(bytes((RF_OFF, 0x00)))
        self._plan.forget()

    def inventory(self):
        done = False
        mode = self._plan.mode()
        try:
            self._field_on()
            known = self._plan.last
            if mode == ScanPlan.FULL:
                found = self._inventory_all(known)
            elif mode == ScanPlan.CONFIRM:
                found = self._confirm(known, self._plan.doubtful())
            else:
                found = self._probe(known, mode == ScanPlan.VERIFY)
            done = True
        finally:
            try:
                self._send(bytes((RF_OFF, 0x00)))
            except ReaderFault:
                if done:
                    raise
        self._plan.scanned(found, mode)
        return found

    # ------------------------------------------------------------------ ISO 15693

    def _field_on(self):
        self._eof_only = False
        self._send(bytes((LOAD_RF_CONFIG, ISO15693_TX, ISO15693_RX)))
        self._send(bytes((RF_ON, 0x00)))
        start = compat.ticks_us()
        while not self.read_register(IRQ_STATUS) & TX_RFON_IRQ:
            if compat.ticks_diff(compat.ticks_us(), start) > RF_ON_TIMEOUT_US:
                raise ReaderFault(TIMEOUT, "RF field did not switch on")
        self.write_register(IRQ_CLEAR, TX_RFON_IRQ)
        compat.sleep_us(TAG_POWER_UP_US)

    def _transmit(self, data):
        self.write_register(IRQ_CLEAR, ALL_IRQ)
        self.and_register(SYSTEM_CONFIG, 0xFFFFFFF8)  # Idle / StopCom
        self.or_register(SYSTEM_CONFIG, 0x00000003)  # Transceive
        self._send(bytes((SEND_DATA, 0x00)) + bytes(data))

    def _slot_result(self):
        """Wait for the current slot to end: its RX_STATUS, or 0 for silence."""
        start = compat.ticks_us()
        tx_end = None
        while True:
            irq = self.read_register(IRQ_STATUS)
            if irq & GENERAL_ERROR_IRQ:
                raise ReaderFault(BADRESP, "PN5180 general error (IRQ %05X)" % irq)
            if irq & RX_IRQ:
                return self.read_register(RX_STATUS)
            now = compat.ticks_us()
            if not irq & TX_IRQ:
                if compat.ticks_diff(now, start) > TX_TIMEOUT_US:
                    raise ReaderFault(TIMEOUT, "RF transmission did not end")
                continue
            if tx_end is None:
                tx_end = now
                continue
            waited = compat.ticks_diff(now, tx_end)
            if irq & RX_SOF_DET_IRQ:
                if waited > RX_TIMEOUT_US:
                    return RX_PROTOCOL_ERROR  # an answer began and never ended: garbled
            elif waited > SOF_WAIT_US:
                return 0

    def _probe(self, known=(), verify=False):
        """1-slot inventory: [] for silence, the lone tag's UID for a clean answer (with
        ``verify``: once nothing else answers while it stays quiet), the full inventory
        when several tags answered at once (unless the tag known to be there explains the
        collision, see ``_behind``)."""
        status = self._probe_slot(0, 0)
        if status & RX_COLLISION and known:
            found = self._behind(known, 0, 0)
            if found is not None:
                return found
            self._cycle_field()
        if status & RX_BAD:
            return self._inventory_all(known)
        if status & RX_LENGTH:
            uid = self._read_answer(status & RX_LENGTH)
            if verify and not self._alone(uid):
                self._cycle_field()
                return self._inventory_all(known)
            return [uid]
        return []

    def _confirm(self, known, doubtful):
        """The last scan's tags with each doubtful one read again on its own: a 1-slot
        inventory masked with its whole UID, which only that tag can answer."""
        found = [u for u in known if u not in doubtful]
        for uid in doubtful:
            status = self._probe_slot(int(uid, 16), 64)
            if status & RX_BAD:  # two tags with one UID, or a garbled answer: read all
                self._cycle_field()
                return self._inventory_all(known)
            if status & RX_LENGTH:
                if self._read_answer(status & RX_LENGTH) != uid:
                    raise ReaderFault(BADRESP, "a tag answered another tag's UID")
                found.append(uid)
        return found

    def _alone(self, uid):
        """Whether no other tag answers once ``uid`` stays quiet: any tag a strong ``uid``
        drowned in the probe's single slot answers now on its own (or collides with
        another), as it would in its own slot of a 16-slot inventory."""
        if self._stay_quiet(uid):
            return False
        return not self._probe_slot(0, 0) & (RX_BAD | RX_LENGTH)

    def _probe_slot(self, mask, mask_bits):
        """One 1-slot inventory of the tags whose UID ends in ``mask``: its RX_STATUS."""
        request = bytearray((INVENTORY_1_SLOT, CMD_INVENTORY, mask_bits))
        for i in range((mask_bits + 7) // 8):
            request.append((mask >> (8 * i)) & 0xFF)
        self._transmit(request)
        return self._slot_result()

    def _cycle_field(self):
        """RF off and on: every tag powers up again in the Ready state (ISO 15693-3), so
        tags told to stay quiet answer inventories again; TX_CONFIG is reloaded."""
        self._send(bytes((RF_OFF, 0x00)))
        self._field_on()

    def _behind(self, known, mask, mask_bits):
        """The tags of a collision among the tags whose UID ends in ``mask``, found by
        silencing the ones the last scan found there, or None when that cannot tell.

        A collision means two or more tags answered. Each known tag is told to stay quiet
        (addressed Stay quiet, ISO 15693-3: it then ignores every inventory until the field
        goes off), and the same slot is asked once more (1 slot, same mask): silence with
        exactly two known tags means both are there; one clean answer with exactly one
        known tag means that tag and the new one. Anything else (more known tags, a second
        collision, an answer to Stay quiet) is left to the 16-slot poll, after a field
        cycle wakes the quiet tags. This costs two short requests (about 11 ms) where a
        second 16-slot poll costs about 23 ms."""
        here = [u for u in known if int(u, 16) & ((1 << mask_bits) - 1) == mask]
        if not here or len(here) > 2:
            return None
        if self._eof_only:
            self.write_register(TX_CONFIG, self._tx_config)  # whole frames again
            self._eof_only = False
        for uid in here:
            if self._stay_quiet(uid):
                return None
        status = self._probe_slot(mask, mask_bits)
        if status & RX_BAD:
            return None
        if status & RX_LENGTH:
            if len(here) != 1:
                return None
            here.append(self._read_answer(status & RX_LENGTH))
            return here
        if len(here) != 2:
            return None
        return list(here)

    def _stay_quiet(self, uid):
        """Addressed Stay quiet to ``uid`` (UID least significant byte first); True when
        anything answered (a tag must not: the outcome is then not trusted)."""
        value = int(uid, 16)
        request = bytearray((ADDRESSED, CMD_STAY_QUIET))
        for i in range(8):
            request.append((value >> (8 * i)) & 0xFF)
        self._transmit(request)
        return self._slot_result() != 0

    def _inventory_all(self, known=()):
        found = []
        pending = []
        self._poll(0, 0, found, pending)
        rounds = 1
        while pending:
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise ReaderFault(BADRESP, "collisions do not resolve")
            mask, mask_bits, collided = pending.pop(0)
            behind = self._behind(known, mask, mask_bits) if collided else None
            if behind is not None:
                for uid in behind:
                    if uid not in found:
                        found.append(uid)
                continue
            self._cycle_field()  # restores TX_CONFIG, wakes tags told to stay quiet
            self._poll(mask, mask_bits, found, pending)
        return found

    def _poll(self, mask, mask_bits, found, pending):
        request = bytearray((INVENTORY_16_SLOTS, CMD_INVENTORY, mask_bits))
        for i in range((mask_bits + 7) // 8):
            request.append((mask >> (8 * i)) & 0xFF)
        self._transmit(request)
        for slot in range(16):
            if slot == 1:
                self.and_register(TX_CONFIG, EOF_ONLY)  # stays so until the next field-on
                self._eof_only = True
            if slot:
                self._transmit(b"")
            status = self._slot_result()
            if status & RX_BAD:
                if mask_bits + 4 > 64:
                    raise ReaderFault(BADRESP, "collision with a full 64-bit mask")
                pending.append(
                    (mask | (slot << mask_bits), mask_bits + 4, bool(status & RX_COLLISION))
                )
            elif status & RX_LENGTH:
                uid = self._read_answer(status & RX_LENGTH)
                if uid not in found:
                    found.append(uid)

    def _read_answer(self, length):
        if length > MAX_ANSWER:
            raise ReaderFault(BADRESP, "answer of %d bytes" % length)
        self._send(bytes((READ_DATA, 0x00)))
        data = self._receive(length)
        if length != 10:
            raise ReaderFault(BADRESP, "inventory answer of %d bytes, not 10" % length)
        if data[0] & 0x01:
            raise ReaderFault(BADRESP, "tag reports error %02X" % data[1])
        uid = bytes(reversed(data[2:10]))
        if uid[0] != 0xE0:
            raise ReaderFault(BADRESP, "UID %s is not ISO 15693" % uid_hex(uid))
        return uid_hex(uid)
