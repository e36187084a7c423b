"""The ruleset fuzzer (issue 18): mutations of every preset through the PC validator, the
firmware validator on CPython and on MicroPython, and optionally a real upload to the
simulated table. ``tests/engine/test_ruleset_fuzz.py`` runs a thousand documents,
``bench/ruleset_fuzz.py`` ten thousand and more.

A document is a preset's full or short form with one to three mutations: a field or parameter
set to a hostile value (every JSON type, numbers at and past the limits, deep nesting, long and
odd text) or to a value its spec allows, a field removed or added; or its JSON text damaged
byte by byte. Every finding is counted in a ``Findings``.
"""
import binascii
import copy
import json
import os
import random
import subprocess
import sys
import tempfile

from engine.families_play import Rng, choose
from engine.ruleset_verdicts import verdict
from tiletable.engine.ruleset_checks import ALIASES_MAX, DESCRIPTION_MAX, MAX_DEPTH, VERSION_RANGE
from tiletable.engine.rulesets import (
    MAX_DOCUMENT,
    find_ruleset,
    load_ruleset,
    preset_document,
    preset_names,
    schema_module,
)
from tiletable.runtime.rulestore import is_ruleset_name
from tiletable_host.errors import CommandError
from tiletable_host.schema import ruleset_schema
from tiletable_host.sync import document_from_bytes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAY_ACTIONS = 120  # random actions played on every accepted document, per allowed player count


def _deep(depth):
    value = "6-6"
    for _ in range(depth):
        value = [value]
    return value


HOSTILE = [
    None, True, False, 0, -1, 1, 2, 7, VERSION_RANGE[1], VERSION_RANGE[1] + 1, 2**31, 2**64, -(2**63), 10**30,
    1.5, 2.0, -0.0, 1e308, "", "x", "line", "trick", "none", "\x00", "a\x00b", "\u00e9t\u00e9", "\ud800", "\U0001f3b2",
    "A", "x" * 25, "x" * (DESCRIPTION_MAX + 1), "6-6", "9-9", "0-0", "6-7", "-1-2", "13-13", "6-6\n",
    [], [1], ["line"], ["6-6", "6-6"], ["x"] * (ALIASES_MAX + 1), {}, {"a": 1}, {"2": 7}, {"0": 1}, {"99": 1},
    {"2": 50}, {"04": 5}, _deep(MAX_DEPTH), _deep(MAX_DEPTH + 1), _deep(200),
]
FIELDS = ("family", "name", "version", "params", "aliases", "description")


class Findings:
    """What a fuzz run saw; every count after the first four is a bug. MicroPython's JSON parser
    takes some text CPython's refuses (a stray digit before a closing brace, a doubled colon):
    those documents are counted, not failed, when the rest of the validator accepts them on
    MicroPython (they are then as valid as any: every field passed the same checks)."""

    COUNTS = (
        "documents", "accepted", "uploaded", "micropython_lenient_json",
        "pc_tracebacks", "pc_accepts_firmware_refuses", "firmware_accepts_pc_refuses",
        "firmware_crashes", "micropython_crashes", "micropython_disagrees",
        "internal_errors", "installed_on_error", "old_set_changed", "refused_valid_upload", "unplayable",
    )

    def __init__(self):
        for name in self.COUNTS:
            setattr(self, name, 0)
        self.examples = []

    def bug(self, count, data, detail):
        setattr(self, count, getattr(self, count) + 1)
        if len(self.examples) < 10:
            self.examples.append((count, bytes(data[:300]), detail))

    def bugs(self):
        return sum(getattr(self, name) for name in self.COUNTS[4:])

    def summary(self):
        return ", ".join("%s %d" % (name, getattr(self, name)) for name in self.COUNTS)


