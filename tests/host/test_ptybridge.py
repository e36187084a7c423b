"""The pty bridge: a MicroPython process's stdin/stdout reached through pyserial like a Pico."""
import os
import sys
import time

import pytest
import serial

from tiletable_host.ptybridge import PtyBridge

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")

# Echo every byte back incremented by one, through the same calls the firmware's USB link uses.
ECHO = """
import sys, select
poller = select.poll()
poller.register(sys.stdin, select.POLLIN)
one = bytearray(1)
while True:
    if not poller.poll(1000):
        continue
    if not sys.stdin.buffer.readinto(one):
        break
    one[0] = (one[0] + 1) & 0xFF
    sys.stdout.buffer.write(one)
"""


def _runtimes():
    out = [[sys.executable, "-u", "-c", ECHO.replace("sys.stdin.buffer.readinto(one)", "sys.stdin.buffer.raw.readinto(one)")]]
    if os.path.exists(MICROPYTHON):
        out.append([MICROPYTHON, "-c", ECHO])
    return out


def _read_exactly(port, count, deadline=5.0):
    data = b""
    end = time.time() + deadline
    while len(data) < count and time.time() < end:
        data += port.read(count - len(data))
    return data


@pytest.mark.parametrize("argv", _runtimes(), ids=lambda a: os.path.basename(a[0]))
def test_bytes_cross_the_pty_unchanged_including_0x03_and_0x00(argv):
    bridge = PtyBridge(argv, cwd=ROOT)
    port_path = bridge.start()
    try:
        with serial.Serial(port_path, 115200, timeout=0.2) as port:
            payload = bytes(range(256)) * 4
            port.write(payload)
            echoed = _read_exactly(port, len(payload))
            assert echoed == bytes((b + 1) & 0xFF for b in payload)
    finally:
        bridge.stop()


def test_restart_keeps_the_port_path_and_the_device_answers_again():
    bridge = PtyBridge(_runtimes()[-1], cwd=ROOT)
    port_path = bridge.start()
    try:
        with serial.Serial(port_path, 115200, timeout=0.2) as port:
            port.write(b"a")
            assert _read_exactly(port, 1) == b"b"
            first = bridge.process.pid
            bridge.restart()
            assert bridge.process.pid != first and bridge.port == port_path
            time.sleep(0.2)
            port.write(b"x")
            assert _read_exactly(port, 1) == b"y"
    finally:
        bridge.stop()
    assert not bridge.alive()


def test_stop_ends_the_copy_threads_before_it_closes_the_pty(monkeypatch):
    """A device that writes on while nobody reads the port: ``stop()`` ends both copy threads,
    neither failing, before it closes the pty, so none is left to read or write a descriptor
    number the next file opened in the process (a database, another table's pty) is given."""
    import threading

    failures = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    chatter = "import sys\nwhile True:\n    sys.stdout.buffer.write(bytes(4096))\n"
    bridge = PtyBridge([sys.executable, "-u", "-c", chatter], cwd=ROOT)
    before = set(threading.enumerate())
    bridge.start()
    threads = [thread for thread in threading.enumerate() if thread not in before]
    with serial.Serial(bridge.port, timeout=1) as port:
        assert _read_exactly(port, 100) == bytes(100)  # the device runs; the pty fills up behind it
    master, close = bridge._master, os.close
    alive_at_close = []

    def closing(fd):
        if fd == master:
            alive_at_close.extend(thread.name for thread in threads if thread.is_alive())
        close(fd)

    monkeypatch.setattr(os, "close", closing)
    bridge.stop()
    assert len(threads) == 2 and alive_at_close == [] and failures == []
