"""The Pico's flash file system for the simulated table on CPython: littlefs on a counted chip.

On the Pico the journal and the rulesets live on littlefs in the RP2040's flash (MicroPython's
``_boot.py`` mounts ``os.VfsLfs2(rp2.Flash(), progsize=256)``), and what a file operation costs
there is mostly littlefs's own work: it reads and checks metadata to find a file, commits it
when a file is synced, closed or renamed, and erases a block each time a growing file is synced
(littlefs#374). A plain directory on the PC costs nothing of the kind. ``FlashFs`` puts the same
littlefs (littlefs-python, the same geometry as the Pico's: 4 KB blocks, 352 of them, 32-byte
reads, 256-byte programs, 1 KB cache) on a RAM chip that counts what littlefs asks of it (bytes
read, programs, erases); ``chip_costs.LineMeter`` charges those counts at the chip's costs.

The firmware calls ``open`` and ``os`` itself, so ``install()`` gives the firmware modules that
keep files (journal, rulestore, enrolment, identity, journal reads and streams) this module's
``open`` and ``os`` in their globals: a path under a mounted ``FlashFs`` goes to its littlefs,
any other path to the PC's own file system as before (so other simulations and tests are not
changed). ``App``'s own flag files (self test done, a restart's note) are not routed: it
imports ``os`` inside its functions.

``CountedChip`` can also lose power (``cut_after``) as the Pico's NOR flash does (the rules of
sim/blockdev.py's ``RamBlockDevice``), for tests that cut the simulated table's power at any
instant, and counts each block's erases over its life for the wear figures
(bench/journal_flash.py).
"""
import builtins
import os as _os
import sys
import weakref

from littlefs import FileHandle, LittleFS, LittleFSError, UserContext

from blockdev import mixed_bits

BLOCK_SIZE = 4096
BLOCK_COUNT = 352  # the RPI_PICO build's file system: 1.375 MB
READ_SIZE = 32
PROG_SIZE = 256  # rp2's _boot.py: VfsLfs2(bdev, progsize=256)
CACHE_SIZE = 1024  # MicroPython's vfs_lfs.c: min(block size, 4 * max(read size, prog size))
LOOKAHEAD_SIZE = 32
BLOCK_CYCLES = 100
_LFS_ERR_IO = -5  # what a dead chip answers littlefs: the firmware gets an OSError, as on the Pico

_FILE_MODULES = (
    "tiletable.runtime.journal",
    "tiletable.runtime.journal_read",
    "tiletable.runtime.rulestore",
    "tiletable.runtime.tags",
    "tiletable.runtime.identity",
    "tiletable.proto.stream",
)

_mounts = []  # (path prefix, FlashFs), as MicroPython's mount table


