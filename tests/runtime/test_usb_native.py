"""The viper intake loop (runtime/usb_native.py) reads what the bytecode loop reads, says when
the stream ended, and an idle poll through it allocates nothing.

It runs only on MicroPython with a native emitter, so the checks run under the unix port with the
firmware's sources on the path (the unix port compiles the viper code for its own CPU)."""
from unix_port import needs_unix_port, run_on_unix_port

CHECK = r"""
import sys, io, random, select
sys.path.insert(0, "firmware")
sys.path.insert(0, "tests")
from tiletable.runtime.usblink import CHUNK, UsbLink
from tiletable.runtime.usb_native import NativeIntake
from allocation import bytes_allocated, takes_heap

class Feed(io.IOBase):  # the PC's bytes as the USB stream holds them: pollable, a byte a read
    def __init__(self, data, ends):
        self.data = data
        self.at = 0
        self.ends = ends  # past its bytes: a read gives none (the stream ended) or it waits
    def readinto(self, b):
        if self.at >= len(self.data):
            return 0
        b[0] = self.data[self.at]
        self.at += 1
        return 1
    def ioctl(self, request, arg):
        if request == 3:  # MP_STREAM_POLL
            return select.POLLIN if self.at < len(self.data) or self.ends else 0
        return -1

class Server:
    stream = None
    def __init__(self):
        self.got = bytearray()
    def receive(self, chunk):
        self.got.extend(chunk)
        return []

def intake(data, ends, native):
    server = Server()
    link = UsbLink(server, Feed(data, ends), io.BytesIO(), intake=NativeIntake if native else None)
    assert ("_take" in link.__dict__) == native  # the intake in place of the bytecode's
    polls = []
    while not link.closed:
        read = link.poll()
        polls.append(read)
        if read < CHUNK and not ends:
            break
    return bytes(server.got), polls, link.closed

random.seed(14)
count = 0
for size in (0, 1, 511, 512, 513, 1024, 1500):
    for ends in (False, True):
        data = bytes(random.randrange(256) for _ in range(size))
        mine = intake(data, ends, True)
        theirs = intake(data, ends, False)
        assert mine == theirs and mine[0] == data and mine[2] == ends, (size, ends, mine[1], theirs[1])
        count += 1

link = UsbLink(Server(), Feed(b"", False), io.BytesIO(), intake=NativeIntake)
link.poll()  # as test_usblink_idle: the first poll may set things up
def idle():
    for _ in range(50):
        link.poll()
assert bytes_allocated(idle) == 0
assert takes_heap(idle) is False
print("ok", count)
"""


@needs_unix_port
def test_the_viper_intake_reads_what_the_bytecode_reads_and_allocates_nothing_at_idle():
    assert run_on_unix_port(CHECK) == "ok 14"


# the link of an App ``assemble`` makes on the simulated board (sim/), with a pollable USB stream
APP_LINK = r"""
import io, select, sys
sys.path[:0] = ["sim", "firmware"]
import machine
from device import Hardware
from tiletable.runtime.app import assemble

class Feed(io.IOBase):  # no bytes yet, pollable
    def readinto(self, b):
        return 0
    def ioctl(self, request, arg):
        return 0 if request == 3 else -1

def link(root, frozen):
    from tiletable.heap import StockHeap
    from tiletable.heap_frozen import FrozenHeap
    machine.UNIQUE_ID = b"USBNATIV"
    app = assemble(Hardware().board, Feed(), io.BytesIO(), lambda: 0, root=root, policy=FrozenHeap() if frozen else StockHeap())
    return app.link
"""


@needs_unix_port
def test_a_frozen_app_on_micropython_takes_the_viper_intake_and_a_stock_one_the_bytecode(tmp_path):
    # assemble()'s choice, with its imports compiled from source (hence the heap)
    code = APP_LINK + "print('_take' in link(%r, True).__dict__, '_take' in link(%r, False).__dict__)\n"
    (tmp_path / "frozen").mkdir()
    (tmp_path / "stock").mkdir()
    assert run_on_unix_port(code % (str(tmp_path / "frozen"), str(tmp_path / "stock")), heap="4M") == "True False"


def test_cpython_keeps_the_bytecode_intake(tmp_path):
    import io
    import os

    from device import Hardware
    from tiletable.heap_frozen import FrozenHeap
    from tiletable.runtime.app import assemble

    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb", buffering=0) as instream:
        link = assemble(Hardware().board, instream, io.BytesIO(), lambda: 0, root=str(tmp_path), policy=FrozenHeap()).link
        assert link._readable is not None and "_take" not in link.__dict__
    os.close(write_end)
