"""Installed rulesets: one JSON document per file, replaced atomically when the host syncs.

Layout (one directory, default ``/rulesets``)::

    muggins.json    an installed ruleset document, exactly the bytes the host sent
    muggins.tmp     an upload in progress; removed at open (an interrupted sync)

An upload streams into ``<name>.tmp``; ``commit`` reads the file back, validates it with
``rulesets.load_ruleset``, checks that the document's name and content hash are the announced
ones, and only then renames it over ``<name>.json``. A power cut or a failed check at any step
leaves the previous ruleset in place (rename is atomic on littlefs and POSIX).
"""

import os

from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import load_ruleset

MAX_DOCUMENT = 4096  # bytes; the largest preset document is well under 1.5 KB
# The most rulesets installed at once: the ruleset list is one reply, and 20 rows of the
# longest names fit its payload with room to spare (a test encodes it).
MAX_RULESETS = 20

_SUFFIX = ".json"
_TEMP_SUFFIX = ".tmp"


def is_ruleset_name(name):
    """Whether ``name`` is a valid ruleset name (also keeps uploads inside the store's directory)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 24:
        return False
    for ch in name:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch in "-_"):
            return False
    return True


class RuleStore:
    """The rulesets installed in directory ``root``.

    Example::

        store = RuleStore("/rulesets")
        upload = store.begin_put("muggins", len(data), expected_hash)
        upload.write(0, data)
        ruleset = upload.commit()
    """

    def __init__(self, root):
        self.root = root
        try:
            os.mkdir(root)
        except OSError:
            pass
        for name in os.listdir(root):
            if name.endswith(_TEMP_SUFFIX):
                os.remove(self._path(name))

    def _path(self, filename):
        return self.root + "/" + filename

    def names(self):
        """Names of the installed rulesets, sorted."""
        found = []
        for filename in os.listdir(self.root):
            if filename.endswith(_SUFFIX):
                found.append(filename[: -len(_SUFFIX)])
        found.sort()
        return found

    def get(self, name):
        """The installed ruleset ``name``, validated.

        :raises KeyError: when it is not installed; :raises RulesetError: when the file is invalid.
        """
        if not is_ruleset_name(name) or name not in self.names():
            raise KeyError("no ruleset %r installed" % (name,))
        with open(self._path(name + _SUFFIX), "rb") as f:
            return load_ruleset(f.read())

    def list(self):
        """``(name, version, hash)`` of every installed ruleset that validates, sorted by name:
        one bad file leaves out its own row, never the list."""
        out = []
        for name in self.names():
            try:
                ruleset = self.get(name)
            except (RulesetError, ImportError, KeyError, OSError):
                continue  # a family this firmware does not carry, a damaged file, a stray name
            out.append((ruleset.name, ruleset.version, ruleset.hash))
        return out

    def remove(self, name):
        """:raises KeyError: when ``name`` is not installed."""
        if not is_ruleset_name(name) or name not in self.names():
            raise KeyError("no ruleset %r installed" % (name,))
        os.remove(self._path(name + _SUFFIX))

    def begin_put(self, name, size, expected_hash):
        """Start an upload of a ``size``-byte document that must be ruleset ``name`` with
        content hash ``expected_hash``. Any earlier upload of the same name is discarded.

        :raises ValueError: for a bad name or size, or a new name when the store is full.
        """
        if not is_ruleset_name(name):
            raise ValueError("bad ruleset name %r" % (name,))
        if not 0 < size <= MAX_DOCUMENT:
            raise ValueError("ruleset size %d is not in 1..%d" % (size, MAX_DOCUMENT))
        installed = self.names()
        if name not in installed and len(installed) >= MAX_RULESETS:
            raise ValueError("the table holds %d rulesets, its most: remove one first" % len(installed))
        return Upload(self, name, size, expected_hash)

    def put(self, data, expected_hash):
        """Install a whole document in one step; returns the Ruleset (see ``Upload.commit``)."""
        name = load_ruleset(data).name
        upload = self.begin_put(name, len(data), expected_hash)
        upload.write(0, data)
        return upload.commit()


class Upload:
    """One ruleset document arriving in chunks; nothing changes until ``commit`` succeeds."""

    def __init__(self, store, name, size, expected_hash):
        self.store = store
        self.name = name
        self.size = size
        self.expected_hash = expected_hash
        self.received = 0
        self._temp = store._path(name + _TEMP_SUFFIX)
        self._file = open(self._temp, "wb")

    def write(self, offset, data):
        """Add a chunk at ``offset``. A chunk that was already received (a retry after a lost
        reply) is accepted and ignored. Returns the bytes received so far.

        :raises ValueError: for a chunk that skips ahead or overruns the announced size.
        """
        if self._file is None:
            raise ValueError("upload of %r is closed" % self.name)
        end = offset + len(data)
        if end <= self.received:
            return self.received
        if offset != self.received:
            raise ValueError("chunk at offset %d, expected %d" % (offset, self.received))
        if end > self.size:
            raise ValueError("chunk ends at %d, past the announced size %d" % (end, self.size))
        self._file.write(data)
        self.received = end
        return end

    def commit(self):
        """Validate the complete document and install it over the previous version.

        :raises ValueError: when bytes are missing; :raises RulesetError: when the document is
            invalid (naming the field), is another ruleset, or its hash is not the expected one.
            On any error the upload is discarded and the installed ruleset is unchanged.
        """
        try:
            if self.received != self.size:
                raise ValueError("upload of %r has %d of %d bytes" % (self.name, self.received, self.size))
            self._file.close()
            self._file = None
            with open(self._temp, "rb") as f:
                ruleset = load_ruleset(f.read())
            if ruleset.name != self.name:
                raise RulesetError(ruleset.name, "name", "upload announced as %r" % self.name)
            if ruleset.hash != self.expected_hash:
                raise RulesetError(
                    ruleset.name, "hash", "content hash %s is not the expected %s" % (ruleset.hash, self.expected_hash)
                )
            os.rename(self._temp, self.store._path(self.name + _SUFFIX))
            return ruleset
        except Exception:
            self.abort()
            raise

    def abort(self):
        """Discard the upload (the installed ruleset is untouched)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        try:
            os.remove(self._temp)
        except OSError:
            pass
