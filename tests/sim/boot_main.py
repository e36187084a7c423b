"""Boot the real firmware/main.py on the MicroPython unix port as a Pico boots it:
``micropython tests/sim/boot_main.py FLASH BUILD [--self-test-done]``.

FLASH is a file standing for the Pico's flash: littlefs (``VfsLfs2``, progsize 256 as the rp2
port mounts it) at ``/``, formatted only when the file holds no filesystem yet, so a second
boot finds what the first one left (the journal, the rulesets, the maintenance flag). BUILD is
the compiled tree of tools/build_mpy.py. At the format its firmware is copied onto the flash
(main.mpy and the tiletable package at ``/``, as ``tiletable deploy`` copies them) and its sim/
to ``/sim`` (the simulated ``machine`` and ``neopixel``, with no peripheral model attached: no
reader answers, the display and LEDs are written to nothing, every button rests at its
pull-up): every import then reads littlefs as on a Pico, and what the heap holds does not
depend on where the build lies on the PC. ``--self-test-done`` leaves the flag of a self test
passed earlier, so no first-run self test holds the table. stdin/stdout are the USB serial port.
"""
import os
import sys
import vfs

sys.path.insert(0, sys.argv[2] + "/sim")
from blockdev import FileBlockDevice  # noqa: E402

_BUILD = "/build"


def _copy_tree(src, dst, chunk):
    """Copy directory ``src`` to ``dst`` (created), file by file through ``chunk``."""
    try:
        os.mkdir(dst)
    except OSError:
        pass
    for name, kind, *_ in os.ilistdir(src):
        if name == "manifest.mpy":  # read by a firmware build only: tiletable deploy leaves it
            continue
        if kind == 0x4000:
            _copy_tree(src + "/" + name, dst + "/" + name, chunk)
            continue
        with open(src + "/" + name, "rb") as source, open(dst + "/" + name, "wb") as target:
            while True:
                n = source.readinto(chunk)
                if not n:
                    break
                target.write(chunk[:n])


flash = FileBlockDevice(sys.argv[1], block_count=352)  # 1408 KB in 4 KB blocks, as the rp2 port's littlefs
vfs.umount("/")
try:
    root = vfs.VfsLfs2(flash, progsize=256)
    vfs.mount(root, "/")
except OSError:
    vfs.VfsLfs2.mkfs(flash, progsize=256)
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), "/")
    vfs.mount(vfs.VfsPosix(sys.argv[2]), _BUILD)
    _copy_tree(_BUILD + "/firmware", "", bytearray(1024))
    _copy_tree(_BUILD + "/sim", "/sim", bytearray(1024))
    vfs.umount(_BUILD)
sys.path[:] = ["", ".frozen", "/lib", "/sim"]  # the Pico's path, and the simulated machine
if "--self-test-done" in sys.argv:
    with open("/selftest.done", "w") as f:
        f.write("TEST OK")
import main  # noqa: E402,F401  (start() runs until MAINTENANCE resets the "board")
