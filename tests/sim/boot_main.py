"""Boot the real firmware/main.py on the MicroPython unix port as a Pico boots it:
``micropython tests/sim/boot_main.py FLASH BUILD [--self-test-done]``.

FLASH is a file standing for the Pico's flash: littlefs (``VfsLfs2``, progsize 256 as the rp2
port mounts it) at ``/``, formatted only when the file holds no filesystem yet, so a second
boot finds what the first one left (the journal, the rulesets, the maintenance flag). BUILD is
the compiled tree of tools/build_mpy.py: its firmware is mounted at ``/lib`` (main.mpy and the
tiletable package, as ``tiletable deploy`` copies them), its sim/ at ``/sim`` (the simulated
``machine`` and ``neopixel``, with no peripheral model attached: no reader answers, the
display and LEDs are written to nothing, every button rests at its pull-up).
``--self-test-done`` leaves the flag of a self test passed earlier, so no first-run self test
holds the table. stdin/stdout are the USB serial port.
"""
import sys
import vfs

sys.path.insert(0, sys.argv[2] + "/sim")
from blockdev import FileBlockDevice  # noqa: E402

flash = FileBlockDevice(sys.argv[1], block_count=352)  # 1408 KB in 4 KB blocks, as the rp2 port's littlefs
lib = vfs.VfsPosix(sys.argv[2] + "/firmware")
sim = vfs.VfsPosix(sys.argv[2] + "/sim")
vfs.umount("/")
try:
    root = vfs.VfsLfs2(flash, progsize=256)
except OSError:
    vfs.VfsLfs2.mkfs(flash, progsize=256)
    root = vfs.VfsLfs2(flash, progsize=256)
vfs.mount(root, "/")
vfs.mount(lib, "/lib")
vfs.mount(sim, "/sim")
sys.path[:] = ["", ".frozen", "/lib", "/sim"]  # the Pico's path, and the simulated machine
if "--self-test-done" in sys.argv:
    with open("/selftest.done", "w") as f:
        f.write("TEST OK")
import main  # noqa: E402,F401  (start() runs until MAINTENANCE resets the "board")
