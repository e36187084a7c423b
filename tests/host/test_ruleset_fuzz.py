"""The ruleset fuzzer in the suite (issue 18): a thousand mutated presets through the PC
validator, the firmware validator on CPython and on MicroPython (unix port), and an upload of
each to the firmware's LinkServer and RuleStore (in-process, on real files); a sample of them
is uploaded to the simulated table too (the whole firmware in its own process, through pyserial
on a pty, where a 1.4 KB upload takes some 0.2 s). No traceback, no internal error, nothing
installed on an error reply, the old set intact after any failure, every accepted document
playable. ``make soak`` runs ten thousand and 500 (bench/ruleset_fuzz.py too, with figures)."""

from engine.ruleset_fuzz import Findings, TableUploader, fuzz, with_presets
from soak import size
from tiletable.engine.rulesets import preset_names
from tiletable_host.simtable import SimulatedTable
from tiletable_host.transport_local import LocalTransport
from tiletable_host.transport_serial import SerialTransport

DOCUMENTS = size(1000, 10000)
ON_THE_SIMULATED_TABLE = size(40, 500)
REPLY_WALL_S = 30  # bounds a lost reply only: an upload is not retried, and a loaded PC may starve the device process


def _check(findings, count):
    assert findings.bugs() == 0, (findings.summary(), findings.examples)
    assert findings.documents == count
    # the mutations reach both verdicts, so the checks are not empty
    assert count // 10 < findings.accepted < count - count // 10, findings.summary()
    assert findings.uploaded == findings.accepted, findings.summary()


def test_a_thousand_mutated_presets_find_no_bug(tmp_path):
    link = with_presets(LocalTransport(str(tmp_path / "device")))
    _check(fuzz(DOCUMENTS, seed=18, upload=TableUploader(link)), DOCUMENTS)
    assert sorted(link.ruleset_list()) == sorted(preset_names())


def test_mutated_presets_uploaded_to_the_simulated_table(tmp_path):
    table = SimulatedTable.start(root=str(tmp_path / "table"))
    try:
        link = with_presets(SerialTransport(table.port, timeout=REPLY_WALL_S))
        _check(fuzz(ON_THE_SIMULATED_TABLE, seed=1818, upload=TableUploader(link)), ON_THE_SIMULATED_TABLE)
        assert sorted(link.ruleset_list()) == sorted(preset_names())
        link.close()
    finally:
        table.stop()


def test_the_fuzzer_counts_what_it_is_meant_to_find():
    findings = Findings()
    findings.bug("unplayable", b"{}", "2 players: ValueError()")
    findings.micropython_lenient_json += 1
    assert findings.bugs() == 1 and findings.examples == [("unplayable", b"{}", "2 players: ValueError()")]


def test_the_fuzzers_short_presets_are_documents_a_table_takes():
    """The short documents it mutates are presets as written (besides their full forms): a
    table takes each unmutated, so a rejection is the mutation's, not their menu fields'."""
    from engine.ruleset_fuzz import Mutator
    from tiletable.engine.rulesets import load_ruleset

    for full, short, _ in Mutator(18).presets:
        assert load_ruleset(short).hash == load_ruleset(full).hash, short["name"]
