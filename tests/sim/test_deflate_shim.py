"""sim/cpython/deflate.py inflates and fails as MicroPython's own ``deflate`` module does: the
same streams run through the shim and through the MicroPython ports give the same bytes, or the
same kind of error (a back-reference past the window among them), and the simulation charges
the chip's cost of it."""
import io
import os
import random
import shutil
import subprocess
import sys
import zlib

import deflate
import pytest
from chip_costs import INFLATE_NS_PER_BYTE, INFLATE_US, LineMeter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _raw(data, wbits):
    packer = zlib.compressobj(9, zlib.DEFLATED, -wbits)
    return packer.compress(data) + packer.flush()


def _cases():
    text = b'{"a":1,"bbbb":"hello hello hello"}' * 30
    rng = random.Random(1)
    noise = bytes(rng.randrange(256) for _ in range(1500))
    packed = _raw(text, 10)
    return [
        (packed, len(text)),  # whole
        (packed, len(text) - 10),  # more than asked
        (packed, len(text) + 10),  # less than asked
        (packed[:-5], len(text)),  # cut short
        (b"\xff" * 40, 100),  # not a stream
        (_raw(noise + noise, 15), 3000),  # reaches 1500 bytes back, past a 1 KB window
    ]


def _outcome(z, size):
    stream = deflate.DeflateIO(io.BytesIO(z), deflate.RAW, 10)
    buf = bytearray(size)
    try:
        got = stream.readinto(buf)
        return "got %d %r %s" % (got, stream.read(1), bytes(buf[:got]).hex()[:40])
    except OSError as exc:
        return "OSError %d" % exc.errno
    except EOFError:
        return "EOFError"


_SCRIPT = """
import io, deflate
def outcome(z, size):
%s
for z, size in %r:
    print(outcome(z, size))
"""


def _ports():
    ports = []
    unix = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(unix):
        ports.append([unix])
    node = shutil.which("node")
    if node and os.path.exists(os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")):
        ports.append([node, os.path.join(ROOT, "tools", "mpy-wasm.mjs")])
    return ports


@pytest.mark.parametrize("port", _ports(), ids=lambda p: os.path.basename(p[-1]))
def test_the_shim_inflates_and_fails_as_micropython_does(port):
    import inspect

    # in the checkout: tools/mpy-wasm.mjs copies only the checkout's trees into its file system
    script = os.path.join(ROOT, "tests", "sim", "_inflate_%d.py" % os.getpid())
    with open(script, "w") as f:
        f.write(_SCRIPT % (inspect.getsource(_outcome).split("\n", 1)[1], _cases()))
    try:
        proc = subprocess.run(port + [os.path.relpath(script, ROOT)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    finally:
        os.remove(script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [_outcome(z, size) for z, size in _cases()]


def test_inflating_is_charged_at_the_chips_cost():
    text = b'{"a":1,"bbbb":"hello hello hello"}' * 30
    meter = LineMeter()
    buf = bytearray(len(text))
    meter.run(lambda: deflate.DeflateIO(io.BytesIO(_raw(text, 10)), deflate.RAW, 10).readinto(buf))
    assert bytes(buf) == text
    assert meter.cost_us() == INFLATE_US + len(text) * INFLATE_NS_PER_BYTE // 1000
