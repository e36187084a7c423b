"""The simulated table charges what the chip spends outside the firmware's lines: a garbage
collection where the firmware calls ``gc.collect()`` (a sync's first list page), and the first
import of a module after a boot (the first journal stream's two modules), once per boot."""
from chip_costs import GC_COLLECT_US, IMPORT_US, ChargedGc, FirstImports, LineMeter
from linktime import DeviceTimeTransport, fill_journal
from tiletable.proto.messages import RULESET_LIST

IDLE_AFTER_BOOT_US = 3000 * 1000  # long enough for the Warmer to ready the menu's game (runtime/warmup.py)


def test_a_sync_s_first_list_page_is_charged_its_collection(tmp_path):
    link = DeviceTimeTransport(str(tmp_path))
    link.hello()
    link.ruleset_list()  # the first page begins a sync: a collection in a step of its own
    link.request(RULESET_LIST, {"after": "zzz"})  # a later page: no collection
    first, later = link.replies["ruleset list"]
    assert first - later >= GC_COLLECT_US / 1000, (first, later)


def test_a_collection_is_charged_only_while_the_firmware_s_work_is_metered():
    import gc

    charged = ChargedGc(gc)  # the collector the simulated table gives the firmware
    meter = LineMeter()
    meter.run(charged.collect)
    assert meter.cost_us() == GC_COLLECT_US
    charged.collect()  # the simulation's own, between services
    assert meter.cost_us() == 0


def test_a_collection_charges_nothing_of_the_garbage_earlier_work_left():
    """CPython's collector finalizes whatever garbage is waiting when it runs, at the firmware's
    ``gc.collect()`` or wherever allocation sets it off: a suspended firmware generator (here
    the Warmer's steps, as a simulated table an earlier test dropped leaves them) runs lines as
    it is closed. They are not the metered work's: its cost is the same whatever ran before."""
    import gc

    from tiletable.runtime.warmup import warm_steps

    def leave_a_suspended_generator():
        class Starter:
            def find_ruleset(self, name):
                return None

        starter = Starter()
        starter.steps = warm_steps(starter, "muggins")  # a cycle: only the collector frees it
        next(starter.steps)

    meter = LineMeter()
    leave_a_suspended_generator()
    meter.run(ChargedGc(gc).collect)
    assert meter.cost_us() == GC_COLLECT_US
    leave_a_suspended_generator()
    meter.run(gc.collect)  # the PC's own collection, in the middle of the firmware's work
    assert meter.cost_us() == 0


def test_the_first_journal_stream_of_a_boot_is_charged_its_imports_and_only_the_first(tmp_path):
    stream_imports = IMPORT_US["proto.stream"] + IMPORT_US["runtime.journal_read"]
    fill_journal(str(tmp_path / "journal"), 1)
    times = []
    for boot in range(2):  # the PC's process has imported the modules since: the chip's boot has not
        link = DeviceTimeTransport(str(tmp_path))
        link.hello()
        link.journal_stream(0)
        link.journal_stream(0)
        first, again = link.replies["journal stream"]
        assert first - again >= 0.9 * stream_imports / 1000, (boot, first, again)
        times.append(first)
    assert abs(times[0] - times[1]) < 1.0, times


def test_a_first_import_brings_in_what_its_module_imports_and_the_boot_s_modules_are_free(tmp_path):
    import tiletable

    imports = FirstImports(tiletable.__path__[0])
    imports.at_boot(lambda: None)
    assert imports.note("tiletable.runtime.app", ("App",)) == 0  # main.py imports it
    cost = imports.note("tiletable.engine", ("climb",))
    assert cost == IMPORT_US["engine.climb"] + IMPORT_US["engine.climb_combos"] + IMPORT_US["engine.cards"] + IMPORT_US["engine.holdings"]
    assert imports.note("tiletable.engine.climb", ("State",)) == 0
    assert imports.note("json") == 0


def test_an_import_is_charged_whole_even_after_an_import_of_its_own(tmp_path, monkeypatch):
    """A module that imports another, then calls its own function, adds no line: tracing stays
    off until the outermost import returns. Turned back on when the inner import returned, it
    traced the rest of the outer module's import (and CPython 3.11 crashed in a simulated
    table's first game start, tracing a generator there)."""
    import sys

    package = tmp_path / "tiletable"  # the meter counts lines of code under a tiletable folder
    package.mkdir()
    (package / "encap_inner.py").write_text("VALUE = 1\n")
    (package / "encap_outer.py").write_text(
        "import encap_inner\n\n\ndef add():\n    total = 0\n    for i in range(10):\n        total += i\n    return total\n\n\nTOTAL = add()\n"
    )
    monkeypatch.syspath_prepend(str(package))
    meter = LineMeter()
    meter.first_imports = FirstImports(str(package))

    def load():
        import encap_outer  # noqa: F401

    try:
        meter.run(load)
    finally:
        for name in ("encap_outer", "encap_inner"):
            sys.modules.pop(name, None)
    assert meter.lines == 0 and meter.engine_lines == 0 and meter.init_lines == 0


