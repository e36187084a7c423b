# portable
"""The table's menu lists every installed ruleset: the presets in their menu order, then the
rulesets installed under names of their own (house rules) by name, each with a label a 4-digit
group draws and the player counts of its family's stand-in trays; what a sync installs or
removes is in the menu at its next look, from the rule store's index (no document read)."""
from runtime import toy_family
from runtime.scratch import fresh_dir, write_bytes

from tiletable import families
from tiletable.drivers.segments import glyph
from tiletable.engine.rulesets import canonical_json, load_ruleset
from tiletable.runtime import rulestore
from tiletable.runtime.rulestore import INDEX_FILE, RuleStore
from tiletable.runtime.menu import Menu
from tiletable.runtime.menu_label import house_label

PRESETS = [entry[0] for entry in families.games()]


def _install(store, name, family="line", params=None):
    data = canonical_json({"family": family, "name": name, "version": 1, "params": params or {}}).encode()
    return store.put(data, load_ruleset(data).hash)


def _store(name):
    return RuleStore(fresh_dir(name), "fw1")


def test_house_labels_are_four_drawable_characters_from_the_name():
    assert house_label("house-61") == "HO61"
    assert house_label("pub") == "PUb "
    assert house_label("fives_and_threes") == "FIVE"
    assert house_label("club2026") == "C026"
    assert house_label("42") == "42  "
    assert house_label("team-rules") == "tEAM"  # t, b, d, r, q in the shape a digit draws
    for name in ("a", "zz-top", "x_9", "0-0", "k-w-m-v", "abcdefghijklmnopqrstuvwx", "yz0123456789"):
        label = house_label(name)
        assert len(label) == 4 and [glyph(ch) for ch in label], name


def test_a_house_label_that_reads_as_a_game_before_it_ends_in_a_distinct_digit():
    taken = [bytes([glyph(ch) for ch in label]) for label in ("MUGG", "MUG2", "5EbA")]
    assert house_label("muggins-fast", taken) == "MUG3"
    assert house_label("seba", taken) == "SEb2"  # S and 5 are one glyph
    assert house_label("moon", taken) == "MOON"


def test_the_menu_lists_presets_in_order_then_house_rulesets_by_name():
    store = _store("menu-order")
    _install(store, "pub-61", params={"target": 61})
    _install(store, "moon-house", "trick")
    _install(store, "muggins", params={"target": 61})  # a preset's name: plays in its place
    menu = Menu(store)
    assert menu.names == PRESETS + ["moon-house", "pub-61"]
    assert menu.name == "muggins"  # a table that never played opens on Muggins
    menu.select("moon-house", 3)
    assert menu.label() == "MOO2"  # Moon's MOON comes before it
    assert menu.player_counts() == [3]  # Moon's trays: the trick family's stand-in
    menu.next_game()
    assert (menu.name, menu.label(), menu.players) == ("pub-61", "PU61", 3)
    assert menu.player_counts() == [2, 3, 4]
    menu.next_game()
    assert menu.name == PRESETS[0]


def test_what_a_sync_installs_or_removes_is_in_the_menu_at_its_next_look():
    store = _store("menu-sync")
    menu = Menu(store)
    assert menu.names == PRESETS
    _install(store, "late")
    menu.select("late", 2)
    assert (menu.name, menu.players) == ("late", 2)
    store.remove("late")
    menu.refresh()
    assert menu.names == PRESETS and menu.name == "muggins"


def test_a_reopened_store_gives_the_menu_each_family_from_its_index_alone():
    root = fresh_dir("menu-index")
    store = RuleStore(root, "fw1")
    _install(store, "pub", params={"target": 61})
    _install(store, "dasan-club", "climb")
    write_bytes(root + "/broken.json", b'{"family":"line","name":"broken","params":{"target":0}}')
    store.list()  # writes the index
    real = rulestore.load_ruleset
    calls = []
    rulestore.load_ruleset = lambda *args: calls.append(args) or real(*args)
    try:
        reopened = RuleStore(root, "fw1")
        assert reopened.playable() == [("dasan-club", "climb"), ("pub", "line")]
        assert Menu(reopened).names == PRESETS + ["dasan-club", "pub"]
    finally:
        rulestore.load_ruleset = real
    assert calls == []  # nothing validated again, no document read


@toy_family.with_toy_family
def test_an_index_without_families_is_validated_again_once():
    root = fresh_dir("menu-old-index")
    data, content_hash = toy_family.document("toy", 1, 100)
    write_bytes(root + "/toy.json", data)
    digest = rulestore._digest(data)
    write_bytes(root + "/" + INDEX_FILE, ("tiletable-rulesets 1 fw1\n%s toy 1 %s\n" % (digest, content_hash)).encode())
    store = RuleStore(root, "fw1")
    assert store.playable() == [("toy", "toy")]
    store.list()
    assert RuleStore(root, "fw1").playable() == [("toy", "toy")]


def test_browsing_the_whole_list_counts_as_use_of_a_stock_heap():
    """A boot's menu reads only the game it shows; browsing reads every family's schema, whose
    names stay interned on a stock build, so a start that then finds no room restarts the
    table into the game (the heap policy's restart_may_help), as after games played."""
    from tiletable.heap import StockHeap

    policy = StockHeap()
    menu = Menu(_store("menu-browse"), policy)
    assert menu.name == "muggins" and menu.label() == "MUGG"
    policy.starting()
    assert not policy.restart_may_help  # nothing but Muggins read: a restart gives no more room
    menu.next_game()
    policy.starting()
    assert policy.restart_may_help
