"""The viper layout of a MAX7219 latch (drivers/max7219_native.py) is the one the driver
uses on MicroPython, and lays out the bytes the datasheet's chain wants: per digit register,
one frame per chip, the chip furthest from the Pico first.

It runs only on MicroPython with a native emitter, so the check runs under the unix port with
the firmware's sources on the path (the unix port compiles the viper code for its own CPU)."""
from unix_port import needs_unix_port, run_on_unix_port

CHECK = r"""
import sys
sys.path.insert(0, "firmware")
import random
from tiletable.drivers import max7219, max7219_native
assert max7219.fill_row is max7219_native.fill_row, "the driver did not take the viper layout"

def by_the_datasheet(buffer, hidden, modules, register):
    out = bytearray()
    for module in reversed(range(modules)):
        index = module * 8 + 8 - register  # register 1 is a module's rightmost digit
        out.append(register)
        out.append(0 if hidden[index] else max7219._to_chip_order(buffer[index]))
    return out

random.seed(14)
count = 0
for trial in range(200):
    modules = random.randrange(1, 17)
    digits = 8 * modules
    buffer = bytearray(random.randrange(256) for _ in range(digits))
    hidden = bytearray(random.randrange(2) for _ in range(digits))
    register = random.randrange(1, 9)
    frames = bytearray(2 * modules)
    max7219.fill_row(frames, buffer, hidden, register)
    assert frames == by_the_datasheet(buffer, hidden, modules, register), (modules, register, buffer, hidden)
    count += 1
print("ok", count)
"""


@needs_unix_port
def test_the_driver_uses_the_viper_layout_and_it_matches_the_datasheet():
    assert run_on_unix_port(CHECK) == "ok 200"
