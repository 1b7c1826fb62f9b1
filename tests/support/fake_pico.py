"""Fakes that let the Pico firmware run under CPython: ``machine``, an SPI bus, and
register-level models of the PN5180 and MFRC522 with tags in their fields.

The chip models are strict where the real chips are: a PN5180 only transmits when
SYSTEM_CONFIG says Transceive and the field is on, sends only an EOF once TX_DATA_ENABLE is
cleared, and answers in the 16-slot scheme of ISO 15693 (a tag answers in the slot named by
the 4 UID bits after the mask); an MFRC522 only runs its timer (and so only reports "no
answer") when the driver set TAuto, and halted tags answer WUPA but not REQA. Drivers that
skip a step get no tags, not a pass.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import types
from collections.abc import Iterator
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


@contextlib.contextmanager
def firmware_on_path(machine: types.ModuleType | None = None) -> Iterator[None]:
    """Make ``haleakala_pico`` (and a fake ``machine``) importable, then forget them."""
    saved_path = list(sys.path)
    saved = {
        k: v
        for k, v in sys.modules.items()
        if k == "machine" or k == "haleakala_pico" or k.startswith("haleakala_pico.")
    }
    sys.path.insert(0, str(FIRMWARE))
    if machine is not None:
        sys.modules["machine"] = machine
    try:
        yield
    finally:
        sys.path[:] = saved_path
        for name in [
            k
            for k in sys.modules
            if k == "machine" or k == "haleakala_pico" or k.startswith("haleakala_pico.")
        ]:
            del sys.modules[name]
        sys.modules.update(saved)


def firmware_module(name: str) -> types.ModuleType:
    """Import a firmware module (call inside ``firmware_on_path``)."""
    return importlib.import_module(name)


# ----------------------------------------------------------------------------- machine


class MachineReset(Exception):
    """machine.reset() was called."""


class FakeMachine(types.ModuleType):
    """A ``machine`` module: pins remember their level, SPI goes to the selected chip."""

    def __init__(self) -> None:
        super().__init__("machine")
        self.pins: dict[int, FakePin] = {}
        self.chips: dict[int, FakeChip] = {}  # chip-select pin id -> chip
        self.inputs: dict[int, FakeChip] = {}  # BUSY pin id -> chip driving it
        self.watchdog_feeds = 0
        machine = self

        class Pin(FakePin):
            def __init__(
                self, pin_id: int, mode: int = -1, pull: int = -1, value: int | None = None
            ) -> None:
                super().__init__(machine, pin_id, mode, pull, value)

        class SPI(FakeSPI):
            def __init__(self, spi_id: int, **settings: object) -> None:
                super().__init__(machine, spi_id, settings)

        class WDT:
            def __init__(self, timeout: int = 0) -> None:
                self.timeout = timeout

            def feed(self) -> None:
                machine.watchdog_feeds += 1

        self.Pin = Pin
        self.SPI = SPI
        self.WDT = WDT

    def attach(self, cs: int, chip: FakeChip, busy: int | None = None) -> None:
        self.chips[cs] = chip
        if busy is not None:
            self.inputs[busy] = chip

    def reset(self) -> None:
        raise MachineReset


class FakePin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(
        self,
        machine: FakeMachine,
        pin_id: int,
        mode: int = -1,
        pull: int = -1,
        value: int | None = None,
    ) -> None:
        self.machine = machine
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self.level = 0 if value is None else value
        machine.pins[pin_id] = self

    def value(self, level: int | None = None) -> int:
        if level is None:
            chip = self.machine.inputs.get(self.id)
            if chip is not None and not chip.absent:
                return chip.busy_level()
            return self.level
        self.level = 1 if level else 0
        return self.level

    def toggle(self) -> None:
        self.level ^= 1


class FakeSPI:
    def __init__(self, machine: FakeMachine, spi_id: int, settings: dict) -> None:
        self.machine = machine
        self.id = spi_id
        self.settings = settings

    def _selected(self) -> FakeChip | None:
        low = [
            cs
            for cs, pin in self.machine.pins.items()
            if cs in self.machine.chips and pin.level == 0
        ]
        assert len(low) <= 1, f"chip selects {low} are low together: bus contention"
        if not low:
            return None
        chip = self.machine.chips[low[0]]
        return None if chip.absent else chip

    def write(self, data: bytes) -> None:
        chip = self._selected()
        if chip is not None:
            chip.spi_write(bytes(data))

    def readinto(self, buf: bytearray, write: int = 0) -> None:
        chip = self._selected()
        data = chip.spi_read(len(buf)) if chip is not None else b"\xff" * len(buf)
        buf[:] = data

    def write_readinto(self, out: bytes, buf: bytearray) -> None:
        chip = self._selected()
        data = chip.spi_transfer(bytes(out)) if chip is not None else b"\xff" * len(out)
        buf[:] = data


class FakeChip:
    absent = False  # nothing soldered on this chip select: MISO floats high

    def busy_level(self) -> int:
        return 0

    def spi_write(self, data: bytes) -> None:
        raise NotImplementedError

    def spi_read(self, count: int) -> bytes:
        raise NotImplementedError

    def spi_transfer(self, data: bytes) -> bytes:
        raise NotImplementedError


# ----------------------------------------------------------------------------- PN5180


def uid_le(uid: str) -> int:
    """ISO 15693 UID (printed MSB first) as the integer whose bit 0 is sent first."""
    return int(uid, 16)


class FakePN5180(FakeChip):
    SYSTEM_CONFIG, IRQ_STATUS, IRQ_CLEAR, RX_STATUS, TX_CONFIG = 0x00, 0x02, 0x03, 0x13, 0x18
    RX_IRQ, TX_IRQ, TX_RFON_IRQ, RX_SOF_DET, GENERAL_ERROR = 1, 2, 1 << 9, 1 << 14, 1 << 17
    RX_COLLISION = 1 << 18
    TX_DATA_ENABLE = 1 << 10

    def __init__(self, tags: list[str] | tuple[str, ...] = (), *, silence_irq: bool = True) -> None:
        self.tags = list(tags)
        self.silence_irq = silence_irq  # silent slot ends with RX_IRQ, length 0
        self.regs = {r: 0 for r in (0x00, 0x02, 0x13, 0x18)}
        self.eeprom = {0x10: bytes((0x05, 0x03))}  # product version 3.5
        self.rf_on = False
        self.config_loaded = False
        self.response = b""
        self.rx_buffer = b""
        self.inventory: tuple[int, int, int] | None = None  # mask, mask bits, slots
        self.slot = 0
        self.busy_stuck = False
        self.garble = False  # answers with an error flag
        self.requests = 0  # inventory requests seen
        self.slots_opened = 0
        self.quiet: set[int] = set()  # tags told to stay quiet (until the field goes off)
        self.weak: set[str] = set()  # drowned by any other tag answering in their slot
        self.quiet_requests = 0

    def busy_level(self) -> int:
        return 1 if self.busy_stuck else 0

    def spi_read(self, count: int) -> bytes:
        data, self.response = self.response[:count], b""
        return data + b"\xff" * (count - len(data))

    def spi_write(self, data: bytes) -> None:
        cmd = data[0]
        if cmd == 0x04:  # READ_REGISTER
            self.response = self.regs.get(data[1], 0).to_bytes(4, "little")
        elif cmd in (0x00, 0x01, 0x02):  # WRITE_REGISTER (/OR/AND)
            reg, value = data[1], int.from_bytes(data[2:6], "little")
            if reg == self.IRQ_CLEAR:
                self.regs[self.IRQ_STATUS] &= ~value
                return
            old = self.regs.get(reg, 0)
            self.regs[reg] = value if cmd == 0 else old | value if cmd == 1 else old & value
        elif cmd == 0x07:  # READ_EEPROM
            self.response = self.eeprom.get(data[1], b"\x00" * data[2])[: data[2]]
        elif cmd == 0x11:  # LOAD_RF_CONFIG
            self.config_loaded = (data[1], data[2]) == (0x0D, 0x8D)
            self.regs[self.TX_CONFIG] = 0x000007C8 | self.TX_DATA_ENABLE
        elif cmd == 0x16:  # RF_ON
            if self.config_loaded:
                self.rf_on = True
                self.regs[self.IRQ_STATUS] |= self.TX_RFON_IRQ
        elif cmd == 0x17:  # RF_OFF
            self.rf_on = False
            self.inventory = None
            self.quiet.clear()
        elif cmd == 0x09:  # SEND_DATA
            self._send(data[2:])
        elif cmd == 0x0A:  # READ_DATA
            self.response = self.rx_buffer
        else:
            raise AssertionError(f"PN5180 command {cmd:#04x} not modelled")

    def _send(self, payload: bytes) -> None:
        if self.regs[self.SYSTEM_CONFIG] & 0x07 != 0x03:
            self.regs[self.IRQ_STATUS] |= self.GENERAL_ERROR  # not in Transceive
            return
        self.regs[self.IRQ_STATUS] |= self.TX_IRQ
        self.regs[self.RX_STATUS] = 0
        if not self.rf_on:
            return
        with_data = bool(self.regs[self.TX_CONFIG] & self.TX_DATA_ENABLE)
        if with_data and payload:
            flags, command, mask_bits = payload[0], payload[1], payload[2]
            if command == 0x02 and flags & 0x20 and not flags & 0x04:  # Stay quiet
                self.quiet_requests += 1
                self.quiet.add(int.from_bytes(payload[2:10], "little"))
                if self.silence_irq:  # no answer: the receiver times out
                    self.regs[self.IRQ_STATUS] |= self.RX_IRQ
                return
            if command != 0x01 or not flags & 0x04:
                return
            mask = int.from_bytes(payload[3 : 3 + (mask_bits + 7) // 8], "little")
            mask &= (1 << mask_bits) - 1
            self.inventory = (mask, mask_bits, 1 if flags & 0x20 else 16)
            self.slot = 0
            self.requests += 1
        elif not with_data and not payload and self.inventory is not None:
            self.slot += 1  # EOF: next slot
            if self.slot >= self.inventory[2]:
                self.inventory = None
                return
        else:
            return
        self.slots_opened += 1
        self._answer()

    def _answer(self) -> None:
        assert self.inventory is not None
        mask, mask_bits, slots = self.inventory
        answering = []
        for uid in self.tags:
            value = uid_le(uid)
            if value in self.quiet or value & ((1 << mask_bits) - 1) != mask:
                continue
            if slots == 16 and (value >> mask_bits) & 0xF != self.slot:
                continue
            answering.append(value)
        strong = [v for v in answering if f"{v:016X}" not in self.weak]
        if strong:
            answering = strong  # capture: the weak tags are not heard
        if not answering:
            if self.silence_irq:
                self.regs[self.IRQ_STATUS] |= self.RX_IRQ
            return
        self.regs[self.IRQ_STATUS] |= self.RX_SOF_DET | self.RX_IRQ
        if len(answering) > 1:
            self.regs[self.RX_STATUS] = self.RX_COLLISION | 10
            return
        flags = 0x01 if self.garble else 0x00
        self.rx_buffer = bytes((flags, 0x00)) + answering[0].to_bytes(8, "little")
        self.regs[self.RX_STATUS] = 10


# ----------------------------------------------------------------------------- MFRC522


def crc_a(data: bytes) -> bytes:
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes((crc & 0xFF, crc >> 8))


class FakeTag14443:
    def __init__(self, uid: str) -> None:
        self.uid = bytes.fromhex(uid)
        self.state = "idle"
        self.level = 0

    def parts(self) -> list[bytes]:
        u = self.uid
        if len(u) == 4:
            chunks = [u]
        elif len(u) == 7:
            chunks = [b"\x88" + u[:3], u[3:]]
        else:
            chunks = [b"\x88" + u[:3], b"\x88" + u[3:6], u[6:]]
        return [c + bytes((c[0] ^ c[1] ^ c[2] ^ c[3],)) for c in chunks]


class FakeMFRC522(FakeChip):
    COMMAND, COM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x06, 0x09, 0x0A
    CONTROL, BIT_FRAMING, TX_CONTROL, T_MODE, VERSION = 0x0C, 0x0D, 0x14, 0x2A, 0x37

    def __init__(self, uids: list[str] | tuple[str, ...] = (), *, version: int = 0x92) -> None:
        self.regs = [0] * 64
        self.regs[self.VERSION] = version
        self.fifo: list[int] = []
        self.tags = [FakeTag14443(u) for u in uids]
        self.silent = False  # never raises an interrupt: a wedged chip
        self.transceives = 0

    def put(self, uid: str) -> None:
        self.tags.append(FakeTag14443(uid))

    def take(self, uid: str) -> None:
        self.tags = [t for t in self.tags if t.uid != bytes.fromhex(uid)]

    # SPI: first byte an address; reads shift out the previous address's value.
    def spi_write(self, data: bytes) -> None:
        address = data[0]
        assert not address & 0x80, "write frame with the read bit set"
        reg = (address >> 1) & 0x3F
        for value in data[1:]:
            self._write(reg, value)

    def spi_transfer(self, data: bytes) -> bytes:
        out = [0]
        for address in data[:-1]:
            assert address & 0x80, "read frame without the read bit"
            out.append(self._read((address >> 1) & 0x3F))
        return bytes(out)

    def _read(self, reg: int) -> int:
        if reg == self.FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == self.FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == self.FIFO_DATA:
            self.fifo.append(value)
        elif reg == self.FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif reg == self.COM_IRQ:
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        elif reg == self.COMMAND:
            if value & 0x0F == 0x0F:  # SoftReset
                version = self.regs[self.VERSION]
                self.regs = [0] * 64
                self.regs[self.VERSION] = version
                self.fifo.clear()
            else:
                self.regs[reg] = value
        elif reg == self.TX_CONTROL:
            if value & 0x03 != 0x03:  # field off: every tag loses power
                for t in self.tags:
                    t.state = "idle"
            self.regs[reg] = value
        elif reg == self.BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.regs[self.COMMAND] & 0x0F == 0x0C:
                self._transceive(value & 0x07)
        else:
            self.regs[reg] = value

    def _transceive(self, last_bits: int) -> None:
        self.transceives += 1
        frame, self.fifo = bytes(self.fifo), []
        self.regs[self.ERROR] = 0
        self.regs[self.CONTROL] &= ~0x07
        if self.silent:
            return
        field = self.regs[self.TX_CONTROL] & 0x03 == 0x03
        answer = self._answer(frame, last_bits) if field else None
        if answer is None:
            if self.regs[self.T_MODE] & 0x80:  # TAuto: the timer ends the wait
                self.regs[self.COM_IRQ] |= 0x01
            return
        data, error = answer
        self.fifo = list(data)
        self.regs[self.ERROR] = error
        self.regs[self.COM_IRQ] |= 0x20 | (0x02 if error else 0)

    def _answer(self, frame: bytes, last_bits: int) -> tuple[bytes, int] | None:
        if last_bits == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            for t in self.tags:  # not valid in READY/ACTIVE: back to IDLE, silent
                if t.state in ("ready", "active"):
                    t.state = "confused"
            woken = [
                t
                for t in self.tags
                if t.state == "idle" or (frame[0] == 0x52 and t.state == "halt")
            ]
            for t in self.tags:
                if t.state == "confused":
                    t.state = "idle"
            for t in woken:
                t.state, t.level = "ready", 0
            return (b"\x44\x00", 0) if woken else None
        if len(frame) == 2 and frame[0] in (0x93, 0x95, 0x97) and frame[1] == 0x20:
            level = (0x93, 0x95, 0x97).index(frame[0])
            ready = [t for t in self.tags if t.state == "ready" and t.level == level]
            parts = {t.parts()[level] for t in ready}
            if not parts:
                return None
            if len(parts) > 1:
                return bytes(5), 0x08  # CollErr
            return parts.pop(), 0
        if len(frame) == 9 and frame[0] in (0x93, 0x95, 0x97) and frame[1] == 0x70:
            if crc_a(frame[:7]) != frame[7:]:
                return None
            level = (0x93, 0x95, 0x97).index(frame[0])
            for t in self.tags:
                if t.state == "ready" and t.level == level and t.parts()[level] == frame[2:7]:
                    more = level + 1 < len(t.parts())
                    t.level = level + 1
                    if not more:
                        t.state = "active"
                    sak = 0x04 if more else 0x00
                    return bytes((sak,)) + crc_a(bytes((sak,))), 0
            return None
        if frame[:2] == b"\x50\x00" and len(frame) == 4 and crc_a(frame[:2]) == frame[2:]:
            for t in self.tags:
                if t.state == "active":
                    t.state = "halt"
            return None
        return None


class AbsentChip(FakeChip):
    """Nothing on this chip select."""

    absent = True
