"""A device process's USB serial as a pseudo-terminal, like a Pico's /dev/ttyACM0.

The simulated table runs the firmware in a child process (the MicroPython unix port, or
CPython) whose stdin/stdout stand for the Pico's USB CDC streams: the firmware's own
``sys.stdin.buffer``/``sys.stdout.buffer`` code path runs unchanged. This bridge copies
bytes between the child's pipes and the master side of a pty; the host tool opens the
slave path with pyserial, exactly as it opens a real Pico.

``restart()`` kills and respawns the child (a simulated reset or power cut) while the pty
path stays the same, so a connected host sees the device go silent and come back.
"""
import os
import subprocess
import threading
import tty


class PtyBridge:
    def __init__(self, argv, cwd=None, env=None, stderr=None):
        self.argv = list(argv)
        self.cwd = cwd
        self.env = env
        self.stderr = stderr
        self.port = None
        self.process = None
        self._master = None
        self._slave = None
        self._lock = threading.Lock()
        self._threads = []
        self._closed = False

    def start(self):
        """Open the pty, start the child and the copy threads; returns the port path."""
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no CR/LF translation: a byte pipe like USB CDC
        self.port = os.ttyname(self._slave)
        self._spawn()
        reader = threading.Thread(target=self._pty_to_child, name="pty->device", daemon=True)
        reader.start()
        self._threads.append(reader)
        return self.port

    def _spawn(self):
        self.process = subprocess.Popen(
            self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0
        )
        writer = threading.Thread(target=self._child_to_pty, args=(self.process,), name="device->pty", daemon=True)
        writer.start()
        self._threads.append(writer)

    def _pty_to_child(self):
        while not self._closed:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                process = self.process
            try:
                process.stdin.write(data)
                process.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass  # the device is down (reset in progress): bytes are lost, as on a real reset

    def _child_to_pty(self, process):
        while True:
            try:
                data = os.read(process.stdout.fileno(), 4096)
            except (OSError, ValueError):
                return
            if not data:
                return
            try:
                os.write(self._master, data)
            except OSError:
                return

    def restart(self):
        """Kill the device process and start it again (a reset); the port path is unchanged."""
        with self._lock:
            old = self.process
            old.kill()
            old.wait()
            self._spawn()

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stop(self):
        self._closed = True
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