class CountedChip(UserContext):
    """The flash chip under littlefs, in RAM (holding ``image``, the flash as a power-on finds
    it, or erased), counting what is asked of it until ``take()``, and over its life: bytes
    programmed and each block's erases (``block_erases``).

    ``cut_after(steps)`` loses power after that many more steps (a programmed byte or a block
    erase): a program only clears bits, one cut short lands up to the cut (the byte being
    programmed then holds part of its new bits), an erase cut short leaves its block part
    erased; from then on the chip is dead (``is_cut``) and answers littlefs's programs and
    erases with an I/O error. ``image`` is then the flash as the next power-on finds it."""

    def __init__(self, image=None):
        if image is None:
            super().__init__(buffsize=BLOCK_SIZE * BLOCK_COUNT)
        else:
            super().__init__(buffer=bytearray(image))
        self.reads = 0
        self.read_bytes = 0
        self.programs = 0
        self.erases = 0
        self.programmed = 0  # bytes programmed over the chip's life, as the three below
        self.programs_made = 0
        self.erased = 0
        self.block_erases = [0] * BLOCK_COUNT
        self._budget = -1  # steps left before the cut; -1: no cut coming

    @property
    def image(self):
        return self.buffer

    @property
    def steps(self):
        """Steps taken so far (bytes programmed plus blocks erased): where a cut may fall."""
        return self.programmed + self.erased

    def cut_after(self, steps):
        self._budget = steps

    def is_cut(self):
        return self._budget == 0

    def read(self, cfg, block, off, size):
        self.reads += 1
        self.read_bytes += size
        return super().read(cfg, block, off, size)

    def prog(self, cfg, block, off, data):
        if self._budget == 0:
            return _LFS_ERR_IO
        self.programs += 1
        self.programs_made += 1
        size = len(data)
        if 0 < self._budget <= size:
            size = self._budget
        start = block * BLOCK_SIZE + off
        old = bytes(self.buffer[start : start + size])
        cleared = int.from_bytes(old, "little") & int.from_bytes(data[:size], "little")
        self.buffer[start : start + size] = cleared.to_bytes(size, "little")  # NOR: bits only cleared
        self.programmed += size
        if self._budget > 0:
            self._budget -= size
            if self._budget == 0:  # cut while its last byte was programmed: part of its bits
                self.buffer[start + size - 1] = old[-1] & (data[size - 1] | mixed_bits(self.programmed))
                return _LFS_ERR_IO
        return 0

    def erase(self, cfg, block):
        if self._budget == 0:
            return _LFS_ERR_IO
        self.erases += 1
        self.erased += 1
        self.block_erases[block] += 1
        start = block * BLOCK_SIZE
        if self._budget == 1:  # cut during this erase: part of the block is erased
            self._budget = 0
            for i in range(0, BLOCK_SIZE, 64):
                if mixed_bits(self.erased + i) & 1:
                    self.buffer[start + i : start + i + 64] = _ERASED[:64]
            return _LFS_ERR_IO
        self.buffer[start : start + BLOCK_SIZE] = _ERASED
        if self._budget > 0:
            self._budget -= 1
        return 0

    def take(self):
        """(reads, bytes read, programs, erases) since the last ``take``."""
        counts = (self.reads, self.read_bytes, self.programs, self.erases)
        self.reads = self.read_bytes = self.programs = self.erases = 0
        return counts


_ERASED = b"\xff" * BLOCK_SIZE


class FlashFs:
    """A littlefs on a ``CountedChip``, mounted over ``root`` (a PC directory path) until
    ``unmount``: formatted, or the one on ``image`` (a power-on after a cut) as littlefs finds
    it at mount."""

    def __init__(self, root, image=None):
        self.root = root.rstrip("/")
        self.chip = CountedChip(image)
        self.fs = LittleFS(
            self.chip,
            block_size=BLOCK_SIZE,
            block_count=BLOCK_COUNT,
            read_size=READ_SIZE,
            prog_size=PROG_SIZE,
            cache_size=CACHE_SIZE,
            lookahead_size=LOOKAHEAD_SIZE,
            block_cycles=BLOCK_CYCLES,
            mount=False,
        )
        if image is None:
            self.fs.format()
        self.fs.mount()
        self._files = weakref.WeakSet()  # littlefs's file handles opened on it and not yet let go

    def open(self, path, mode):
        """littlefs's ``open``, remembering the handle so that ``unmount`` can let it go."""
        raw = self.fs.open(path, mode, buffering=0) if "b" in mode else self.fs.open(path, mode)
        handle = raw
        while not isinstance(handle, FileHandle):  # a text file: its buffer, then the handle
            handle = getattr(handle, "buffer", None) or handle.raw
        self._files.add(handle)
        return raw

    def copy_in(self):
        """Write the PC directory's files into the flash (as a deploy and earlier sessions left
        it), then count from zero."""
        for folder, dirs, files in _os.walk(self.root):
            inside = folder[len(self.root) :] or "/"
            for name in sorted(dirs):
                self.fs.mkdir(inside.rstrip("/") + "/" + name)
            for name in sorted(files):
                with builtins.open(_os.path.join(folder, name), "rb") as src, self.fs.open(inside.rstrip("/") + "/" + name, "wb") as dst:
                    dst.write(src.read())
        self.fs.unmount()  # mounted again as the Pico mounts it at power-on: the allocator starts afresh
        self.fs.mount()
        self.chip.take()

    def mount(self):
        """Mount over ``root``, in place of any earlier flash there (a new power-on)."""
        _mounts[:] = [m for m in _mounts if m[0] != self.root]
        _mounts.append((self.root, self))
        return self

    def unmount(self):
        """Take it out of the mount table: the power is off. A file the firmware left open is
        let go without a word to littlefs: closing it later (its finaliser, whenever the
        collector gets to the dead table's objects) would run littlefs on a file system whose
        chip is gone and whose state a cut may have left half-written, which crashed the
        process (a segmentation fault in a later test of the same worker)."""
        _mounts[:] = [m for m in _mounts if m[1] is not self]
        for handle in list(self._files):
            setattr(handle, "__IOBase_closed", True)


