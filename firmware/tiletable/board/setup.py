"""Build the reference board's peripherals from the pin map and a ``machine`` module.

The drivers never import ``machine``; this is the one place that does, and it takes the
module as an argument: ``build(machine)`` on the Pico gets the real one, the simulated
device passes ``sim/machine.py`` (with models already attached to the pins), and the same
code wires both. ``neopixel`` is imported here for the same reason: the rp2 firmware
freezes it, ``sim/neopixel.py`` stands in for it in simulation.

Example::

    import machine
    from tiletable.board.setup import build
    board = build(machine)
    board.display.draw_text(0, "MUGG"); board.display.show()
"""
from tiletable.board import pins
from tiletable.drivers.buttons import Buttons
from tiletable.drivers.buzzer import Buzzer
from tiletable.drivers.max7219 import Max7219
from tiletable.drivers.mfrc522 import MFRC522
from tiletable.drivers.segments import DisplayRow, ScoreDisplay
from tiletable.drivers.status_leds import StatusLeds

SEATS = len(pins.BUTTON_SEAT)
# Index of each table button in ``Board.buttons`` (the seat buttons come first, 0..SEATS-1).
BUTTON_MENU = SEATS
BUTTON_OK = SEATS + 1
BUTTON_UNDO = SEATS + 2
LED_BUDGET_MA = 150  # hardware/POWER.md: what the strip may draw from the USB budget


class Board:
    """The peripherals, built once at boot. ``readers[zone]`` opens that zone's MFRC522 (the
    tray reopens a reader that dropped off the bus, so it gets openers, not chips);
    ``reader_cs[zone]`` is its chip-select pin (the self test talks to readers it cannot open)."""

    def __init__(self, machine, spi, readers, chain, display, strip, buzzer, buttons, button_pins, reader_cs=()):
        self.machine = machine
        self.spi = spi
        self.readers = readers
        self.chain = chain
        self.display = display
        self.strip = strip
        self.buzzer = buzzer
        self.buttons = buttons
        self.button_pins = button_pins
        self.reader_cs = reader_cs

    def menu_held(self):
        """Whether MENU is held down right now (at boot: stay in the REPL for maintenance)."""
        return self.button_pins[BUTTON_MENU].value() == 0


def _opener(machine, spi, cs_gpio):
    def open_reader():
        return MFRC522(spi, machine.Pin(cs_gpio))

    return open_reader


def build(machine, display=None):
    """Every peripheral of the board, from ``pins``; ``display`` is the one fitted ("max7219"
    or "tm1637", default ``pins.DISPLAY_FITTED``). ``Board.chain`` is the whole display as one
    row of digits (the MAX7219 chain, or the TM1637 modules side by side).

    :raises OSError: from a driver whose chip does not answer (a TM1637 that does not
        acknowledge; the readers are only opened later, by the tray).
    :raises ValueError: for a display that is neither.
    """
    from neopixel import NeoPixel

    spi = machine.SPI(
        pins.READER_SPI,
        baudrate=pins.READER_BAUDRATE,
        sck=machine.Pin(pins.READER_SCK),
        mosi=machine.Pin(pins.READER_MOSI),
        miso=machine.Pin(pins.READER_MISO),
    )
    # Every chip-select high before the first transaction: a reader left selected would
    # answer on top of the next one.
    reader_cs = [machine.Pin(cs, machine.Pin.OUT, value=1) for cs in pins.READER_CS]
    readers = [_opener(machine, spi, cs) for cs in pins.READER_CS]
    width = pins.DISPLAY_DIGITS_PER_SEAT
    fitted = display or pins.DISPLAY_FITTED
    if fitted == "max7219":
        chain = Max7219(spi, machine.Pin(pins.DISPLAY_LOAD), pins.DISPLAY_MODULES, max_brightness=pins.DISPLAY_MAX_INTENSITY)
        scores = ScoreDisplay([(chain, seat * width) for seat in range(SEATS)], width)
    elif fitted == "tm1637":
        from tiletable.drivers.tm1637 import TM1637

        clk = machine.Pin(pins.TM1637_CLK)
        modules = [TM1637(clk, machine.Pin(dio), digits=width) for dio in pins.TM1637_DIO]
        chain = DisplayRow(modules)
        scores = ScoreDisplay([(module, 0) for module in modules], width)
    else:
        raise ValueError("no display %r (max7219 or tm1637)" % (fitted,))
    strip = NeoPixel(machine.Pin(pins.LED_DATA), pins.LED_COUNT)
    buzzer = Buzzer(machine.PWM(machine.Pin(pins.BUZZER), freq=440, duty_u16=0))
    gpios = tuple(pins.BUTTON_SEAT) + (pins.BUTTON_MENU, pins.BUTTON_OK, pins.BUTTON_UNDO)
    button_pins = [machine.Pin(gpio) for gpio in gpios]
    buttons = Buttons(button_pins)  # its IRQs are the App's (assemble: they need its clock)
    return Board(machine, spi, readers, chain, scores, strip, buzzer, buttons, button_pins, reader_cs)


def status_leds(board, seat_zones, end_zones):
    """The status LEDs of a table profile: LED n sits beside zone n (hardware/pinmap.json), so
    a seat's LED is its pad's and an end's LED is its end zone's; the table LED shows flashes too."""
    leds = StatusLeds(
        board.strip,
        seat_leds=tuple(seat_zones),
        end_leds=tuple((zone,) for zone in end_zones),
        budget_ma=LED_BUDGET_MA,
    )
    leds.set_brightness(pins.LED_MAX_LEVEL)  # 255 * LED_MAX_LEVEL / 255: the brightest channel
    return leds
