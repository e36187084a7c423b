"""tiletable firmware entry point (micropython-async's "typical firmware app", TUTORIAL §2.2.4).

Maintenance (mpremote at the REPL): hold MENU while the board powers up, send the link's
MAINTENANCE request, or long-press MENU. The rp2 watchdog cannot be stopped once started,
so the last two leave a flag file and reset: the next boot finds the flag, removes it and
returns before the watchdog starts, leaving the Pico at the REPL until the next reset.
"""
import os
import sys

import asyncio
import machine
import time

from tiletable.heap import build_policy, keep_io_wait_off_heap

policy = build_policy()  # this build's heap policy (tiletable/heap.py)
policy.keep_packed()  # before the imports: where the bytecode is in the heap, it is kept packed

from tiletable.board.setup import build  # noqa: E402
from tiletable.runtime.app import assemble  # noqa: E402

_WATCHDOG_MS = 8000  # the rp2 port allows up to 8388 ms; the housekeeping task feeds it every 100 ms
_MAINTENANCE_FLAG = "/maintenance"


def set_global_exception():
    """A task that dies stops the firmware (the watchdog then resets it) instead of vanishing."""

    def handle_exception(loop, context):
        sys.print_exception(context["exception"])
        sys.exit()

    asyncio.get_event_loop().set_exception_handler(handle_exception)


def maintenance_flagged():
    try:
        os.remove(_MAINTENANCE_FLAG)
        return True
    except OSError:
        return False


async def main(app):
    set_global_exception()
    await app.run()


def start():
    board = build(machine)
    if maintenance_flagged() or board.menu_held():
        return  # stay at the REPL, no watchdog
    app = assemble(board, sys.stdin.buffer, sys.stdout.buffer, time.ticks_ms, unique_id=machine.unique_id(), ticks_us=time.ticks_us, policy=policy)
    app.selftest_on_first_boot(time.ticks_ms())  # hardware/README.md: first-run self test
    # Only now: checking the journal and replaying a long game to resume it may take more
    # than the watchdog's 8 s on an RP2040, and a watchdog started earlier would reset the
    # board in the middle of every boot.
    app.wdt = machine.WDT(timeout=_WATCHDOG_MS)
    keep_io_wait_off_heap(asyncio.core)
    try:
        asyncio.run(main(app))
    finally:
        app.close()
        asyncio.new_event_loop()
    if not app.restart_requested:  # a restart into a game (App.restart_into) is not maintenance
        with open(_MAINTENANCE_FLAG, "w") as flag:
            flag.write("1")
    machine.reset()


start()
