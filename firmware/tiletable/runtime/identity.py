"""Which tile or card a tag is: its own record first, an enrolment table second.

An identity is the tuple ``(kind, set_id, item)`` of ``tagrecord``. A tag that carries a
valid record (pages 4-7) names itself. A tag without one (blank, foreign, damaged, or not an
NTAG at all) can still be used when the PC enrolled its UID in a ``UidTable``; the caller
reads that table from a file (``UidTable.read``) and runtime/tags.py saves it back; the
resolver itself does no I/O. Anything else gets a reason instead of a guess, so the table can say
"blank tag" or "two tiles claim 3-5" rather than play a wrong tile.

Example::

    resolver = Resolver(UidTable.loads(open("/uids.json").read()))
    identity, reason = resolver.resolve(uid, record16)
    if reason is None:
        ...  # identity is (kind, set_id, item)
"""
import json

from tiletable import tagrecord
from tiletable.tagrecord import DUPLICATE, UNKNOWN_UID


def uid_hex(uid):
    return "".join("%02x" % b for b in uid)


def _valid_identity(value):
    """The identity ``value`` as a tuple, or None when it is not one tagrecord could encode."""
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        return None
    kind, set_id, item = value
    if not (isinstance(kind, int) and isinstance(set_id, int) and isinstance(item, int)):
        return None
    try:
        tagrecord.encode(kind, set_id, item)
    except ValueError:
        return None
    return (kind, set_id, item)


class UidTable:
    """UID -> identity for tags enrolled by UID. Text form: a JSON object ``{"04a1...": [k, s, i]}``."""

    def __init__(self):
        self._by_uid = {}

    def __len__(self):
        return len(self._by_uid)

    def add(self, uid, identity):
        """:raises ValueError: when ``identity`` is not a (kind, set_id, item) a record could hold."""
        checked = _valid_identity(identity)
        if checked is None:
            raise ValueError("not a tile or card identity: %r" % (identity,))
        self._by_uid[bytes(uid)] = checked

    def remove(self, uid):
        self._by_uid.pop(bytes(uid), None)

    def get(self, uid):
        return self._by_uid.get(bytes(uid))

    def dumps(self):
        """The table as JSON text, one entry per line in UID order (stable bytes for the PC to diff)."""
        lines = []
        for uid in sorted(self._by_uid):
            kind, set_id, item = self._by_uid[uid]
            lines.append('"%s": [%d, %d, %d]' % (uid_hex(uid), kind, set_id, item))
        return "{\n" + ",\n".join(lines) + "\n}\n" if lines else "{}\n"

    @classmethod
    def read(cls, path):
        """The table saved at ``path`` (runtime/tags.py saves it whole: ``.tmp``, then rename);
        empty when there is none, or when it does not parse (flash damage): the table still
        boots, and those tags show as ``unknown uid`` until enrolled again."""
        try:
            with open(path) as f:
                return cls.loads(f.read())
        except (OSError, ValueError):
            return cls()

    @classmethod
    def loads(cls, text):
        """:raises ValueError: for text that is not such a table, naming the bad entry."""
        try:
            data = json.loads(text)
        except ValueError:
            raise ValueError("uid table is not json: %r" % (text[:40],))
        if not isinstance(data, dict):
            raise ValueError("uid table must be a json object, got %r" % (type(data).__name__,))
        table = cls()
        for key, value in data.items():
            if not isinstance(key, str) or len(key) not in (8, 14, 20):
                raise ValueError("uid %r is not 4, 7 or 10 bytes of hex" % (key,))
            try:
                uid = bytes(int(key[i : i + 2], 16) for i in range(0, len(key), 2))
            except ValueError:
                raise ValueError("uid %r is not hex" % (key,))
            if _valid_identity(value) is None:
                raise ValueError("uid %s: %r is not [kind, set, item]" % (key, value))
            table.add(uid, value)
        return table


class Resolver:
    """Resolves UIDs and remembers which tag claimed which identity, to catch duplicates."""

    def __init__(self, table=None):
        self.table = table if table is not None else UidTable()
        self._claims = {}  # identity -> uid of the first tag that claimed it

    def resolve(self, uid, record):
        """``(identity, None)`` for a usable tag, else ``(identity or None, reason)``.

        ``record`` is the 16 bytes read at page 4, or None when the tag could not be read
        (a NAK: not an NTAG). The record wins over the table; the table is the fallback for
        tags without a valid record. A tag claiming an identity another UID already holds
        gets ``DUPLICATE`` together with the identity it claims.
        """
        uid = bytes(uid)
        identity = None
        reason = UNKNOWN_UID
        if record is not None:
            try:
                identity = tagrecord.decode(record)
            except tagrecord.TagRecordError as err:
                reason = err.reason
        if identity is None:
            identity = self.table.get(uid)
            if identity is None:
                return None, reason
        owner = self._claims.get(identity)
        if owner is not None and owner != uid:
            return identity, DUPLICATE
        self._claims[identity] = uid
        return identity, None

    def forget(self, uid):
        """Drop the claims of ``uid`` (a tag was re-enrolled or retired)."""
        uid = bytes(uid)
        for identity in [i for i, owner in self._claims.items() if owner == uid]:
            del self._claims[identity]
