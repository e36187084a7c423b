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
import select
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
        self._wake = None  # (read end, write end): a byte written there ends the copy threads
        self._lock = threading.Lock()
        self._reader = None  # the pty -> device thread
        self._writers = []  # the device -> pty threads (a killed process's may still copy its last bytes)

    def start(self):
        """Open the pty, start the child and the copy threads; returns the port path."""
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no CR/LF translation: a byte pipe like USB CDC
        os.set_blocking(self._master, False)  # a copy thread waits in select(), where stop() wakes it
        self._wake = os.pipe()
        self.port = os.ttyname(self._slave)
        self._spawn()
        self._reader = threading.Thread(target=self._pty_to_child, name="pty->device", daemon=True)
        self._reader.start()
        return self.port

    def _spawn(self):
        self.process = subprocess.Popen(
            self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0
        )
        writer = threading.Thread(target=self._child_to_pty, args=(self.process,), name="device->pty", daemon=True)
        writer.start()
        self._writers.append(writer)

    def _pty_to_child(self):
        master, wake = self._master, self._wake[0]
        while True:
            ready, _, _ = select.select([master, wake], [], [])
            if wake in ready:
                return
            try:
                data = os.read(master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not data:
                return
            with self._lock:  # restart() closes the killed process's stdin only between writes
                try:
                    self.process.stdin.write(data)
                except (ValueError, OSError):
                    pass  # the device is down (reset in progress): bytes are lost, as on a real reset

    def _child_to_pty(self, process):
        """Copy until the process's output ends (it died) or ``stop()`` wakes the thread; while
        the host reads nothing the copy waits, as a full USB buffer holds a Pico's writes."""
        with process.stdout:
            self._copy(process.stdout.fileno())

    def _copy(self, out):
        master, wake = self._master, self._wake[0]
        while True:
            ready, _, _ = select.select([out, wake], [], [])
            if wake in ready:
                return
            data = os.read(out, 4096)
            if not data:
                return
            while data:
                ready, _, _ = select.select([wake], [master], [])
                if ready:
                    return
                try:
                    data = data[os.write(master, data) :]
                except BlockingIOError:
                    pass
                except OSError:
                    return

    def restart(self):
        """Kill the device process and start it again (a reset); the port path is unchanged."""
        old = self.process
        old.kill()  # first: a copy to its stdin that waits for room fails, and lets go of the lock
        old.wait()
        with self._lock:
            old.stdin.close()  # its stdout goes with the copy thread that reads what it wrote last
            self._writers = [writer for writer in self._writers if writer.is_alive()]
            self._spawn()

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stop(self):
        """Kill the device process, end the copy threads, then close the pty: no thread is
        left to read or write a descriptor that is closed, or reused by the next file opened."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self._wake is not None:
            os.write(self._wake[1], b"x")
            for thread in [self._reader] + self._writers:
                thread.join()
        if self.process is not None:
            self.process.stdin.close()
        for fd in (self._master, self._slave) + (self._wake or ()):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = self._wake = None
