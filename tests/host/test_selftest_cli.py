"""``tiletable selftest`` against the simulated table through real pyserial on a pty: the host
starts the test and prints the prompts and the report while a person (this test, through the
device's control port, on fast-forwarded time) presses the buttons the display asks for."""
import threading
import time

import pytest

from cli import tiletable
from tiletable_host.simtable import SimulatedTable

BEFORE_BUTTONS_MS = 16000  # readers, display, LEDs and buzzer take about 15.3 s of table time
BUTTONS = ("0", "1", "2", "3", "menu", "ok", "undo")


@pytest.fixture(scope="module")
def table():
    simulated = SimulatedTable.start()
    yield simulated
    simulated.stop()


class Person(threading.Thread):
    """Waits until the table runs its self test, then answers its prompts (None: no press)."""

    def __init__(self, control, buttons):
        super().__init__(daemon=True)
        self.control = control
        self.buttons = buttons
        self.error = None

    def run(self):
        try:
            deadline = time.monotonic() + 10
            while self.control.state().get("selftest") != "running":
                if time.monotonic() > deadline:
                    raise AssertionError("the self test never started")
                time.sleep(0.02)
            self.control.wait(BEFORE_BUTTONS_MS)
            for button in self.buttons:
                if button is None:
                    self.control.wait(10010)
                else:
                    self.control.press(button)
            self.control.wait(3100)
        except Exception as exc:  # reported by the test
            self.error = exc


def _selftest(capsys, table, buttons, *options):
    person = Person(table.control, buttons)
    person.start()
    result = tiletable(capsys, ["selftest", "--port", table.port, "--wait", "60"] + list(options))
    person.join(30)
    assert person.error is None, person.error
    return result


def test_selftest_prints_the_prompts_and_a_passing_report(capsys, table):
    status, out, err = _selftest(capsys, table, BUTTONS)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("self test started on tiletable-")
    assert "table shows r0 92" in lines
    assert "table shows PUSH S1    -> press S1 on the table (10 s)" in lines
    assert "table shows PUSH UNDO  -> press UNDO on the table (10 s)" in lines
    assert "self test: TEST OK" in lines
    assert "  reader   8     ok       0x92" in lines
    assert "  button   MENU  ok" in lines
    assert lines[-1] == "0 failed, 0 warnings; judged by the person watching: display, leds, buzzer"
    assert table.control.state()["selftest"] == "TEST OK"


def test_selftest_fails_with_status_1_when_a_button_is_never_pressed(capsys, table):
    status, out, err = _selftest(capsys, table, BUTTONS[:5] + (None,) + BUTTONS[6:], "--quiet")
    assert status == 1
    assert "table shows" not in out
    assert "  button   OK    FAILED   missing: none in 10 s" in out.splitlines()
    assert err == "tiletable: selftest: 1 part failed, the first: bUt OK\n"


def test_selftest_last_prints_the_last_report_again(capsys, table):
    status, out, err = tiletable(capsys, ["selftest", "--last", "--port", table.port])
    assert status == 1 and out.splitlines()[0] == "self test: bUt OK"
    assert "table shows" not in out


def test_selftest_on_the_micropython_device(capsys, tmp_path):
    """The compiled firmware on the MicroPython unix port: the same run, four times; the later
    runs keep no more heap than the second left (the module is dropped after each run; what
    the first leaves, its interned names and the report, is not kept again).

    MicroPython's collector is conservative: a stale word in a live buffer (the link's frame
    buffers hold whatever bytes went through) can keep a few KB of garbage alive until the
    buffer is overwritten, and how much depends on timing (it showed up only on a busy
    machine). A leak grows with every run, so the least of runs 3 and 4 over run 2 shows one.
    """
    device = SimulatedTable.start(runtime="micropython", root=str(tmp_path))
    try:
        used = []
        for _ in range(4):
            status, out, err = _selftest(capsys, device, BUTTONS, "--quiet")
            assert status == 0, err
            assert out.splitlines()[0] == "self test: TEST OK"
            device.control.tones()  # the simulation's own log of what the buzzer played
            used.append(device.control.heap()[0])
        assert min(used[2:]) - used[1] < 1024, used
    finally:
        device.stop()