def test_a_walk_of_the_modules_is_charged_for_the_firmware_s_modules_only():
    import sys

    from chip_costs import VALIDATE_LINE_US
    from tiletable.heap import StockHeap

    firmware = len([m for m in sys.modules if m.startswith("tiletable")])
    assert len(sys.modules) > 3 * firmware  # the PC's process: the host's and the tests' modules too
    meter = LineMeter()
    meter.run(StockHeap().release, set(sys.modules))  # nothing new: a walk that unloads nothing
    assert meter.cost_us() <= (firmware + 10) * VALIDATE_LINE_US


def test_the_link_s_intake_is_charged_as_the_chip_s_machine_code_a_byte_read():
    import io
    import os

    from chip_costs import USB_TAKE_NS_PER_BYTE, USB_TAKE_US
    from tiletable.runtime.usblink import UsbLink

    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb", buffering=0) as usb_in:
        link = UsbLink(None, usb_in, io.BytesIO())
        os.write(write_end, bytes(300))
        meter = LineMeter()
        assert meter.run(link._take) == 300
        assert meter.cost_us() == USB_TAKE_US + 300 * USB_TAKE_NS_PER_BYTE // 1000  # none of its lines
        assert meter.run(link._take) == 0  # nothing waiting: the call alone
        assert meter.cost_us() == USB_TAKE_US
    os.close(write_end)


def test_a_request_s_cobs_decoding_is_charged_at_the_chip_s_pace_not_the_codec_s():
    from chip_costs import LINE_US, PROTO_LINE_US
    from tiletable.proto.frame import cobs_decode_into
    from tiletable.proto.messages import JOURNAL_STREAM, encode_message

    body = encode_message(JOURNAL_STREAM, 10, {"after": 0, "first": 0, "offset": 0, "frames": 64, "max": 4072})[1:-1]
    meter = LineMeter()
    meter.run(cobs_decode_into, bytearray(body), len(body))
    lines = meter.lines
    assert lines > 100 and meter.proto_lines == 0  # a code group at a time: its zeros are many
    assert meter.cost_us() == lines * LINE_US < lines * PROTO_LINE_US / 3  # the chip: 581 us


def test_a_constructor_s_lines_are_charged_as_the_chip_builds_objects():
    from chip_costs import INIT_LINE_US, LINE_US
    from tiletable.profiles import Profile

    meter = LineMeter()
    meter.run(Profile, "line-2p")  # the chip: 1.24 ms
    built, other = meter.init_lines, meter.lines
    assert built > other > 0
    assert meter.cost_us() == built * INIT_LINE_US + other * LINE_US > 1000


def test_an_idle_scan_is_charged_each_field_it_switches_on_and_off(tmp_path, monkeypatch):
    """A poll may visit a zone (its field off) and power the next in the field it freed, the
    count of fields on unchanged: each switch is charged all the same (on the chip each is
    register writes and, for a visit, its probe)."""
    import chip_costs
    from player import local_table

    visit_us, field_on_us = chip_costs.VISIT_US, chip_costs.FIELD_ON_US

    def idle(extra_us):
        monkeypatch.setattr(chip_costs, "VISIT_US", visit_us + extra_us)
        monkeypatch.setattr(chip_costs, "FIELD_ON_US", field_on_us + extra_us)
        root = tmp_path / str(extra_us)
        root.mkdir()
        table = local_table(str(root), fast=False).device
        table.run_for(300)
        readers = table.hardware.readers
        busy, switched = table.services.busy_us, sum(reader.field_switches for reader in readers)
        table.run_for(2000)
        switched = sum(reader.field_switches for reader in readers) - switched
        return (table.services.busy_us - busy) / switched

    per_visit = idle(0)
    dearer = idle(1000)
    assert 1900 <= dearer - per_visit <= 2100, (per_visit, dearer)  # a field on and a visit: 2 x 1 ms


def test_every_run_of_a_service_is_charged_asyncio_s_wake(tmp_path, monkeypatch):
    """On the chip each service's run begins with asyncio's pass that wakes its task (0.28 ms:
    the link's and the buttons' idle runs cost that much more than their calls)."""
    import chip_costs
    from player import local_table

    wake_us = chip_costs.WAKE_US

    def idle(extra_us):
        monkeypatch.setattr(chip_costs, "WAKE_US", wake_us + extra_us)
        root = tmp_path / str(extra_us)
        root.mkdir()
        services = local_table(str(root), fast=False).device.services
        services.run_until(services.bus.now_us + IDLE_AFTER_BOOT_US)  # the Warmer's steps done
        runs = []
        run = services.run_next

        def counted():
            runs.append(1)
            run()

        services.run_next = counted
        busy = services.busy_us
        services.run_until(services.bus.now_us + 1000 * 1000)
        return (services.busy_us - busy) / len(runs)

    per_run = idle(0)
    assert 950 <= idle(1000) - per_run <= 1050, per_run
