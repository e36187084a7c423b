"""The App runs the services it publishes (``App.services()``), on asyncio as on the chip, and
the simulated table runs the same ones on its device clock: one schedule, no copy of it in
the simulation, and no firmware module changed by importing the simulation."""
import asyncio
import binascii
import gc
import io
import os

from player import local_table


def test_importing_the_simulation_changes_no_firmware_module():
    import device  # noqa: F401
    from tiletable.proto import frame, server
    from tiletable.runtime import app

    assert frame.crc32 is binascii.crc32 and server.gc is gc and app.gc is gc


def test_the_simulated_table_runs_the_steps_the_app_publishes(tmp_path):
    table = local_table(tmp_path, fast=False).device
    published = table.app.services()
    tasks = sorted(table.services._tasks, key=lambda task: task[-1])  # as App.longest_us orders them
    assert [task[3] for task in tasks] == [step for step, _, _ in published]
    assert [task[4] for task in tasks] == [period for _, period, _ in published]
    table.run_for(1000)
    assert min(table.app.longest_us) > 0  # each ran, timed in device time


def test_app_run_runs_each_service_s_first_then_its_steps_in_the_published_order(tmp_path):
    from device import Hardware
    from tiletable.runtime.app import assemble

    usb_in, usb_out = os.pipe()
    with os.fdopen(usb_in, "rb", buffering=0) as instream:
        app = assemble(Hardware().board, instream, io.BytesIO(), lambda: 0, root=str(tmp_path))
        ran = []

        def service(name, wait):
            def step(now_ms):
                ran.append(name)
                return wait

            return step

        app.services = lambda: (
            (service("scan", 0), 10, None),
            (service("buttons", None), 10, None),
            (service("link", 0), 5, service("first", None)),
            (service("housekeeping", None), 100, None),
        )

        async def stop():
            while len(ran) < 12:
                await asyncio.sleep(0)
            app.running = False

        asyncio.run(app.run(stop()))
        app.close()
    os.close(usb_out)
    assert ran[:5] == ["scan", "buttons", "first", "link", "housekeeping"]
    assert ran.count("first") == 1 and ran.count("scan") > 1 and ran.count("link") > 1  # no wait: again at once
