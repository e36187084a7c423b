"""A PC that stops reading never stops the game (runtime/usblink.py: output never blocks).

The simulated table's USB port writes into a pipe shrunk to 8 KB, as a Pico's CDC FIFO fills
when the PC does not read. A PC that opened the port and never reads, and one that reads a
byte at a time, both watch a whole match being played: the table takes every tile, frames
that found no room are dropped whole, and what reaches the PC decodes frame by frame.
"""
import fcntl
import os
import threading
import time

import device
from player import LinePlayer, LocalControl, _NoControlPort

from tiletable.proto.frame import FrameDecoder

F_SETPIPE_SZ = 1031  # Linux fcntl: the pipe's capacity
PIPE_BYTES = 8192  # a pipe says "writable" with 4 KB free: it takes 4 KB and a piece


def _table_writing_into(root, out):
    usb_in, _ = os.pipe()
    pieces = device.Pieces()
    usb = os.fdopen(usb_in, "rb", buffering=0)
    return LocalControl(lambda: device.Device(str(root), _NoControlPort(), pieces, usb, out))


def _small_pipe():
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, F_SETPIPE_SZ, PIPE_BYTES)
    return read_end, os.fdopen(write_end, "wb", buffering=0)


def _play_in_thread(control, seconds=240):
    """Play a Muggins match; a write that blocks leaves the thread stuck, and the test fails."""
    result = {}

    def play():
        result["god"] = LinePlayer(control, "muggins", 2, seed=3).play_match()
        result["table"] = control.state()

    worker = threading.Thread(target=play, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the table stopped: a write to the PC blocked"
    return result


def _frames(data):
    decoder = FrameDecoder()
    count = sum(1 for _ in decoder.feed(data))
    return count, decoder.bad


def test_a_pc_that_never_reads_does_not_stop_the_match(tmp_path):
    read_end, out = _small_pipe()
    control = _table_writing_into(tmp_path, out)
    result = _play_in_thread(control)
    assert result["god"].is_over() and result["table"]["mode"] == "over"
    link = control.device.app.link
    assert link.dropped > 0 and link.pending() > 0  # frames waited, the rest were dropped whole
    os.set_blocking(read_end, False)
    data = os.read(read_end, PIPE_BYTES * 2)
    count, bad = _frames(data[: data.rindex(b"\x00") + 1])
    assert count > 10 and bad == 0


def test_a_pc_that_reads_a_byte_at_a_time_does_not_stop_the_match(tmp_path):
    read_end, out = _small_pipe()
    control = _table_writing_into(tmp_path, out)
    received = bytearray()
    stop = threading.Event()

    def slow_pc():
        while not stop.is_set():
            received.extend(os.read(read_end, 1))
            time.sleep(0.001)

    reader = threading.Thread(target=slow_pc, daemon=True)
    reader.start()
    try:
        result = _play_in_thread(control)
    finally:
        stop.set()
    assert result["god"].is_over() and result["table"]["mode"] == "over"
    reader.join(5)
    os.set_blocking(read_end, False)  # then the PC reads what waits in the pipe: how much that is
    try:  # depends on how fast the match went
        received.extend(os.read(read_end, PIPE_BYTES * 2))
    except BlockingIOError:
        pass
    count, bad = _frames(bytes(received[: received.rindex(b"\x00") + 1]))
    assert count > 10 and bad == 0
