"""How long the long tests run: a sample in ``make test``, full size in ``make soak``.

``make soak`` sets ``TILETABLE_SOAK=1`` and runs the same test functions with the full counts
(and the benches that sweep further), so the suite stays within five minutes on two cores and
CI still runs every soak (.ci/run runs ``make test`` then ``make soak``). CPython tests only.
"""
import os

SOAK = os.environ.get("TILETABLE_SOAK") == "1"


def size(sample, soak):
    """``soak`` under ``make soak``, else ``sample``."""
    return soak if SOAK else sample
