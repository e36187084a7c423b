"""Heap the table's menu costs at idle: its modules, and the rule store and menu objects of a
table with every preset and 0, 1, 8 or 24 house rulesets installed, on a stock build's heap.

    python tools/build_mpy.py build/mpy && cd build/mpy && \\
        ../../.venv/bin/micropython -X heapsize=192K ../../bench/menu_heap.py

Figures are ``gc.mem_alloc()`` after a collection (the unix port: the WebAssembly port collects
only between top-level calls). The menu keeps the names it lists and the
family of each house ruleset (from the rule store's index rows, which the store holds anyway);
no document is read to list them, and browsing the whole menu (every label drawn) must leave
nothing behind: "after browsing" equals "held" but for the garbage of the last step.
"""
import gc
import sys

sys.path[:0] = ["firmware", "sim", "tests"]


def used():
    gc.collect()
    return gc.mem_alloc()


from runtime.scratch import empty_dir  # noqa: E402  (tests/runtime/scratch.py)
from tiletable import families  # noqa: E402
from tiletable.engine.rulesets import canonical_json, find_ruleset, load_ruleset  # noqa: E402
from tiletable.heap import build_policy  # noqa: E402
from tiletable.runtime.rulestore import RuleStore  # noqa: E402

for needed in ("tiletable.drivers.segments", "tiletable.profiles"):  # the firmware imports them anyway
    __import__(needed)

POLICY = build_policy()
PRESETS = [entry[0] for entry in families.games()]
HOUSE_COUNTS = (0, 1, 8, 24)
ROOT = "/tmp/menu-heap-%d" % (64 if sys.maxsize > 2**32 else 32)
FAMILY_OF = {"line": "muggins", "trick": "moon", "column": "columns", "climb": "dasan"}




def install(root, house):
    """Every preset and ``house`` house rulesets (a quarter of each family), as a sync leaves them."""
    empty_dir(root)
    store = RuleStore(root, "bench", POLICY)
    for name in PRESETS:
        ruleset = POLICY.releasing(find_ruleset, name)
        store.put(ruleset.to_json().encode(), ruleset.hash)
    families_cycle = sorted(FAMILY_OF)
    for i in range(house):
        family = families_cycle[i % len(families_cycle)]
        doc = POLICY.releasing(find_ruleset, FAMILY_OF[family]).to_doc()
        doc["name"] = "house-%s-%02d" % (family, i)
        data = canonical_json(doc).encode()
        store.put(data, POLICY.releasing(load_ruleset, data).hash)
    store.list()  # the index written, as the end of a sync does


before_module = used()
from tiletable.runtime.menu import Menu  # noqa: E402

module_bytes = used() - before_module
before_module = used()
__import__("tiletable.runtime.menu_label")

label_bytes = used() - before_module
for count in HOUSE_COUNTS:
    install("%s-%d" % (ROOT, count), count)
rows = []


def measure(count):
    """(the store held, the menu held besides, the menu after browsing it all, games listed) in
    bytes, for ``count`` house rulesets."""
    start = used()
    holder = [RuleStore("%s-%d" % (ROOT, count), "bench", POLICY)]
    store = used() - start
    holder.append(Menu(holder[0]))
    held = used() - start - store
    menu = holder[1]
    for _ in range(len(menu.names)):
        menu.label()
        menu.next_game()
        menu.next_players()
    menu = None
    browsed = used() - start - store
    listed = len(holder[1].names)
    holder.clear()
    return store, held, browsed, listed


for count in HOUSE_COUNTS:
    rows.append((count,) + measure(count))

bits = 64 if sys.maxsize > 2**32 else 32
print("the table's menu, %d-bit %s port:" % (bits, sys.platform))
print("  runtime/menu.py imported (its bytecode where .mpy files are copied)        %6d bytes" % module_bytes)
print("  runtime/menu_label.py imported (only once a house ruleset's label is shown) %6d bytes" % label_bytes)
for count, store, held, browsed, listed in rows:
    print("  %2d house rulesets (%2d games): rule store %6d bytes, menu %5d, menu after browsing it all %5d" % (count, listed, store, held, browsed))
print("  each house ruleset: %d bytes of rule store row, %d of menu entry" % (
    (rows[-1][1] - rows[0][1]) // HOUSE_COUNTS[-1], (rows[-1][2] - rows[0][2]) // HOUSE_COUNTS[-1]))
