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


def _literal_words(code):
    """The words ARMv6-M viper code loads with ``ldr rN, [pc, #0]; b.n +2``: how it loads a
    constant it cannot build from 16 bits, and each function's argument-count signature."""
    out = []
    for i in range(0, len(code) - 7):
        if code[i] == 0x00 and 0x48 <= code[i + 1] <= 0x4F and code[i + 2] == 0x01 and code[i + 3] == 0xE0:
            out.append(int.from_bytes(code[i + 4 : i + 8], "little"))
    return out


def _wide_constants(path, tmp_path):
    """The literal words of ``path``'s viper code for the RP2040 that are not a signature."""
    compiler = _mpy_cross()
    assert compiler, "mpy-cross is not installed (make test installs it from requirements-dev.txt)"
    out = tmp_path / "out.mpy"
    proc = subprocess.run([compiler, "-march=armv6m", "-o", str(out), path], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    words = _literal_words(out.read_bytes())
    return ["0x%08x" % w for w in words if w != (w >> 17) << 17 | (w >> 17) << 1]  # a signature: n_min = n_max


def _viper_files():
    return [p for p in _firmware_files() if "@micropython.viper" in open(os.path.join(ROOT, p)).read()]


def test_a_wide_constant_in_viper_code_is_found(tmp_path):
    source = tmp_path / "wide.py"
    source.write_text("import micropython\n\n\n@micropython.viper\ndef wide(x: int) -> int:\n    return x + 0x1000F\n")
    assert _wide_constants(str(source), tmp_path) == ["0x0001000f"]


@pytest.mark.parametrize("path", _viper_files())
def test_viper_code_loads_no_wide_constant(path, tmp_path):
    """A frozen build places native code on a halfword, and ARMv6-M viper loads a constant wider
    than 16 bits from beside the code as if it started on a word: half the functions would read
    their neighbour's bytes (found by the spi-viper branch, whose first frozen build hung)."""
    assert _wide_constants(path, tmp_path) == []
