"""Flash chips for MicroPython's littlefs (``os.VfsLfs2``): in a file, or in RAM losing power mid-write.

``FileBlockDevice`` keeps the flash in a file (the simulated table's ``--lfs`` image, the
Pico's flash in tests/sim/boot_main.py).

It speaks the extended block-device protocol (``readblocks``/``writeblocks`` with a byte
offset, ``ioctl`` 4/5/6 for count, size and erase), counts what littlefs does to the flash
(program calls, bytes programmed, block erases), and with ``cut_after(n)`` stops dead after
``n`` more steps (a programmed byte or a block erase is one step), as if the table's plug were
pulled, and raises ``PowerCut``. ``RamBlockDevice`` behaves as the Pico's NOR flash does:

* a program only clears bits (``old & new``): programming a byte that was not erased does
  not give the new value;
* a program cut short lands up to the cut; the byte being programmed then holds a mix of
  its old and new bits, and the bytes after it keep their old contents;
* an erase cut short leaves its block part erased (0xFF), part as it was.

From then on the chip is dead: writes and erases are ignored (a file object that littlefs
closes later, from a finaliser, changes nothing). ``image`` is then the flash as a reboot
would find it; mount a new ``RamBlockDevice(image=...)`` to recover.
"""

_IOCTL_BLOCK_COUNT = 4
_IOCTL_BLOCK_SIZE = 5
_IOCTL_BLOCK_ERASE = 6


class PowerCut(Exception):
    """The simulated supply failed; not an OSError, so no firmware code can swallow it."""


class _Flash:
    """The ``ioctl`` side of the block protocol both chips share; each erases its own way."""

    def ioctl(self, op, arg):
        if op == _IOCTL_BLOCK_COUNT:
            return self.block_count
        if op == _IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == _IOCTL_BLOCK_ERASE:
            self.erase(arg)
        return 0  # init, deinit, sync: nothing to do


def mixed_bits(seed):
    """A byte of bits half set, the same for the same seed (a torn program or erase)."""
    x = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x & 0xFF


_erased_blocks = {}  # block size -> an erased block, shared: sweeps make thousands of chips


def _erased_block(size):
    if size not in _erased_blocks:
        _erased_blocks[size] = b"\xff" * size
    return _erased_blocks[size]


class RamBlockDevice(_Flash):
    def __init__(self, block_size=4096, block_count=12, image=None):
        """A flash of ``block_count`` blocks, erased, or holding ``image`` (kept, not copied)."""
        self.block_size = block_size
        self.block_count = block_count
        self._erased = _erased_block(block_size)
        if image is None:
            image = bytearray(block_size * block_count)
            for block in range(block_count):
                image[block * block_size : (block + 1) * block_size] = self._erased
        self.image = image
        self._budget = -1  # bytes that may still be programmed; -1 for no limit
        self.program_calls = 0
        self.programmed = 0
        self.erases = 0
        self.erase_steps = []  # the step each erase was (cut_after(step) cuts it)

    def cut_after(self, steps):
        """Lose power after ``steps`` more steps (a programmed byte, or a block erase)."""
        self._budget = steps

    @property
    def steps(self):
        """Steps taken so far (bytes programmed plus blocks erased): where a cut may fall."""
        return self.programmed + self.erases

    def is_cut(self):
        return self._budget == 0

    def readblocks(self, block, buf, offset=0):
        start = block * self.block_size + offset
        if self._budget == 0:
            # after the cut only finalisers of the lost file system read (closing their files),
            # with the heap locked: copy without allocating
            for i in range(len(buf)):
                buf[i] = self.image[start + i]
            return
        buf[:] = memoryview(self.image)[start : start + len(buf)]

    def writeblocks(self, block, buf, offset=0):
        start = block * self.block_size + offset
        size = len(buf)
        if self._budget == 0:
            return
        cut = 0 < self._budget <= size
        if cut:
            size = self._budget
        image = self.image
        last = start + size - 1  # the byte being programmed if the power goes now
        was = image[last]
        if image[start : start + size] == self._erased[:size]:
            image[start : start + size] = memoryview(buf)[:size]  # erased: the same as and-ing
        else:
            for i in range(size):
                image[start + i] &= buf[i]
        self.program_calls += 1
        self.programmed += size
        if self._budget > 0:
            self._budget -= size
            if cut:  # some of its bits were cleared, some not yet
                image[last] = was & (buf[size - 1] | mixed_bits(self.programmed))
                raise PowerCut("power cut during a write of %d bytes" % len(buf))

    def erase(self, block):
        if self._budget == 0:
            return  # the chip is dead
        start = block * self.block_size
        self.erases += 1
        self.erase_steps.append(self.steps)
        if self._budget == 1:  # cut during this erase: a part of the block is erased
            self._budget = 0
            for i in range(0, self.block_size, 64):
                if mixed_bits(self.erases + i) & 1:
                    self.image[start + i : start + i + 64] = self._erased[:64]
            raise PowerCut("power cut during the erase of block %d" % block)
        self.image[start : start + self.block_size] = self._erased
        if self._budget > 0:
            self._budget -= 1


class FileBlockDevice(_Flash):
    """A flash in a file (``os.VfsLfs2`` block protocol, extended interface): blocks are read
    and programmed in place, so nothing but one block passes through RAM, and an erase
    allocates nothing (the erased block is made once)."""

    def __init__(self, path, block_size=4096, block_count=128):
        self.block_size = block_size
        self.block_count = block_count
        self._erased = b"\xff" * block_size
        try:
            self.file = open(path, "r+b")
        except OSError:
            self.file = open(path, "w+b")
            for _ in range(block_count):
                self.file.write(self._erased)
            self.file.flush()

    def readblocks(self, block, buf, offset=0):
        self.file.seek(block * self.block_size + offset)
        self.file.readinto(buf)

    def writeblocks(self, block, buf, offset=0):
        self.file.seek(block * self.block_size + offset)
        self.file.write(buf)
        self.file.flush()

    def erase(self, block):
        self.writeblocks(block, self._erased)
