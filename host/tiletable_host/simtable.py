"""Start the simulated table (sim/device.py) behind a pty, with a client for its control port.

    table = SimulatedTable.start(runtime="cpython")     # or "micropython" (the unix port)
    serial.Serial(table.port)                          # the device's USB serial, like /dev/ttyACM0
    table.control.place(0, "5-5"); table.control.press(1, "long")
    table.control.display()                            # ['  10', '   0', '   0', '   0']
    table.stop()

The device's firmware runs unchanged (``App`` on ``board.setup.build`` over sim/machine.py);
its journal lives in ``root`` (a temporary directory unless given, removed by ``stop()``), so ``restart()`` (a
power cut through the pty bridge) or ``control.reset()`` (a power cut inside the device)
resumes the game in progress. The MicroPython runtime imports the mpy-cross-compiled tree
(tools/build_mpy.py, rebuilt here when sources changed), as the Pico does. The control
protocol is described in sim/device.py.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from tiletable_host import SIM_DIR
from tiletable_host.errors import ControlError
from tiletable_host.ptybridge import PtyBridge

# The checkout the simulated table's sources come from (the MicroPython runtime compiles them
# with its tools/build_mpy.py; an installed wheel runs the CPython one only).
REPO = os.path.dirname(os.path.realpath(SIM_DIR))
MICROPYTHON_HEAP = "1M"  # a whole match: firmware, engine history, wire-level models (64-bit objects)


class ControlCommands:
    """The simulated table's control commands (sim/device.py), each one command line sent
    through ``command(line)``, which a subclass defines (returning the reply after ``ok``): over
    the control port (``ControlClient``) or to a device in the same process (the tests'
    ``LocalControl``)."""

    def place(self, zone, *items):
        return self.command("place %d %s" % (zone, " ".join(items)))

    def remove(self, zone, *items):
        return self.command(("remove %d %s" % (zone, " ".join(items))).rstrip())

    def press(self, button, how="short"):
        return self.command("press %s %s" % (button, how))

    def display(self):
        """What each seat's 4-digit group reads, as a list of 4-character strings."""
        return self.command("display").split("|")

    def leds(self):
        return self.command("leds").split()

    def tones(self):
        return self.command("tones").split()

    def tag(self, item):
        """``(uid hex, record hex)``: a piece's UID and what its pages 4-7 hold now."""
        uid, record = self.command("tag %s" % item).split()
        return uid, record

    def state(self):
        import json

        return json.loads(self.command("state"))

    def wait(self, ms):
        return self.command("wait %d" % ms)

    def reset(self):
        return self.command("reset")

    def heap(self):
        used, free = self.command("heap").split()
        return int(used), int(free)

    def quit(self):
        return self.command("quit")


class ControlClient(ControlCommands):
    """One connection to the device's control port."""

    def __init__(self, port, timeout=30.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.file = self.sock.makefile("rb")

    def command(self, line):
        """Send ``line``; return the reply after ``ok`` (raises ControlError on ``err``)."""
        self.sock.sendall(line.encode() + b"\n")
        reply = self.file.readline().decode().rstrip("\n")
        if not reply:
            raise ControlError("%s: the device closed its control port" % line)
        if reply.startswith("err"):
            raise ControlError("%s: %s" % (line, reply[4:]))
        return reply[3:]

    def close(self):
        self.file.close()
        self.sock.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def held_port():
    """A loopback port held for a device's control port: bound with SO_REUSEADDR and never
    listening, so the device (sim/device.py binds the same way) can bind and listen on it,
    while no other program's choice of a free port or outgoing connection is given it until
    the socket is closed. A port that was only free when chosen could be taken by another
    simulated table (of another test, or another program) before this one's device had
    bound it, and this table's commands then went to that one."""
    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("127.0.0.1", 0))
    return held


def device_argv(runtime, control_port, root, heap=MICROPYTHON_HEAP, lfs=None, stepped=False):
    """The command line that runs sim/device.py on ``runtime`` ("cpython" or "micropython");
    ``stepped``: device time moves only within control commands (sim/device.py's ``--stepped``)."""
    args = ["--control", str(control_port), "--root", root]
    if lfs:
        args += ["--lfs", lfs]
    if stepped:
        args += ["--stepped", "1"]
    if runtime == "cpython":
        return [sys.executable, os.path.join(SIM_DIR, "device.py")] + args
    if runtime == "micropython":
        micropython = os.path.join(os.path.dirname(sys.executable), "micropython")
        script = "import sys; sys.path[:0] = ['firmware', 'sim']; import device; device.main(%r)" % (args,)
        return [micropython, "-X", "heapsize=" + heap, "-c", script]
    raise ValueError("unknown runtime %r (cpython or micropython)" % runtime)


def build_mpy_tree():
    """Compile firmware/ and sim/ with mpy-cross into build/mpy (only what changed)."""
    out = os.path.join(REPO, "build", "mpy")
    if not os.path.isfile(os.path.join(REPO, "tools", "build_mpy.py")):
        raise ControlError("the MicroPython runtime runs from a checkout of the repository (tools/build_mpy.py)")
    subprocess.run([sys.executable, os.path.join(REPO, "tools", "build_mpy.py"), out], check=True, capture_output=True)
    return out


class SimulatedTable:
    def __init__(self, bridge, control, root, control_port, port_hold=None):
        self.bridge = bridge
        self.control = control
        self.root = root
        self.control_port = control_port
        self.port_hold = port_hold  # holds control_port from the start to stop() (``held_port``)
        self.port = bridge.port
        self.temporary_root = False  # True: ``root`` was made for this table and goes with it

    @classmethod
    def start(cls, runtime="cpython", root=None, heap=MICROPYTHON_HEAP, lfs=None, stderr=None, timeout=20.0, stepped=False):
        """Start the device process behind a pty; returns once its control port answers
        (``stepped``: its device time moves only within control commands)."""
        temporary = root is None
        root = root or tempfile.mkdtemp(prefix="simtable-")
        os.makedirs(root, exist_ok=True)  # the device runs in it
        hold = held_port()
        control_port = hold.getsockname()[1]
        cwd = build_mpy_tree() if runtime == "micropython" else root
        bridge = PtyBridge(device_argv(runtime, control_port, root, heap, lfs, stepped), cwd=cwd, stderr=stderr)
        bridge.start()
        table = cls(bridge, None, root, control_port, hold)
        table.temporary_root = temporary
        try:
            table.control = table._connect(timeout)
        except ControlError:
            table.stop()
            raise
        return table

    def _connect(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                return ControlClient(self.control_port)
            except OSError:
                if not self.bridge.alive() or time.monotonic() > deadline:
                    raise ControlError("the simulated device did not open control port %d" % self.control_port)
                time.sleep(0.05)

    def restart(self):
        """Kill the device process and start it again (the pty path stays); reconnects control."""
        self.control.close()
        self.bridge.restart()
        self.control = self._connect(20.0)

    def stop(self):
        if self.control is not None:
            try:
                self.control.quit()
            except (OSError, ControlError):
                pass
            self.control.close()
        self.bridge.stop()
        if self.port_hold is not None:
            self.port_hold.close()
        if self.temporary_root:
            shutil.rmtree(self.root, ignore_errors=True)
