"""Boot the real firmware/main.py on the MicroPython unix port, with nothing attached, in a
sandbox: ``micropython tests/sim/boot_main.py SANDBOX``.

SANDBOX is a directory that becomes the Pico's ``/`` (``vfs.VfsPosix`` mounted at ``/``), so
main.py's absolute paths (/journal, /rulesets, /maintenance) land inside it; it holds ``lib``
(the compiled firmware tree, main.mpy included) and ``sim`` (the simulated ``machine`` and
``neopixel``, with no peripheral model attached: no reader answers, the display and LEDs are
written to nothing, every button rests at its pull-up). stdin/stdout are the USB serial port.
"""
import sys
import vfs

sandbox = sys.argv[1]
vfs.umount("/")
vfs.mount(vfs.VfsPosix(sandbox), "/")
sys.path[:] = ["", ".frozen", "/lib", "/sim"]  # the Pico's path, and the simulated machine
import main  # noqa: E402,F401  (start() runs until MAINTENANCE resets the "board")
