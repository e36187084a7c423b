"""Installed rulesets: one JSON document per file, replaced atomically when the host syncs.

Layout (one directory, default ``/rulesets``)::

    muggins.json    an installed ruleset document, exactly the bytes the host sent
    muggins.tmp     an upload in progress; removed at open (an interrupted sync)
    VALID.idx       what validation proved: a line per document (SHA-256 of its bytes, name,
                    version, content hash, family), headed by the firmware that validated them

An upload streams into ``<name>.tmp``; ``commit`` reads the file back, validates it with
``rulesets.load_ruleset``, checks that the document's name and content hash are the announced
ones, and only then renames it over ``<name>.json``. A power cut or a failed check at any step
leaves the previous ruleset in place (rename is atomic on littlefs and POSIX).

Validating a document takes tens of milliseconds on an RP2040, so it is done once: at commit,
or at open for a document the index does not vouch for (copied in by hand, or validated by
another firmware). ``list()`` answers from the index, at the link's pace, however many are
installed, and ``playable()`` gives the table's menu each one's family without opening it. The
index is written at the next list after a change (a sync ends with one); a power cut
before then leaves an index line whose digest no longer matches, or none: the next open
validates that document again.
"""

import binascii
import hashlib
import io
import os

try:
    from deflate import RAW, DeflateIO
except ImportError:  # CPython without the simulation's shim (the PC tool's own table): plain uploads only
    DeflateIO = None

from tiletable import families
from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import MAX_DOCUMENT, load_ruleset

