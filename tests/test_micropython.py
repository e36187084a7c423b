"""Prove the firmware on real MicroPython: portable tests under the unix port and the
WebAssembly port, and every firmware file through ``mpy-cross -march=armv6m``.

MicroPython runs the mpy-cross output (tools/build_mpy.py mirrors firmware/, sim/ and
tests/ into build/mpy), as the Pico does after ``tiletable deploy``."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)


def _portable_modules():
    found = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in sorted(files):
            if name.startswith("test_") and name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path) as handle:
                    if handle.readline().strip() == "# portable":
                        found.append(os.path.relpath(path, ROOT))
    return sorted(found)


def _unix_port():
    for candidate in (os.path.join(BIN, "micropython"), shutil.which("micropython")):
        if candidate and os.path.exists(candidate):
            return [candidate, "-X", "heapsize=192K"]
    return None


def _wasm_port():
    node = shutil.which("node")
    if node and os.path.exists(os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")):
        return [node, os.path.join(ROOT, "tools", "mpy-wasm.mjs"), "-X", "heapsize=192K"]
    return None


RUNTIMES = {"unix": _unix_port(), "wasm": _wasm_port()}
MODULES = _portable_modules()
BUILD = os.path.join(ROOT, "build", "mpy")


@pytest.fixture(scope="session")
def compiled_tree():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import build_mpy
    finally:
        sys.path.pop(0)
    failures = build_mpy.build(BUILD)
    blocking = [(path, err) for path, err in failures if not _cpython_only(path)]
    assert not blocking, "mpy-cross rejects: %s" % blocking
    return BUILD


def _cpython_only(path):
    if not path.startswith("tests" + os.sep) or path in MODULES:
        return False
    with open(os.path.join(ROOT, path)) as handle:
        return "import pytest" in handle.read()


def test_a_micropython_runtime_is_installed():
    assert any(RUNTIMES.values()), "neither the MicroPython unix port nor the WebAssembly port is installed"


def test_portable_tests_exist():
    assert MODULES, "no portable test modules found"


@pytest.mark.parametrize("runtime", sorted(RUNTIMES))
@pytest.mark.parametrize("module", MODULES)
def test_portable_module_on_micropython(runtime, module, compiled_tree):
    command = RUNTIMES[runtime]
    if command is None:
        if runtime == "unix" and RUNTIMES["wasm"]:
            pytest.skip("the unix port's wheel is x86_64-only; the WebAssembly port covers this machine")
        pytest.fail("MicroPython %s port is not installed" % runtime)
    if runtime == "wasm":
        command = [command[0], os.path.join(ROOT, "tools", "mpy-wasm.mjs")] + command[2:]
    proc = subprocess.run(
        command + ["tests/mpy_run.py", module], cwd=compiled_tree, capture_output=True, text=True, timeout=900
    )
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines and lines[-1].endswith(" 0 failed"), proc.stdout[-4000:] + proc.stderr[-2000:]


def _firmware_files():
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out.extend(os.path.relpath(os.path.join(folder, f), ROOT) for f in files if f.endswith(".py"))
    return sorted(out)


def _mpy_cross():
    for candidate in (os.path.join(BIN, "mpy-cross"), shutil.which("mpy-cross")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.mark.parametrize("path", _firmware_files())
def test_firmware_file_compiles_for_rp2040(path, tmp_path):
    compiler = _mpy_cross()
    assert compiler, "mpy-cross is not installed (make test installs it from requirements-dev.txt)"
    proc = subprocess.run(
        [compiler, "-march=armv6m", "-o", str(tmp_path / "out.mpy"), path], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
