"""The self test in the whole simulated table (runtime/app.py around runtime/selftest.py): started
by a long OK press in the menu, by the SELF_TEST request and on the first boot; the table ignores
game input meanwhile, returns to the menu, reports over the link and remembers the result."""
import itertools
import sys

from player import local_table, reads

from tiletable.heap import StockHeap
from tiletable.proto.frame import FrameDecoder
from tiletable.proto.messages import (
    E_BAD_VALUE,
    E_NOT_FOUND,
    ERROR,
    EV_SELF_TEST,
    EV_ZONE,
    GAME_START,
    REPLY,
    SELF_TEST,
    decode_payload,
    encode_message,
)
from tiletable.runtime.selftest import BUTTON_TIMEOUT_MS

BEFORE_BUTTONS_MS = 16000  # readers, display, LEDs and buzzer take about 15.3 s
BUTTONS = ("0", "1", "2", "3", "menu", "ok", "undo")
PROMPTS = ("S1", "S2", "S3", "S4", "MENU", "OK", "UNDO")


def shows(control):
    return "".join(control.display()).rstrip()


def answer_prompts(control, buttons=BUTTONS):
    control.command("wait %d" % BEFORE_BUTTONS_MS)
    for prompt, button in zip(PROMPTS, buttons):
        assert reads(shows(control), "PUSH " + prompt), shows(control)
        if button is None:
            control.command("wait %d" % (BUTTON_TIMEOUT_MS + 10))
        else:
            control.press(button)
    control.command("wait 3100")  # the result stays on the display for 3 s


_numbers = itertools.count(1)


def request(control, msg_type, fields):
    """Send one request to the device's link server, numbered as a host numbers them (the same
    number again is a retry, answered with the first reply); (reply type, fields)."""
    app = control.device.app
    (frame,) = app.server.receive(encode_message(msg_type, next(_numbers), fields))
    ((_, got_type, _, payload),) = FrameDecoder().feed(frame)
    return got_type, decode_payload(got_type, payload)


def events(control, msg_type):
    """Every event of ``msg_type`` the device has written to its USB port so far."""
    out = control.device.app.link._out.getvalue()
    return [decode_payload(t, payload) for _, t, _, payload in FrameDecoder().feed(out) if t == msg_type]


def test_a_long_ok_press_in_the_menu_runs_the_self_test_then_returns_to_the_menu(tmp_path):
    control = local_table(tmp_path, policy=StockHeap)  # a stock build's: the self test's code goes again
    menu = control.display()
    control.press("ok", "long")
    assert control.state()["selftest"] == "running"
    assert "tiletable.runtime.selftest" in sys.modules
    answer_prompts(control)
    state = control.state()
    assert state["mode"] == "menu" and state["selftest"] == "TEST OK" and "ruleset" not in state
    assert control.display() == menu
    assert (tmp_path / "selftest.done").read_text() == "TEST OK"
    assert "tiletable.runtime.selftest" not in sys.modules  # dropped again: heap


def test_the_table_ignores_tiles_and_game_buttons_during_the_self_test(tmp_path):
    control = local_table(tmp_path)
    control.press("ok", "long")
    hardware = control.device.hardware
    hardware.readers[0].place(control.device.pieces.tag("3-3"))
    control.command("wait 2000")
    assert events(control, EV_ZONE) == []
    assert not any(model.field_on for model in hardware.readers[1:])
    answer_prompts(control)
    assert control.state()["menu"] == ["muggins", 4]  # the seat presses did not step the menu
    assert "ruleset" not in control.state()  # the OK press did not start a game


def test_the_link_starts_it_and_gets_progress_and_the_report(tmp_path):
    control = local_table(tmp_path)
    refused = {"code": E_NOT_FOUND, "request": SELF_TEST, "message": "no self test has completed since boot"}
    assert request(control, SELF_TEST, {"run": 0}) == (ERROR, refused)
    assert request(control, SELF_TEST, {"run": 1}) == (SELF_TEST | REPLY, {})
    got_type, fields = request(control, SELF_TEST, {"run": 1})
    assert got_type == ERROR and fields["code"] == E_BAD_VALUE and "running" in fields["message"]
    got_type, fields = request(control, GAME_START, {"ruleset": "muggins", "players": ["a", "b"]})
    assert got_type == ERROR and fields["code"] == E_BAD_VALUE
    control.device.hardware.readers[5].version = 0x12  # a clone
    answer_prompts(control, BUTTONS[:4] + (None,) + BUTTONS[5:])  # MENU is never pressed
    reports = events(control, EV_SELF_TEST)
    progress = [fields["shows"] for fields in reports if not fields["done"]]
    assert progress[:3] == ["r0 92", "r1 92", "r2 92"] and progress[5] == "r5 12"
    assert progress[-8:] == ["PUSH " + prompt for prompt in PROMPTS] + ["bUt MENU"]
    final = reports[-1]
    assert final["done"] == 1 and final["shows"] == "bUt MENU"
    assert len(final["results"]) == 19
    assert final["results"][5] == {"part": "reader", "item": "5", "status": "warn", "detail": "0x12 clone, not used"}
    assert {"part": "button", "item": "MENU", "status": "fail", "detail": "missing: none in 10 s"} in final["results"]
    assert control.state()["selftest"] == "bUt MENU"
    assert request(control, SELF_TEST, {"run": 0}) == (SELF_TEST | REPLY, {})
    control.command("wait 20")
    assert events(control, EV_SELF_TEST)[-1] == final


def test_no_self_test_while_a_game_is_in_progress(tmp_path):
    control = local_table(tmp_path)
    control.press("ok")  # Muggins for 4 starts
    got_type, fields = request(control, SELF_TEST, {"run": 1})
    assert got_type == ERROR and fields["code"] == E_BAD_VALUE and "game is in progress" in fields["message"]
    control.press("menu")  # the menu over the game in progress
    control.press("ok", "long")
    assert "selftest" not in control.state()
    assert control.state()["last_error"] == [E_BAD_VALUE, "a game is in progress: stop it before the self test"]
    assert reads(control.display()[0], "GAME")


def test_the_first_boot_runs_it_once_and_never_over_a_game_to_resume(tmp_path):
    control = local_table(tmp_path)
    app = control.device.app
    assert app.selftest_on_first_boot(control.device.clock()) is True
    answer_prompts(control)
    assert control.state()["selftest"] == "TEST OK"
    again = local_table(tmp_path)
    assert again.device.app.selftest_on_first_boot(again.device.clock()) is False  # the flag file is there
    (tmp_path / "selftest.done").unlink()
    again.press("ok")  # a game starts, and is in progress at the next power-on
    again.device.app.journal.flush()
    resumed = local_table(tmp_path)
    assert resumed.state()["mode"] == "game"
    assert resumed.device.app.selftest_on_first_boot(resumed.device.clock()) is False
    assert "selftest" not in resumed.state()