_SUFFIX = ".json"
_TEMP_SUFFIX = ".tmp"
INDEX_FILE = "VALID.idx"  # upper case: never a ruleset's name, nor its upload's
_INDEX_NEW = "VALID.new"
_INDEX_HEAD = "tiletable-rulesets 2 "  # 2: rows end with the family (the menu's); a 1's rows are validated again
_NO_DOCUMENT = "- - - -"  # the row of a name whose document cannot be read


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

    inflates = DeflateIO is not None  # whether it takes deflated uploads (put_deflated)

    def __init__(self, root, validator="", policy=None):
        """``validator`` names the firmware (its version): an index another one wrote is not
        trusted. ``policy``: the heap policy (tiletable/heap.py), which unloads what a validation
        imported where the bytecode is in the heap (by default the build's)."""
        if policy is None:
            from tiletable.heap import build_policy

            policy = build_policy()
        self.releasing = policy.releasing
        self.root = root
        self.validator = validator
        try:
            os.mkdir(root)
        except OSError:
            pass
        for name in os.listdir(root):
            if name.endswith(_TEMP_SUFFIX) or name == _INDEX_NEW:
                os.remove(self._path(name))
        self._rows = self._read_index()  # name -> its index row (_row, _fields)
        self.changes = 0  # counts the changes to what is installed: the menu reads the list again
        self._index_stale = False  # rows changed since VALID.idx was written
        self._ready = None  # (digest, Ruleset): the document get() validated last
        for name in self._rows:
            row = self._check(name, self._rows[name])
            if row != self._rows[name]:
                self._rows[name] = row
                self._stale()
        self._sync_rows()  # what changed is written at the first list, as after a commit

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
        """The installed ruleset ``name``, validated (its content hash taken from the index
        when the index vouches for these very bytes: 24 ms of an RP2040's time for Muggins).
        The last one validated is kept, by the digest of its bytes: a start of the game played
        last would otherwise validate it again, 150-200 ms of a stock build's start.

        :raises KeyError: when it is not installed; :raises RulesetError: when the file is invalid.
        """
        if not is_ruleset_name(name):
            raise KeyError("no ruleset %r installed" % (name,))
        try:
            with open(self._path(name + _SUFFIX), "rb") as f:
                data = f.read()
        except OSError:  # not installed: no listing of the directory needed to tell
            raise KeyError("no ruleset %r installed" % (name,))
        digest = _digest(data)
        ready = self._ready
        if ready is not None and ready[0] == digest:
            return ready[1]
        row = _fields(self._rows.get(name, _NO_DOCUMENT))
        proven = row[1] is not None and row[0] == digest
        ruleset = self.releasing(load_ruleset, data, row[2] if proven else None)
        self._ready = (digest, ruleset)
        return ruleset

    def refresh(self):
        """Index the documents not indexed yet and save the index if it changed (what ``list``
        does first: the link does it in a step of its own). Returns the installed names, sorted."""
        names = self._sync_rows()
        if self._index_stale:
            self._write_index()
        return names

    def playable(self):
        """``(name, family)`` of every installed ruleset that validates, sorted by name: what
        the table's menu offers, from the index alone (no document is read)."""
        out = []
        for name in self.refresh():
            row = _fields(self._rows.get(name, _NO_DOCUMENT))
            if row[1] is not None:
                out.append((name, row[3]))
        return out

    def list(self):
        """``(name, version, hash)`` of every installed ruleset that validates, sorted by name."""
        out = []
        for name in self.refresh():
            row = _fields(self._rows.get(name, _NO_DOCUMENT))
            if row[1] is not None:
                out.append((name, row[1], row[2]))
        return out

    def remove(self, name):
        """:raises KeyError: when ``name`` is not installed."""
        if not is_ruleset_name(name) or name not in self.names():
            raise KeyError("no ruleset %r installed" % (name,))
        os.remove(self._path(name + _SUFFIX))
        self._rows.pop(name, None)
        self._stale()

    def _stale(self):
        """The rows changed: the index is written at the next list, the menu reads them again."""
        self._index_stale = True
        self.changes += 1

    # ----- the index of what validation proved

    def _sync_rows(self):
        """Index the documents that are not yet (validating each once); forget removed ones.
        Returns the installed names, sorted."""
        names = self.names()
        changed = False
        for name in names:
            if name not in self._rows:
                self._rows[name] = self._check(name, None)
                changed = True
        for name in [n for n in self._rows if n not in names]:
            del self._rows[name]
            changed = True
        if changed:
            self._stale()
        return names

    def _check(self, name, row):
        """``row`` if it vouches for ``name``'s document as it is now, else the row validation gives."""
        try:
            with open(self._path(name + _SUFFIX), "rb") as f:
                data = f.read()
        except OSError:
            return _NO_DOCUMENT
        digest = _digest(data)
        if row is not None and _fields(row)[0] == digest:
            return row
        try:
            ruleset = self.releasing(load_ruleset, data)
        except (RulesetError, ImportError):  # a family this firmware does not carry, or a damaged file
            return digest + " - - -"
        if ruleset.name != name:
            return digest + " - - -"
        return _row(digest, ruleset)

    def _read_index(self):
        rows = {}
        try:
            with open(self._path(INDEX_FILE)) as f:
                if f.readline().strip() != _INDEX_HEAD + self.validator:
                    return rows  # written by another firmware: its validation proves nothing here
                for line in f:
                    words = line.split()
                    if len(words) == 5 and is_ruleset_name(words[1]):
                        if words[2] == "-":
                            rows[words[1]] = words[0] + " - - -"
                        elif words[4] in families.FAMILIES:  # a family this firmware carries
                            rows[words[1]] = "%s %d %s %s" % (words[0], int(words[2]), words[3], words[4])
        except (OSError, ValueError):
            pass  # no index yet, or a damaged one: every document is validated afresh
        return rows

    def _write_index(self):
        """Save the index; on a full flash it is only a cache lost (the next open validates)."""
        self._index_stale = False
        new = self._path(_INDEX_NEW)
        try:
            with open(new, "w") as f:
                f.write(_INDEX_HEAD + self.validator + "\n")
                for name in sorted(self._rows):
                    digest, version, content_hash, family = _fields(self._rows[name])
                    if digest != "-":
                        f.write("%s %s %s %s %s\n" % (digest, name, "-" if version is None else version, content_hash or "-", family or "-"))
            os.rename(new, self._path(INDEX_FILE))
        except OSError:
            try:
                os.remove(new)
            except OSError:
                pass

    def begin_put(self, name, size, expected_hash):
        """Start an upload of a ``size``-byte document that must be ruleset ``name`` with
        content hash ``expected_hash``. Any earlier upload of the same name is discarded.

        :raises ValueError: for a bad name or size.
        """
        if not is_ruleset_name(name):
            raise ValueError("bad ruleset name %r" % (name,))
        if not 0 < size <= MAX_DOCUMENT:
            raise ValueError("ruleset size %d is not in 1..%d" % (size, MAX_DOCUMENT))
        return Upload(self, name, size, expected_hash)

    def put(self, data, expected_hash):
        """Install a whole document in one step; returns the Ruleset (see ``Upload.commit``)."""
        name = self.releasing(load_ruleset, data).name
        upload = self.begin_put(name, len(data), expected_hash)
        upload.write(0, data)
        return upload.commit()


