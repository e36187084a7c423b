"""The rules engine: pure Python, no I/O, the same files on the Pico and on the PC.

Start with ``rulesets.find_ruleset("muggins")`` and ``ruleset.new_state()``; see
``state.GameState`` for the API every game family shares.
"""
