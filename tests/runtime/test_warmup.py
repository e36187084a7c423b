"""runtime/warmup.py: readying the menu's game while the table idles."""
from tiletable.runtime import warmup


class _Starter:
    """What the warmup asks of the game starter: the ruleset, which finds the heap in pieces."""

    def find_ruleset(self, name):
        raise MemoryError("memory allocation failed, allocating 1552 bytes")


def test_a_warmup_that_runs_out_of_heap_has_its_failed_import_forgotten_later(monkeypatch):
    """An import that fails there leaves its module where the collector finds it, until
    heap.forget_failed_imports runs, which it does only after a noted MemoryError."""
    noted = []
    monkeypatch.setattr(warmup, "note_heap_ran_out", lambda: noted.append(True))
    for _ in warmup.warm_steps(_Starter(), "muggins"):
        pass
    assert noted == [True]
