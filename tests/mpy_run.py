"""Run portable test modules (see tests/portable.py) under MicroPython, or CPython.

    micropython -X heapsize=192K tests/mpy_run.py tests/engine/test_tiles.py [...]
    micropython -X heapsize=192K tests/mpy_run.py tests/engine/test_tiles.py::test_name

Every ``test_*`` function of every module named is called (or only the one named after
``::``); the last line printed is ``N passed, M failed`` and the exit status is 1 when
anything failed.
"""
import sys

try:  # the WebAssembly port has no usable sys.argv: tools/mpy-wasm.mjs writes this module
    from _mpy_argv import ARGV
except ImportError:
    ARGV = sys.argv

for _p in ("tests", "sim", "firmware"):
    if _p not in sys.path:
        sys.path.insert(0, _p)


def _module_name(path):
    name = path
    if name.startswith("tests/"):
        name = name[6:]
    if name.endswith(".py"):
        name = name[:-3]
    return name.replace("/", ".")


def _print_exception(exc):
    try:
        sys.print_exception(exc)
    except AttributeError:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__)


def _stock_heap():
    """The heap policy of a Pico with a stock build, where a test's modules are heap as they
    are there (None on CPython). Its heap is collected every 16 KB allocated (``keep_packed``),
    and the modules a test imported are unloaded after it, as the table unloads what a task
    imported. Without these the tests' garbage and code piled up in small pieces, and where
    a test ran out of heap moved by 8 KB and more with any change around it: CI ran out in a
    192 KB heap where this machine passed at 184 KB."""
    if sys.implementation.name != "micropython":
        return None
    from tiletable.heap import StockHeap, keep_packed

    keep_packed()
    return StockHeap()


def main(paths):
    import gc

    policy = _stock_heap()
    passed = failed = 0
    for path in paths:
        path, _, only = path.partition("::")
        modname = _module_name(path)
        try:
            module = __import__(modname, None, None, ["_"])
        except Exception as exc:
            print("FAIL import", modname)
            _print_exception(exc)
            failed += 1
            continue
        gc.collect()  # the import's garbage, as between tests
        loaded = set(sys.modules)
        for name in sorted(dir(module)):
            if not name.startswith("test_") or only and name != only:
                continue
            fn = getattr(module, name)
            if not callable(fn):
                continue
            try:
                fn()
                passed += 1
            except Exception as exc:
                failed += 1
                print("FAIL %s::%s" % (modname, name))
                _print_exception(exc)
            if policy is not None:
                policy.release(loaded)
            gc.collect()
    print("%d passed, %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    if main(ARGV[1:]):
        sys.exit(1)
