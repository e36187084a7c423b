"""Empty scratch directories for file-system tests on CPython and MicroPython alike."""
import os

try:
    import tempfile

    _BASE = tempfile.mkdtemp(prefix="tiletable-")
except ImportError:  # MicroPython: /tmp exists on the unix port and in the WebAssembly port's memory FS
    _BASE = "/tmp/tiletable-tests"


def remove_tree(path):
    """Delete ``path`` and everything under it (no shutil on MicroPython)."""
    try:
        mode = os.stat(path)[0]
    except OSError:
        return
    if mode & 0x4000:
        for name in os.listdir(path):
            remove_tree(path + "/" + name)
        os.rmdir(path)
    else:
        os.remove(path)


def empty_dir(path):
    """``path`` as an empty directory, whatever an earlier run left there."""
    remove_tree(path)
    os.mkdir(path)
    return path


def fresh_dir(name):
    """An empty directory ``<base>/<name>`` (emptied if an earlier test left it)."""
    try:
        os.mkdir(_BASE)
    except OSError:
        pass
    return empty_dir(_BASE + "/" + name)


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)
