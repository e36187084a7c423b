"""What the firmware's validator says of ruleset documents, the same way on CPython and on
MicroPython (the ruleset fuzzer compares the two runtimes line by line).

On MicroPython: ``micropython -c "...; from engine.ruleset_verdicts import main; main(path)"``
reads one hex-encoded document a line and prints one verdict a line.
"""
import gc

from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import load_ruleset


def verdict(data):
    """``ok <hash>``, ``bad <field>`` (a RulesetError), or ``crash <exception>`` (a bug)."""
    try:
        return "ok " + load_ruleset(data).hash
    except RulesetError as exc:
        return "bad " + exc.field
    except Exception as exc:  # the fuzzer counts these: any is a bug
        return "crash %s: %s" % (type(exc).__name__, str(exc)[:80])


def main(path):
    import binascii

    with open(path) as f:
        for line in f:
            print(verdict(binascii.unhexlify(line.strip())))
            gc.collect()