def _route(path):
    """(FlashFs, path inside it) for a path under a mount, else (None, path)."""
    path = str(path)
    for root, flash in _mounts:
        if path == root or path.startswith(root + "/"):
            return flash, path[len(root) :] or "/"
    return None, path


def _os_error(exc):
    return OSError(abs(int(exc.code)), "littlefs: %s" % exc)


class _File:
    """A littlefs file as MicroPython's: a write goes to littlefs at once, no descriptor."""

    def __init__(self, raw):
        self._raw = raw

    def _call(self, name, *args):
        try:
            return getattr(self._raw, name)(*args)
        except LittleFSError as exc:
            raise _os_error(exc)

    def write(self, data):
        return self._call("write", data)

    def read(self, size=-1):
        return self._call("read", size)

    def readinto(self, buf):
        return self._call("readinto", buf)

    def seek(self, offset, whence=0):
        return self._call("seek", offset, whence)

    def tell(self):
        return self._call("tell")

    def flush(self):
        return self._call("flush")

    def close(self):
        try:
            return self._raw.close()
        except LittleFSError as exc:
            # littlefs let the file go all the same (lfs_file_close): a second close, from the
            # file object's finaliser, would fail its assertion and abort the process
            setattr(self._raw, "__IOBase_closed", True)
            raise _os_error(exc)

    def fileno(self):
        return -1  # no descriptor: ``fsync`` below does nothing with it (flush() synced)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open(path, mode="r"):  # noqa: A001 (the firmware's ``open``)
    flash, inside = _route(path)
    if flash is None:
        return builtins.open(path, mode)
    try:
        if "b" in mode:
            return _File(flash.open(inside, mode))
        return flash.open(inside, mode)
    except LittleFSError as exc:
        raise _os_error(exc)


class _Os:
    """The firmware's ``os``: littlefs under a mount, the PC's ``os`` elsewhere."""

    @staticmethod
    def _on(name, path, *args):
        flash, inside = _route(path)
        if flash is None:
            return getattr(_os, name)(path, *args)
        try:
            return getattr(flash.fs, name)(inside, *args)
        except LittleFSError as exc:
            raise _os_error(exc)

    def listdir(self, path):
        return self._on("listdir", path)

    def mkdir(self, path):
        return self._on("mkdir", path)

    def remove(self, path):
        return self._on("remove", path)

    def rename(self, old, new):
        flash, inside = _route(old)
        if flash is None:
            return _os.rename(old, new)
        try:
            return flash.fs.rename(inside, _route(new)[1])
        except LittleFSError as exc:
            raise _os_error(exc)

    def stat(self, path):
        flash, inside = _route(path)
        if flash is None:
            return _os.stat(path)
        try:
            st = flash.fs.stat(inside)
        except LittleFSError as exc:
            raise _os_error(exc)
        mode = 0x4000 if st.type == 2 else 0x8000
        return (mode, 0, 0, 0, 0, 0, st.size, 0, 0, 0)  # MicroPython's os.stat tuple

    @staticmethod
    def fsync(fd):
        if fd >= 0:
            _os.fsync(fd)


os = _Os()


def install():
    """Give the firmware's file-keeping modules this ``open`` and ``os`` (idempotent)."""
    import importlib

    for name in _FILE_MODULES:
        module = sys.modules.get(name) or importlib.import_module(name)
        module.open = open
        if hasattr(module, "os"):
            module.os = os

