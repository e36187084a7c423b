"""The simulated table keeps its journal in a directory; on tmpfs when there is one, because
the journal syncs every flush and a disk's fsync would dominate the tests' run time."""
import os
import shutil
import tempfile

import pytest


@pytest.fixture
def table_root():
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    root = tempfile.mkdtemp(prefix="simtable-", dir=base)
    yield root
    shutil.rmtree(root, ignore_errors=True)