class Mutator:
    """Mutated preset documents, the same ones for the same seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.presets = []
        for name in preset_names():
            ruleset = find_ruleset(name)
            short = preset_document(name, ruleset.family)  # as written, without the menu's fields
            self.presets.append((ruleset.to_doc(), short, schema_module(ruleset.family).PARAMS))

    def document(self):
        rng = self.rng
        full, short, params_spec = rng.choice(self.presets)
        doc = json.loads(json.dumps(full if rng.random() < 0.7 else short))
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            self._mutate(doc, params_spec)
        text = json.dumps(doc, ensure_ascii=rng.random() < 0.5)
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.15:
            data = self._damage(bytearray(data))
        return data

    def _mutate(self, doc, params_spec):
        rng = self.rng
        kind = rng.random()
        params = doc.get("params")
        if kind < 0.45 and isinstance(params, dict):
            key = rng.choice(sorted(params_spec))
            if rng.random() < 0.75:
                params[key] = self._allowed(params_spec[key])
            elif rng.random() < 0.8:
                params[key] = self._hostile()
            else:
                params.pop(key, None)
        elif kind < 0.55 and isinstance(params, dict):
            params[rng.choice(("speed", "Target", "", "\x00", "x" * 40))] = self._hostile()
        elif kind < 0.9:
            field = rng.choice(FIELDS)
            if rng.random() < 0.85:
                doc[field] = self._hostile() if rng.random() < 0.9 else rng.choice(("club", "a-b_c", "x" * 24))
            else:
                doc.pop(field, None)
        else:
            doc[rng.choice(("colour", "Family", "", "params.target"))] = self._hostile()

    def _hostile(self):
        return copy.deepcopy(self.rng.choice(HOSTILE))  # a copy: a later mutation may change it

    def _allowed(self, spec):
        """A value the spec itself allows (or its limit plus or minus one)."""
        rng = self.rng
        kind = spec[0]
        if kind == "int":
            return rng.choice((spec[2] - 1, spec[2], spec[3], spec[3] + 1, rng.randint(spec[2], spec[3])))
        if kind == "choice":
            return rng.choice(spec[2])
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "tile":
            return rng.choice((None, self._tile(), self._tile()))
        if kind == "tiles":
            return [self._tile() for _ in range(rng.choice((0, 1, 2, 4, 30)))]
        return {str(rng.randint(1, 9)): rng.randint(spec[2] - 1, spec[3] + 1) for _ in range(rng.randint(0, 4))}

    def _tile(self):
        rng = self.rng
        return "%d-%d" % (rng.randint(0, 12), rng.randint(0, 12))

    def _damage(self, data):
        rng = self.rng
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data) + 1)
            how = rng.random()
            if how < 0.3 and at < len(data):
                data[at] ^= 1 << rng.randrange(8)
            elif how < 0.55:
                data[at:at] = bytes([rng.choice(b'{}[]",:\\0\xff\xc3')])
            elif how < 0.8:
                del data[at : at + rng.randint(1, 8)]
            else:
                data = data[:at]
        return bytes(data)


def pc_verdict(data, schema, findings):
    """The PC's verdict, as ``ok <hash>`` or ``bad``, counting a traceback as a finding."""
    try:
        return "ok " + document_from_bytes("fuzz.json", data, schema).ruleset.hash
    except CommandError:
        return "bad"
    except Exception as exc:  # the PC tool would show a traceback
        findings.bug("pc_tracebacks", data, repr(exc)[:200])
        return "bad"


def micropython_verdicts(documents):
    """The verdicts of the firmware's validator under the MicroPython unix port, one per document."""
    build = os.path.join(ROOT, "build", "mpy")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build_mpy.py"), build], check=True, stdout=subprocess.DEVNULL)
    port = os.path.join(os.path.dirname(sys.executable), "micropython")
    with tempfile.NamedTemporaryFile("w", suffix=".hex", delete=False) as f:
        for data in documents:
            f.write(binascii.hexlify(data).decode() + "\n")
    try:
        script = 'import sys; sys.path[:0] = ["tests", "sim", "firmware"]; from engine.ruleset_verdicts import main; main(%r)' % f.name
        out = subprocess.run([port, "-X", "heapsize=192K", "-c", script], cwd=build, capture_output=True, text=True, timeout=600)
    finally:
        os.remove(f.name)
    lines = out.stdout.splitlines()
    if len(lines) != len(documents):
        raise AssertionError("MicroPython gave %d verdicts for %d documents: %s" % (len(lines), len(documents), out.stderr[-500:]))
    return lines


def playable(ruleset, seed):
    """Whether every player count the ruleset allows deals and plays PLAY_ACTIONS random actions."""
    counts = [n for n in ruleset.player_counts() if n <= 8]
    if not counts:
        return "no player count is allowed"
    rng = Rng(seed)
    for players in counts:
        try:
            state = ruleset.new_state(players)
            for _ in range(PLAY_ACTIONS):
                if state.is_over():
                    break
                state.play(choose(state, rng, bid_rarely=True))
        except Exception as exc:
            return "%d players: %r" % (players, exc)
    return None


