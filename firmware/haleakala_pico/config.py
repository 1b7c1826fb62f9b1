"""Build-time settings of the RFID Pico: pins, reader chips, timing.

Edit this file to match the wiring, then copy the firmware to the Pico (see
firmware/PROTOCOL.md). The host learns the reader kinds, the debounce and the snapshot rate
from the ``hello`` frame, so nothing here has to be repeated in the Pi's config.

Default wiring (Pico GPIO numbers): SPI0 on GP18 (SCK), GP19 (MOSI), GP16 (MISO), shared by
all six readers; each reader has its own chip select and reset, and a PN5180 also its BUSY
line. Beach N is the beach of island segment N.
"""

SPI_ID = 0
SPI_BAUD = 2000000  # PN5180 allows 7 MHz, MFRC522 10 MHz; 2 MHz forgives long wires
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16

PN5180 = "pn5180"
MFRC522 = "mfrc522"
READER_KINDS = (PN5180, MFRC522)

# One entry per beach, beach 0 first. "busy" is used by the PN5180 only.
READERS = (
    {"kind": PN5180, "cs": 17, "busy": 2, "rst": 3},
    {"kind": PN5180, "cs": 20, "busy": 4, "rst": 5},
    {"kind": PN5180, "cs": 21, "busy": 6, "rst": 7},
    {"kind": PN5180, "cs": 22, "busy": 8, "rst": 9},
    {"kind": PN5180, "cs": 26, "busy": 10, "rst": 11},
    {"kind": PN5180, "cs": 27, "busy": 12, "rst": 13},
)

# Beaches scanned at the same time, one on each of the RP2040's two cores (cores.py): two
# opposite beaches, so the two RF fields are the island's width apart. The readers share the
# SPI bus, one transaction at a time. ((0,), (1,), (2,), (3,), (4,), (5,)) scans one beach
# after another (firmware 1.1 and before), at about twice the round time.
SCAN_GROUPS = ((0, 3), (1, 4), (2, 5))

DEBOUNCE_SCANS = 2  # consecutive agreeing scans before a tag counts as come or gone
SNAPSHOT_PERIOD_MS = 100  # a full snapshot at least this often (10 Hz), and on every change
HEARTBEAT_PERIOD_MS = 1000
HELLO_PERIOD_MS = 5000  # hello repeated so a host that connects late learns who we are
FAULT_RETRY_MS = 1000  # a faulted reader is re-initialised this often
# Hardware watchdog: a hung scan loop reboots the Pico. 0 = off. Every reader wait has its own
# timeout, so this is a second line of defence; with it on, interrupting main.py (mpremote,
# Thonny) reboots the Pico after this long, which makes updating the firmware awkward.
WATCHDOG_MS = 0
STATUS_LED = 25  # on-board LED (Pico, not Pico W): toggles once per scan round
