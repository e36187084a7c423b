"""Put the firmware, the simulated peripherals and the CPython shims on sys.path.

The host imports the firmware's engine as is; the simulated hardware (sim/) stands in
for the Pico's buses; sim/cpython/ supplies the few MicroPython-only modules
(``micropython.const``) that drivers use, for CPython only.
"""
import gc
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("sim/cpython", "sim", "firmware", "tests", "tools"):
    path = os.path.join(ROOT, sub)
    if path not in sys.path:
        sys.path.insert(0, path)

# The PC tool's default database (db.default_path) in a directory of this test process, not
# the user's: a run beside this one (another checkout, another pytest-xdist worker) must not
# share it, nor a database another version of the tool wrote.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="tiletable-data-")
os.environ.pop("TILETABLE_DB", None)  # the user's club server is never a test's database
# The MicroPython unix port expands the "~" of its default module path with $HOME into strings
# on its heap, so what a Pico-sized heap had left depended on the length of the machine's home
# directory (a CI machine's held a Buki start some bytes short). The tests fix the path: the
# port's own default without the home entry (a booted table sets the Pico's, tests/sim/boot_main.py).
os.environ["MICROPYPATH"] = ".frozen:/usr/lib/micropython"


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def postgres_cluster():
    """A throwaway PostgreSQL cluster for this test process (tools/pgcluster.py), started on
    first use; each test takes a database of its own from it (``postgres_url``)."""
    import pgcluster

    reason = pgcluster.available()
    if reason:
        pytest.skip(reason)
    cluster = pgcluster.PgCluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster):
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    import pgcluster

    url = postgres_cluster.create_database()
    yield url
    postgres_cluster.drop_database(pgcluster.database_name(url))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_engine(request):
    """Each test that takes it runs on both engines: a SQLite file and a PostgreSQL database."""
    return request.param


@pytest.fixture
def new_db(request, db_engine, tmp_path):
    """Makes new, empty databases of the engine under test: ``new_db("name")`` is a SQLite
    path in the test's folder, or the URL of a new PostgreSQL database (dropped after the test)."""
    made = []

    def make(name="t"):
        if db_engine == "sqlite":
            return str(tmp_path / (name + ".db"))
        cluster = request.getfixturevalue("postgres_cluster")
        made.append(cluster.create_database())
        return made[-1]

    yield make
    import pgcluster

    for url in made:
        request.getfixturevalue("postgres_cluster").drop_database(pgcluster.database_name(url))


@pytest.fixture
def db_target(new_db):
    """A new, empty database of the engine under test (see ``new_db``)."""
    return new_db()


@pytest.fixture(autouse=True)
def _firmware_modules_kept():
    """The table unloads a game family's modules when another family is played (heap on a
    Pico): put them back after each test, so a later test's imports find the module objects
    its own module-level imports were bound to."""
    saved = {name: module for name, module in sys.modules.items() if name.startswith("tiletable.")}
    yield
    for name, module in saved.items():
        if sys.modules.get(name) is not module:
            sys.modules[name] = module
            package, _, attr = name.rpartition(".")
            if package in sys.modules:
                setattr(sys.modules[package], attr, module)


@pytest.fixture(scope="module", autouse=True)
def _earlier_files_heap_set_aside():
    """Each test file starts on a collected heap and its collections see only its own objects:
    what earlier files in this worker left is collected first, and what outlives the collection
    (modules, caches) is frozen (``gc.freeze``). The firmware run in-process collects often (a
    sync's first list page, a charged table after each play); each of those collections walked
    the whole worker's heap, so a file's time, and which garbage was finalized in the middle of
    its work, depended on what ran before it."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


# The files that take longest, longest first (the MicroPython ports, the MicroPython device in a
# Pico's heap, the browser): ``--dist loadfile`` hands whole files to the workers in collection
# order, and one collected last ran on one worker for minutes after the other had finished.
LONGEST_FIRST = ("test_micropython.py", "test_device_micropython.py", "test_serve_browser.py")


def pytest_collection_modifyitems(items):
    """Collect ``LONGEST_FIRST`` first, each file's tests in their order."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