class Upload:
    """One ruleset document arriving in chunks, kept in RAM (at most ``MAX_DOCUMENT`` bytes):
    flash is written once, at ``commit``, not at every chunk (a littlefs write of a chunk took
    up to 160 ms of an RP2040's time). Nothing changes until ``commit`` succeeds."""

    def __init__(self, store, name, size, expected_hash):
        self.store = store
        self.name = name
        self.size = size
        self.expected_hash = expected_hash
        self.received = 0
        self._data = bytearray(size)
        self._temp = store._path(name + _TEMP_SUFFIX)
        self._checked = None  # what check() found: the Ruleset, or the error for the commit

    def write(self, offset, data):
        """Add a chunk at ``offset``. A chunk that was already received (a retry after a lost
        reply) is accepted and ignored. Returns the bytes received so far.

        :raises ValueError: for a chunk that skips ahead or overruns the announced size.
        """
        if self._data is None:
            raise ValueError("upload of %r is closed" % self.name)
        end = offset + len(data)
        if end <= self.received:
            return self.received
        if offset != self.received:
            raise ValueError("chunk at offset %d, expected %d" % (offset, self.received))
        if end > self.size:
            raise ValueError("chunk ends at %d, past the announced size %d" % (end, self.size))
        self._data[offset:end] = data
        self.received = end
        return end

    def inflate(self, data, wbits):
        """Receive the whole document at once from ``data``, a raw DEFLATE stream with a window of
        ``2**wbits`` bytes (its C decoder allocates that much); returns the bytes received.

        :raises ValueError: when it is damaged, or does not inflate to exactly the announced size.
        """
        if self.received or self._data is None:
            raise ValueError("upload of %r has begun already" % self.name)
        stream = DeflateIO(io.BytesIO(data), RAW, wbits)
        try:
            got = stream.readinto(self._data)
            more = stream.read(1)
        except (OSError, EOFError):  # MicroPython's decoder: EINVAL for a bad stream, EOFError for a cut one
            raise ValueError("the deflated document of %r is damaged" % self.name)
        if more:
            raise ValueError("the deflated document of %r inflates to more than the announced %d bytes" % (self.name, self.size))
        if got != self.size:
            raise ValueError("the deflated document of %r inflates to %d bytes, not the announced %d" % (self.name, got, self.size))
        self.received = got
        return got

    def check(self, keep_schema=False):
        """Validate the complete document ahead of the commit (the link does it as the last chunk
        comes: a step of its own, so the commit has less to do). What it finds is kept:
        ``commit_steps`` raises the error, if any. Nothing is done before the last byte, or twice.
        ``keep_schema``: leave the family's schema module imported, for the link's heap policy
        to unload (``end_uploads``) once the uploads in a row are validated: importing it again
        at each one took about 130 ms of a stock build's put."""
        if self._checked is None and self._data is not None and self.received == self.size:
            try:  # the hash: checked at the commit
                if keep_schema:
                    self._checked = load_ruleset(self._data, self.expected_hash)
                else:
                    self._checked = self.store.releasing(load_ruleset, self._data, self.expected_hash)
            except RulesetError as exc:
                self._checked = exc

    def commit(self):
        """Validate the complete document and install it over the previous version.

        :raises ValueError: when bytes are missing; :raises RulesetError: when the document is
            invalid (naming the field), is another ruleset, or its hash is not the expected one.
            On any error the upload is discarded and the installed ruleset is unchanged.
        """
        for ruleset in self.commit_steps():
            if ruleset is not None:
                return ruleset

    def commit_steps(self):
        """``commit()`` in steps of about 25 ms of an RP2040's time each (validation, unless
        ``check()`` did it; the content hash; the file written and renamed): yields None between
        them, then the Ruleset. The rename comes last: a cut before it leaves a ``.tmp`` file."""
        try:
            if self._data is None:
                raise ValueError("upload of %r is closed" % self.name)
            if self.received != self.size:
                raise ValueError("upload of %r has %d of %d bytes" % (self.name, self.received, self.size))
            data = self._data
            if self._checked is None:
                self.check()
                yield None
            ruleset = self._checked
            if isinstance(ruleset, RulesetError):
                raise ruleset
            if ruleset.name != self.name:
                raise RulesetError(ruleset.name, "name", "upload announced as %r" % self.name)
            from tiletable.engine.ruleset_checks import content_hash  # (load_ruleset imported it)

            found = content_hash(ruleset.family, ruleset.name, ruleset.version, ruleset.params)
            if found != self.expected_hash:
                raise RulesetError(ruleset.name, "hash", "content hash %s is not the expected %s" % (found, self.expected_hash))
            yield None
            with open(self._temp, "wb") as f:
                f.write(data)
            os.rename(self._temp, self.store._path(self.name + _SUFFIX))
        except Exception:
            self.abort()
            raise
        self._data = None
        self.store._rows[self.name] = _row(_digest(data), ruleset)
        self.store._stale()  # the index is written at the next list: a sync ends with one
        yield ruleset

    def abort(self):
        """Discard the upload (the installed ruleset is untouched)."""
        self._data = None
        try:
            os.remove(self._temp)
        except OSError:
            pass


def _row(digest, ruleset):
    """The index row of a document that validated as ``ruleset``: its index line but the name,
    as one string. A stock build holds a row for every ruleset installed; as a tuple of its
    fields (two strings more) every preset a sync installs took about 48 bytes more of its heap."""
    return "%s %d %s %s" % (digest, ruleset.version, ruleset.hash, ruleset.family)


def _fields(row):
    """``(digest, version, content hash, family)`` of an index row; version, hash and family
    None where the document did not validate, digest ``-`` where it could not be read."""
    digest, version, content_hash, family = row.split()
    if version == "-":
        return digest, None, None, None
    return digest, int(version), content_hash, family


def _digest(data):
    return binascii.hexlify(hashlib.sha256(data).digest()[:12]).decode()