def fuzz(count, seed=18, upload=None, on_progress=None):
    """Run ``count`` mutated documents; ``upload(data, cpython_verdict, findings)`` (see
    ``TableUploader``) also sends each to a table. Returns the Findings."""
    findings = Findings()
    schema = ruleset_schema()
    mutator = Mutator(seed)
    documents = [mutator.document() for _ in range(count)]
    firmware = []
    for index, data in enumerate(documents):
        findings.documents += 1
        pc = pc_verdict(data, schema, findings)
        said = verdict(data)
        firmware.append(said)
        if said.startswith("crash"):
            findings.bug("firmware_crashes", data, said)
        elif pc.startswith("ok") and pc != said:
            findings.bug("pc_accepts_firmware_refuses", data, said)
        elif said.startswith("ok") and pc == "bad":
            findings.bug("firmware_accepts_pc_refuses", data, said)
        if said.startswith("ok"):
            findings.accepted += 1
            problem = playable(load_ruleset(data), seed + index)
            if problem:
                findings.bug("unplayable", data, problem)
        if upload is not None:
            upload(data, said, findings)
        if on_progress is not None:
            on_progress(index + 1)
    canonical = [load_ruleset(d).to_json().encode() if v.startswith("ok") else d for d, v in zip(documents, firmware)]
    for data, ours, theirs in zip(canonical, firmware, micropython_verdicts(canonical)):
        if theirs.startswith("crash"):
            findings.bug("micropython_crashes", data, theirs)
        elif ours == "bad document" and theirs.startswith("ok") and not _cpython_parses(data):
            findings.micropython_lenient_json += 1
        elif ours.startswith("ok") != theirs.startswith("ok") or (ours.startswith("ok") and ours != theirs):
            findings.bug("micropython_disagrees", data, "%s / %s" % (ours, theirs))
    return findings


def _announced_name(data):
    """The name an invalid document claims, when it is a valid name; else an installed preset's
    (so a refused upload is one over a ruleset the table holds)."""
    try:
        name = json.loads(data).get("name")
    except (ValueError, RecursionError, AttributeError):
        name = None
    return name if is_ruleset_name(name) else "muggins"


def _cpython_parses(data):
    try:
        json.loads(data)
        return True
    except (ValueError, RecursionError):
        return False


def with_presets(link):
    """``link`` after installing every preset on its table (the set the uploads must keep)."""
    link.hello()
    for name in preset_names():
        ruleset = find_ruleset(name)
        link.ruleset_put(name, ruleset.to_json().encode(), ruleset.hash)
    return link


class TableUploader:
    """Uploads each document to a table over ``link`` (a Transport) as a hostile host would,
    checking the reply and that the installed set changed only by a valid upload."""

    def __init__(self, link):
        self.link = link
        self.installed = link.ruleset_list()  # what the table should list now

    def __call__(self, data, said, findings):
        from tiletable.proto.messages import E_INTERNAL
        from tiletable_host.transport import DeviceError

        link = self.link
        before = self.installed
        name = None
        if said.startswith("ok"):
            name = load_ruleset(data).name
        announced = name or _announced_name(data)
        expected_hash = said[3:] if name else "0" * 16
        try:
            reply = link.ruleset_put(announced, data, expected_hash)
        except DeviceError as exc:
            if exc.code == E_INTERNAL:
                findings.bug("internal_errors", data, str(exc))
            if name is not None and len(data) <= MAX_DOCUMENT:
                findings.bug("refused_valid_upload", data, str(exc))
            reply = None
        after = link.ruleset_list()
        if reply is None:
            if after != before:
                findings.bug("old_set_changed", data, "%r -> %r" % (before, after))
                self.installed = after
            return
        if name is None:
            findings.bug("installed_on_error", data, repr(reply))
            self.installed = after
            return
        findings.uploaded += 1
        expected = dict(before)
        expected[name] = (reply["version"], reply["hash"])
        if after != expected or reply["hash"] != expected_hash:
            findings.bug("old_set_changed", data, "%r -> %r" % (before, after))
        if name in before:  # put the preset back (the table holds the presets)
            link.ruleset_put(name, find_ruleset(name).to_json().encode(), before[name][1])
        else:
            link.ruleset_remove(name)
        self.installed = before
