"""Run by the booted virtual Pi inside a copy of haleakala.service's sandbox (same user,
groups, seccomp filter, file-system and device policy, no network): what the daemon's process
can and cannot do, each answered with "ok" or the errno's name. Stdlib only; prints JSON."""

from __future__ import annotations

import errno
import json
import mmap
import os
import socket
import tempfile
from pathlib import Path


def attempt(fn) -> str:
    try:
        fn()
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, str(exc))
    return "ok"


def write(path: str) -> None:
    fd, name = tempfile.mkstemp(dir=path)
    os.close(fd)
    os.unlink(name)


def executable() -> None:
    area = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        address = ctypes.addressof(ctypes.c_char.from_buffer(area))
        if libc.mprotect(ctypes.c_void_p(address), 4096, 7) != 0:
            raise OSError(ctypes.get_errno(), "mprotect")
    finally:
        area.close()


def status(field: str) -> str:
    with open("/proc/self/status") as f:
        return next(line.split(":", 1)[1].strip() for line in f if line.startswith(field + ":"))


print(json.dumps({
    "read the config": attempt(lambda: Path("/etc/haleakala/config.toml").read_text()),
    "write in the state directory": attempt(lambda: write("/var/lib/haleakala")),
    "write /etc": attempt(lambda: write("/etc")),
    "write /opt/haleakala": attempt(lambda: write("/opt/haleakala")),
    "write /usr": attempt(lambda: write("/usr")),
    "read /etc/shadow": attempt(lambda: Path("/etc/shadow").read_text()),
    "list /root": attempt(lambda: os.listdir("/root")),
    "list /home": attempt(lambda: os.listdir("/home")),
    "open /dev/vda": attempt(lambda: Path("/dev/vda").open("rb").close()),
    "an AF_INET socket": attempt(lambda: socket.socket(socket.AF_INET).close()),
    "write+execute memory": attempt(lambda: mmap.mmap(
        -1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC).close()),
    "make memory executable": attempt(executable),
    "setuid(0)": attempt(lambda: os.setuid(0)),
    "see process 1": attempt(lambda: Path("/proc/1/status").read_text()),
    "Seccomp": status("Seccomp"),
    "NoNewPrivs": status("NoNewPrivs"),
    "user": os.getuid(),
    "groups": sorted(os.getgroups()),
    "umask": oct(os.umask(0o077)),
}))  # fmt: skip
