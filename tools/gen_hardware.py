#!/usr/bin/env python3
"""Generate the firmware's pin module and the hardware drawings from the design data.

hardware/pinmap.json and hardware/trays.json are the only hand-written sources; this
script derives firmware/tiletable/board/pins.py, hardware/PINS.md, hardware/POWER.md,
hardware/wiring.svg and hardware/trays/<profile>.svg from them, so the firmware, the
drawings and the pin map cannot disagree (tests/hardware/ regenerates in memory and
compares with the committed files). Which games play on a tray is said by their preset
documents alone ("trays": firmware/tiletable/families.py), so that a new game touches no drawing.

    .venv/bin/python tools/gen_hardware.py           # rewrite every generated file
    .venv/bin/python tools/gen_hardware.py --check   # list stale files, exit status 1 if any
"""
import argparse
import json
import os
import sys
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINMAP_PATH = "hardware/pinmap.json"
TRAYS_PATH = "hardware/trays.json"
PINS_MODULE_PATH = "firmware/tiletable/board/pins.py"

# --- RP2040 and Pico facts (RP2040 datasheet "GPIO function select" table, Pico datasheet) ---

# Function F1 of the GPIO table: the SPI signal each GPIO can carry.
SPI_PINS = {
    0: {"rx": (0, 4, 16, 20), "csn": (1, 5, 17, 21), "sck": (2, 6, 18, 22), "tx": (3, 7, 19, 23)},
    1: {"rx": (8, 12, 24, 28), "csn": (9, 13, 25, 29), "sck": (10, 14, 26), "tx": (11, 15, 27)},
}
# GPIOs the Pico board itself uses; none of them reaches the header as a free pin.
BOARD_GPIOS = {23: "SMPS power-save", 24: "VBUS sense", 25: "on-board LED", 29: "VSYS/3 on ADC3"}
HEADER_GPIOS = tuple(range(23)) + (26, 27, 28)
ADC_CHANNEL = {26: 0, 27: 1, 28: 2}
# Pico header pin of each GPIO, and the power/ground pins.
HEADER_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}
POWER_PINS = {
    3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 30: "RUN", 33: "AGND",
    35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}


def pwm_channel(gpio):
    """(slice, "A"|"B") of a GPIO's PWM function (F4): slices repeat every 16 GPIOs."""
    return (gpio >> 1) & 7, "AB"[gpio & 1]


# --- Currents for the power budget (mA, worst case unless marked as an allowance) ---

USB_LIMIT_MA = 500  # USB 2.0 port after enumeration
READER_IDLE_MA = 17  # MFRC522: IDDD 6.5 mA typ + IDDA 10 mA max, rounded up; transmitter off
READER_TX_MA = 100  # MFRC522: ITVDD 60 mA typ, 100 mA max with the antenna on
REGULATOR_GROUND_MA = 5  # AMS1117-3.3 quiescent current, max
REGULATOR_LIMIT_MA = 800  # AMS1117 is rated 1 A; keep 20% in hand
MAX7219_SEGMENT_MA = 40  # peak segment current with the modules' 10 kOhm RSET (datasheet: 9.53 kOhm -> 40 mA)
MAX7219_CHIP_MA = 8  # allowance for the chip itself with the segments off
WS2812_CHANNEL_MA = 20  # per colour at level 255
WS2812_IDLE_MA = 1  # allowance for each LED's controller
PICO_MA = 50  # allowance: about twice what a busy Pico draws from VSYS
BUFFER_MA = 1  # 74AHCT125: ICC 40 uA static; allowance for switching
BUZZER_MA = 15  # allowance for a passive piezo through its transistor


def load(root=ROOT):
    """The pin map and the tray description, parsed."""
    with open(os.path.join(root, PINMAP_PATH)) as handle:
        pinmap = json.load(handle)
    with open(os.path.join(root, TRAYS_PATH)) as handle:
        trays = json.load(handle)
    return pinmap, trays


def signals(pinmap):
    """Every pin the reference build drives or reads: ``(name, gpio, function, connects_to)``.

    ``function`` is what the RP2040 must do on that pin: ``spi<n>_sck``, ``spi<n>_tx``,
    ``spi<n>_rx``, ``out``, ``in_pullup``, ``pwm`` or ``bitstream`` (any GPIO; WS2812 timing
    by the CPU). The spare pins are ``pinmap["spare"]``; the TM1637 build's pins come from
    ``alternative_signals``.
    """
    readers, display, leds = pinmap["readers"], pinmap["display"], pinmap["leds"]
    bus = "spi%d" % readers["spi"]
    out = [
        ("READER_SCK", readers["sck"], bus + "_sck", "every reader's SCK; 74AHCT125 1A (MAX7219 CLK)"),
        ("READER_MOSI", readers["mosi"], bus + "_tx", "every reader's MOSI; 74AHCT125 2A (MAX7219 DIN)"),
        ("READER_MISO", readers["miso"], bus + "_rx", "every reader's MISO"),
    ]
    for zone, gpio in enumerate(readers["cs"]):
        out.append(("READER_CS%d" % zone, gpio, "out", "reader %d SDA (chip-select), 10 kOhm to 3V3_READERS" % zone))
    out.append(("DISPLAY_LOAD", display["load"], "out", "74AHCT125 3A (MAX7219 LOAD)"))
    out.append(("LED_DATA", leds["data"], "bitstream", "74AHCT125 4A (WS2812 DIN via 330 Ohm)"))
    out.append(("BUZZER", pinmap["buzzer"]["pwm"], "pwm", "1 kOhm to the buzzer transistor's base"))
    buttons = pinmap["buttons"]
    for seat, gpio in enumerate(buttons["seat"], 1):  # seats as people count them (and label them)
        out.append(("BUTTON_SEAT%d" % seat, gpio, "in_pullup", "seat %d button to GND" % seat))
    for name in sorted(buttons["table"], key=buttons["table"].get):
        out.append(("BUTTON_%s" % name.upper(), buttons["table"][name], "in_pullup", "table %s button to GND" % name.upper()))
    return out


def alternative_signals(pinmap):
    """The TM1637 build's pins: ``(name, gpio, function, connects_to)``; they replace the MAX7219's."""
    alt = pinmap["display"]["tm1637_alternative"]
    out = [("TM1637_CLK", alt["clk"], "open_drain", "CLK of every TM1637 module")]
    for seat, gpio in enumerate(alt["dio"], 1):
        out.append(("TM1637_DIO%d" % seat, gpio, "open_drain", "DIO of seat %d's TM1637 module" % seat))
    return out


# --- firmware/tiletable/board/pins.py ---


def _tuple(values):
    return "(%s)" % ", ".join(str(v) for v in values) if len(values) != 1 else "(%d,)" % values[0]


def render_pins_module(pinmap):
    readers, display, leds = pinmap["readers"], pinmap["display"], pinmap["leds"]
    alt = display["tm1637_alternative"]
    table = pinmap["buttons"]["table"]
    lines = [
        '"""Pin assignment of the tiletable reference board (Raspberry Pi Pico, RP2040 GPIO numbers).',
        "",
        "GENERATED by tools/gen_hardware.py from hardware/pinmap.json: do not edit. Change the pin",
        "map, then run ``.venv/bin/python tools/gen_hardware.py``; tests/hardware/ fails while this",
        "file and the pin map disagree. hardware/README.md and hardware/wiring.svg show the wiring.",
        '"""',
        "",
        "# Readers, one MFRC522 per tray zone, on SPI%d; READER_CS[zone] selects that zone's reader." % readers["spi"],
        "READER_SPI = %d" % readers["spi"],
        "READER_SCK = %d" % readers["sck"],
        "READER_MOSI = %d" % readers["mosi"],
        "READER_MISO = %d" % readers["miso"],
        "READER_BAUDRATE = %d" % readers["baudrate"],
        "READER_CS = %s" % _tuple(readers["cs"]),
        "# Antennas the scanner may have on at once (the power budget counts each), and the pairs of",
        "# zones whose antennas would disturb each other and are never on together.",
        "READER_FIELDS_ON = %d" % readers["fields_on"],
        "READER_FIELD_CONFLICTS = %r" % (tuple(tuple(pair) for pair in readers["field_conflicts"]),),
        "# None: RST is tied to the readers' 3.3 V supply; reset a reader with its SoftReset command.",
        "READER_RST = %r" % (readers["rst"],),
        "",
        "# The display this board has: \"max7219\" (the chain below) or \"tm1637\" (one module per seat).",
        "DISPLAY_FITTED = %r" % display["fitted"],
        "# Display: a chain of MAX7219 modules on the reader bus (same SCK/MOSI), latched by DISPLAY_LOAD.",
        "DISPLAY_MODULES = %d" % display["modules"],
        "DISPLAY_DIGITS_PER_SEAT = %d" % display["digits_per_seat"],
        "DISPLAY_LOAD = %d" % display["load"],
        "# Highest MAX7219 intensity register value the USB power budget allows (hardware/POWER.md).",
        "DISPLAY_MAX_INTENSITY = %d" % display["max_intensity"],
        "# TM1637 build instead of MAX7219: shared CLK, one DIO per seat (TM1637_DIO[seat]).",
        "TM1637_CLK = %d" % alt["clk"],
        "TM1637_DIO = %s" % _tuple(alt["dio"]),
        "",
        "# WS2812 status LEDs: LED n beside zone n, the last one is the table status LED.",
        "LED_DATA = %d" % leds["data"],
        "LED_COUNT = %d" % leds["count"],
        "# Highest value of any colour channel (0-255) the USB power budget allows.",
        "LED_MAX_LEVEL = %d" % leds["max_level"],
        "",
        "# Passive buzzer, PWM slice %d channel %s (no other PWM output shares the slice)." % pwm_channel(pinmap["buzzer"]["pwm"]),
        "BUZZER = %d" % pinmap["buzzer"]["pwm"],
        "",
        "# Buttons to GND, internal pull-up, active low; BUTTON_SEAT[seat].",
        "BUTTON_SEAT = %s" % _tuple(pinmap["buttons"]["seat"]),
    ]
    for name in sorted(table, key=table.get):
        lines.append("BUTTON_%s = %d" % (name.upper(), table[name]))
    lines += [
        "",
        "# Not wired in the MAX7219 build (the TM1637 build uses them as DIO lines).",
        "SPARE = %s" % _tuple(pinmap["spare"]),
        "",
    ]
    return "\n".join(lines)


# --- hardware/PINS.md ---


def render_pins_md(pinmap):
    rows = []
    for name, gpio, function, connects in signals(pinmap):
        rows.append((gpio, name, function, connects))
    for gpio in pinmap["spare"]:
        extra = " (ADC%d)" % ADC_CHANNEL[gpio] if gpio in ADC_CHANNEL else ""
        rows.append((gpio, "SPARE", "-", "not wired in the MAX7219 build" + extra))
    rows.sort()
    out = [
        "# Pin assignment (generated)",
        "",
        "Generated by `tools/gen_hardware.py` from `hardware/pinmap.json`; do not edit. Header pin",
        "numbers count from pin 1 (GP0, next to the USB socket) down the left side, then from pin 21",
        "(GP16) up the right side.",
        "",
        "| GPIO | header pin | signal | RP2040 function | connects to |",
        "|---|---|---|---|---|",
    ]
    for gpio, name, function, connects in rows:
        out.append("| GP%d | %s | %s | %s | %s |" % (gpio, HEADER_PIN.get(gpio, "none"), name, function, connects))
    out += [
        "",
        "Board-internal GPIOs, never used: %s." % ", ".join("GP%d (%s)" % item for item in sorted(BOARD_GPIOS.items())),
        "",
        "## TM1637 alternative",
        "",
        "Fit either the MAX7219 chain or four TM1637 modules. The TM1637 build takes these pins",
        "(the MAX7219's LOAD pin and the spare pins), wired straight to the Pico, modules powered",
        "from 3V3(OUT):",
        "",
        "| GPIO | header pin | signal | connects to |",
        "|---|---|---|---|",
    ]
    for name, gpio, _, connects in alternative_signals(pinmap):
        out.append("| GP%d | %s | %s | %s |" % (gpio, HEADER_PIN.get(gpio, "none"), name, connects))
    out.append("")
    return "\n".join(out)


# --- hardware/POWER.md ---


def power_budget(pinmap):
    """Worst-case 5 V rows ``(load, arithmetic, mA)`` and the reader rail's current in mA."""
    readers = len(pinmap["readers"]["cs"])
    display = pinmap["display"]
    leds = pinmap["leds"]
    fields = pinmap["readers"]["fields_on"]
    reader_rail = readers * READER_IDLE_MA + fields * READER_TX_MA
    duty_32nds = 2 * display["max_intensity"] + 1
    display_chip = MAX7219_CHIP_MA + 8 * MAX7219_SEGMENT_MA * duty_32nds / 32
    led_each = WS2812_IDLE_MA + 3 * WS2812_CHANNEL_MA * leds["max_level"] / 255
    rows = [
        ("Pico (RP2040, flash, MicroPython)", "allowance", PICO_MA),
        (
            "%d MFRC522 readers via the 3.3 V regulator" % readers,
            "%d x %d mA (antenna off) + %d x %d mA (the antennas on at once) + %d mA regulator"
            % (readers, READER_IDLE_MA, fields, READER_TX_MA, REGULATOR_GROUND_MA),
            reader_rail + REGULATOR_GROUND_MA,
        ),
        (
            "%d MAX7219 modules, every segment lit" % display["modules"],
            "%d x (%d mA + 8 segments x %d mA x %d/32 duty at intensity %d)"
            % (display["modules"], MAX7219_CHIP_MA, MAX7219_SEGMENT_MA, duty_32nds, display["max_intensity"]),
            display["modules"] * display_chip,
        ),
        (
            "%d WS2812B LEDs, white at the level cap" % leds["count"],
            "%d x (%d mA + 3 x %d mA x %d/255)" % (leds["count"], WS2812_IDLE_MA, WS2812_CHANNEL_MA, leds["max_level"]),
            leds["count"] * led_each,
        ),
        ("74AHCT125 level shifter", "allowance", BUFFER_MA),
        ("buzzer (piezo and transistor)", "allowance", BUZZER_MA),
    ]
    return rows, reader_rail


def render_power_md(pinmap):
    rows, reader_rail = power_budget(pinmap)
    readers = len(pinmap["readers"]["cs"])
    total = sum(row[2] for row in rows)
    out = [
        "# Power budget (generated)",
        "",
        "Generated by `tools/gen_hardware.py` from `hardware/pinmap.json` and the part currents at",
        "the top of the script; do not edit. Worst case at the same instant, drawn from USB's 5 V.",
        "",
        "| load | arithmetic | mA |",
        "|---|---|---|",
    ]
    for load, arithmetic, current in rows:
        out.append("| %s | %s | %.1f |" % (load, arithmetic, current))
    out += [
        "| **total** | | **%.1f** |" % total,
        "",
        "USB allows %d mA: %.1f mA to spare." % (USB_LIMIT_MA, USB_LIMIT_MA - total),
        "",
        "The budget holds only because of three firmware rules:",
        "",
        "* **At most %d antennas on at once** (`READER_FIELDS_ON`). The scanner switches each reader's"
        % pinmap["readers"]["fields_on"],
        "  antenna on (TxControlReg) only for a visit of its zone, and scans one zone while the other's",
        "  field settles, so every zone is read twice as often. With every antenna on, the",
        "  readers alone would take %d x (%d + %d) = %d mA (and neighbouring fields would disturb each other)."
        % (readers, READER_IDLE_MA, READER_TX_MA, readers * (READER_IDLE_MA + READER_TX_MA)),
        "* **MAX7219 intensity at most %d** (`DISPLAY_MAX_INTENSITY`). At full intensity (31/32 duty)"
        % pinmap["display"]["max_intensity"],
        "  each module could take %d + 8 x %d x 31/32 = %.0f mA with every segment lit."
        % (MAX7219_CHIP_MA, MAX7219_SEGMENT_MA, MAX7219_CHIP_MA + 8 * MAX7219_SEGMENT_MA * 31 / 32),
        "* **LED channels at most %d of 255** (`LED_MAX_LEVEL`). Full white would be %d mA per LED."
        % (pinmap["leds"]["max_level"], 3 * WS2812_CHANNEL_MA),
        "",
        "The readers' 3.3 V regulator (AMS1117-3.3) carries %d mA, under its %d mA working limit, and"
        % (reader_rail, REGULATOR_LIMIT_MA),
        "dissipates (5.0 V - 3.3 V) x %d mA = %.2f W: use the SOT-223 package (a common ready-made module)"
        % (reader_rail, 1.7 * reader_rail / 1000),
        "and give it some copper. The Pico's own 3V3(OUT) (about 300 mA available) feeds only the",
        "RP2040, or the four TM1637 modules in that build.",
        "",
    ]
    return "\n".join(out)


# --- SVG helpers ---


def _text(x, y, content, size=12, anchor="start", weight="normal", fill="#000"):
    return '<text x="%g" y="%g" font-size="%g" text-anchor="%s" font-weight="%s" fill="%s">%s</text>' % (
        x, y, size, anchor, weight, fill, escape(content))


def _rect(x, y, w, h, fill="none", stroke="#000", dash=None, width=1.5):
    extra = ' stroke-dasharray="%s"' % dash if dash else ""
    return '<rect x="%g" y="%g" width="%g" height="%g" fill="%s" stroke="%s" stroke-width="%g"%s/>' % (
        x, y, w, h, fill, stroke, width, extra)


def _line(x1, y1, x2, y2, stroke="#000", width=1.2, dash=None):
    extra = ' stroke-dasharray="%s"' % dash if dash else ""
    return '<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g"%s/>' % (x1, y1, x2, y2, stroke, width, extra)


def _svg(width, height, body, title, scale=1):
    """A whole SVG document; ``scale`` px per drawing unit (the trays are drawn in mm)."""
    return "\n".join(
        [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="DejaVu Sans, Arial, sans-serif">' % (width * scale, height * scale, width, height),
            "<title>%s</title>" % escape(title),
            _rect(0, 0, width, height, fill="#fff", stroke="none"),
        ]
        + body
        + ["</svg>", ""]
    )


def _block(x, y, width, title, rows, fill="#f4f4f4"):
    """A labelled box listing ``(pin, net)`` rows; returns (svg elements, height)."""
    height = 26 + 17 * len(rows) + 8
    body = [_rect(x, y, width, height, fill=fill), _text(x + 8, y + 18, title, 13, weight="bold")]
    for index, (pin, net) in enumerate(rows):
        row_y = y + 40 + 17 * index
        body.append(_text(x + 10, row_y, pin, 11))
        body.append(_text(x + width - 10, row_y, net, 11, anchor="end", fill="#14508c"))
    return body, height


# --- hardware/wiring.svg ---

NET_COLOUR = {"spi": "#14508c", "out": "#1b7a3a", "bitstream": "#a0522d", "pwm": "#8b008b", "in_pullup": "#b8860b"}


def render_wiring_svg(pinmap):
    """Connection diagram: the Pico's header with a net label on every used pin, and one box
    per part listing its pins and the nets they join. Same net name = same wire."""
    by_gpio = {gpio: (name, function) for name, gpio, function, _ in signals(pinmap)}
    for gpio in pinmap["spare"]:
        by_gpio[gpio] = ("SPARE", "spare")
    alt = {gpio: name for name, gpio, _, _ in alternative_signals(pinmap)}
    body = [
        _text(20, 30, "tiletable reference wiring (generated from hardware/pinmap.json)", 18, weight="bold"),
        _text(20, 52, "Pins with the same net name are wired together; nets ending in _5V come out of the 74AHCT125.", 12),
        _text(20, 70, "Colours: blue SPI, green chip-select and latch outputs, orange buttons, purple PWM, "
              "brown LED data, red power, grey spare.", 12),
    ]
    pico_x, pico_y, pitch = 330, 130, 30
    body.append(_rect(pico_x, pico_y, 200, 20 * pitch + 20, fill="#e8f3e8"))
    body.append(_text(pico_x + 100, pico_y - 22, "Raspberry Pi Pico", 15, anchor="middle", weight="bold"))
    body.append(_text(pico_x + 100, pico_y - 6, "top view, USB socket at the top", 11, anchor="middle"))
    gpio_of_pin = {pin: gpio for gpio, pin in HEADER_PIN.items()}
    for pin in range(1, 41):
        left = pin <= 20
        row = pin - 1 if left else 40 - pin
        y = pico_y + 20 + row * pitch
        gpio = gpio_of_pin.get(pin)
        label = "GP%d" % gpio if gpio is not None else POWER_PINS[pin]
        inner_x = pico_x + 6 if left else pico_x + 194
        body.append(_text(inner_x, y + 4, "%d %s" % (pin, label) if left else "%s %d" % (label, pin), 11,
                          anchor="start" if left else "end"))
        if gpio is None or gpio not in by_gpio:
            continue
        name, function = by_gpio[gpio]
        colour = NET_COLOUR.get("spi" if function.startswith("spi") else function, "#777")
        stub_end = pico_x - 60 if left else pico_x + 260
        body.append(_line(pico_x if left else pico_x + 200, y, stub_end, y, stroke=colour, width=2))
        note = name if gpio not in alt else "%s / %s" % (name, alt[gpio])
        body.append(_text(stub_end - 4 if left else stub_end + 4, y + 4, note, 11,
                          anchor="end" if left else "start", fill=colour))
    for pin, label in ((40, "VBUS"), (38, "GND"), (36, "3V3(OUT)")):
        y = pico_y + 20 + (40 - pin) * pitch
        body.append(_line(pico_x + 200, y, pico_x + 260, y, stroke="#c00", width=2))
        net = {"VBUS": "5V (USB)", "GND": "GND", "3V3(OUT)": "3V3_PICO"}[label]
        body.append(_text(pico_x + 264, y + 4, net, 11, fill="#c00"))

    readers = pinmap["readers"]
    cs_list = ", ".join("CS%d=GP%d" % (zone, gpio) for zone, gpio in enumerate(readers["cs"]))
    x, y, width = 760, 100, 430
    blocks = [
        ("Reader supply: AMS1117-3.3 (SOT-223)", [
            ("IN", "5V (USB)  + 10 uF"),
            ("OUT", "3V3_READERS  + 22 uF"),
            ("GND", "GND"),
        ]),
        ("MFRC522 reader, one per zone (x%d)" % len(readers["cs"]), [
            ("SDA (chip-select)", "READER_CS<zone>, 10 kOhm to 3V3_READERS"),
            ("SCK", "READER_SCK (GP%d)" % readers["sck"]),
            ("MOSI", "READER_MOSI (GP%d)" % readers["mosi"]),
            ("MISO", "READER_MISO (GP%d)" % readers["miso"]),
            ("IRQ", "not connected"),
            ("RST", "3V3_READERS (no GPIO: SoftReset over SPI)"),
            ("3.3V", "3V3_READERS, 10 uF + 100 nF at the module"),
            ("GND", "GND"),
        ]),
        ("74AHCT125 level shifter (VCC 5V)", [
            ("1A / 1Y", "READER_SCK -> SCK_5V"),
            ("2A / 2Y", "READER_MOSI -> MOSI_5V"),
            ("3A / 3Y", "DISPLAY_LOAD (GP%d) -> LOAD_5V" % pinmap["display"]["load"]),
            ("4A / 4Y", "LED_DATA (GP%d) -> 330 Ohm -> LED_DIN_5V" % pinmap["leds"]["data"]),
            ("1OE..4OE", "GND (always enabled)"),
            ("VCC / GND", "5V (USB) / GND, 100 nF at the pins"),
        ]),
        ("MAX7219 8-digit module chain (x%d)" % pinmap["display"]["modules"], [
            ("DIN / CLK / CS(LOAD)", "MOSI_5V / SCK_5V / LOAD_5V (module 0)"),
            ("DOUT", "DIN of the next module; CLK and CS in parallel"),
            ("VCC / GND", "5V (USB) / GND, 10 uF + 100 nF per module"),
            ("digits", "module 0: seats 1-2, module 1: seats 3-4"),
        ]),
        ("WS2812B status LEDs (x%d)" % pinmap["leds"]["count"], [
            ("DIN of LED 0", "LED_DIN_5V; DOUT n -> DIN n+1"),
            ("5V / GND", "5V (USB) / GND, 100 nF per LED"),
            ("bulk", "470 uF across 5V/GND at LED 0"),
        ]),
        ("Buzzer (passive piezo)", [
            ("NPN base", "BUZZER (GP%d) via 1 kOhm" % pinmap["buzzer"]["pwm"]),
            ("NPN emitter / collector", "GND / piezo -"),
            ("piezo +", "5V (USB); 1N4148 across the piezo"),
        ]),
        ("Buttons (x%d)" % (len(pinmap["buttons"]["seat"]) + len(pinmap["buttons"]["table"])), [
            ("each button", "its BUTTON_* pin to GND"),
            ("pull-up", "internal (firmware), active low"),
        ]),
        ("TM1637 alternative (instead of MAX7219)", [
            ("CLK (all modules)", "TM1637_CLK (GP%d)" % pinmap["display"]["tm1637_alternative"]["clk"]),
            ("DIO seat 1..4", ", ".join("GP%d" % g for g in pinmap["display"]["tm1637_alternative"]["dio"])),
            ("VCC / GND", "3V3_PICO / GND (never 5V)"),
        ]),
    ]
    for title, rows in blocks:
        elements, height = _block(x, y, width, title, rows)
        body.extend(elements)
        y += height + 12
    legend_y = max(y, pico_y + 20 * pitch + 20) + 30
    body.append(_text(20, legend_y, "Reader chip-selects (zone = index in hardware/trays.json): " + cs_list, 12))
    body.append(_text(20, legend_y + 20, "Spare (not wired in the MAX7219 build): %s"
                      % ", ".join("GP%d" % g for g in pinmap["spare"]), 12))
    body.append(_text(20, legend_y + 40, "Never use GP23, GP24, GP25, GP29: the Pico board uses them (%s)."
                      % "; ".join("GP%d %s" % item for item in sorted(BOARD_GPIOS.items())), 12))
    return _svg(1210, int(legend_y + 60), body, "tiletable wiring")


# --- hardware/trays/<profile>.svg ---


def zone_label(zone):
    """Short human text for a profile zone entry (also used by the tests): seats from 1, as
    people count them (the data counts from 0, as the firmware)."""
    role = zone["role"]
    if role == "seat":
        return "seat %d" % (zone["seat"] + 1)
    if role == "end":
        return "end %s" % zone["end"]
    if role == "arm":
        return "arm %d" % zone["arm"]
    if role == "field":
        return "field col %d" % zone["column"]
    if role == "assign":
        return "col %d seat %d" % (zone["column"], zone["seat"] + 1)
    return role


def render_tray_svg(trays, profile_name):
    tray = trays["tray"]
    profile = trays["profiles"][profile_name]
    roles = {zone["id"]: zone for zone in profile["zones"]}
    antenna = tray["antenna"]
    margin = 60
    width, depth = tray["width"] + 2 * margin, tray["depth"] + 2 * margin + 50
    body = [
        _text(10, 18, "%s (%d players)" % (profile_name, profile["players"]), 12, weight="bold"),
        _text(10, 32, "Sizes in mm, generated from hardware/trays.json. Blue: zone used by this profile,", 8),
        _text(10, 42, "dotted: reader antenna under the pad, grey: zone unused.", 8),
        _rect(margin, margin, tray["width"], tray["depth"], fill="#faf6ee", width=2),
    ]
    for zone in tray["zones"]:
        left = margin + zone["x"] - zone["w"] / 2
        top = margin + zone["y"] - zone["h"] / 2
        used = zone["id"] in roles
        body.append(_rect(left, top, zone["w"], zone["h"], fill="#dcebfa" if used else "#eee",
                          stroke="#000" if used else "#aaa", dash=None if used else "4 3"))
        body.append(_rect(margin + zone["x"] - antenna["w"] / 2, margin + zone["y"] - antenna["h"] / 2,
                          antenna["w"], antenna["h"], stroke="#14508c" if used else "#bbb", dash="2 2", width=0.8))
        body.append(_text(margin + zone["x"], top - 3, "zone %d" % zone["id"], 9, anchor="middle",
                          fill="#000" if used else "#999"))
        if used:
            body.append(_text(margin + zone["x"], margin + zone["y"] + zone["h"] / 2 + 11, zone_label(roles[zone["id"]]),
                              9, anchor="middle", weight="bold", fill="#14508c"))
    edge = {"S": (tray["width"] / 2, tray["depth"] + 18), "W": (-30, tray["depth"] / 2),
            "N": (tray["width"] / 2, -8), "E": (tray["width"] + 30, tray["depth"] / 2)}
    for seat, place in enumerate(profile["seats"]):
        sx, sy = edge[place]
        body.append(_text(margin + sx, margin + sy, "SEAT %d" % (seat + 1), 12, anchor="middle", weight="bold", fill="#8b0000"))
    # Dimensions: pad size and centre pitch along the south row, gap between antennas.
    south = sorted((z for z in tray["zones"] if z["y"] == max(t["y"] for t in tray["zones"])), key=lambda z: z["x"])
    first, second = south[0], south[1]
    dim_y = margin + tray["depth"] + 34
    x1, x2 = margin + first["x"], margin + second["x"]
    body.append(_line(x1, dim_y, x2, dim_y, stroke="#555"))
    body.append(_text((x1 + x2) / 2, dim_y - 4, "pitch %d" % (second["x"] - first["x"]), 10, anchor="middle", fill="#555"))
    pad_left = margin + first["x"] - first["w"] / 2
    body.append(_line(pad_left, dim_y + 14, pad_left + first["w"], dim_y + 14, stroke="#555"))
    body.append(_text(pad_left + first["w"] / 2, dim_y + 26, "pad %d x %d" % (first["w"], first["h"]), 9, anchor="middle", fill="#555"))
    gap = second["x"] - first["x"] - antenna["w"]
    body.append(_text(x2 + 10, dim_y + 14, "antennas %d x %d, %d apart" % (antenna["w"], antenna["h"], gap), 9, fill="#555"))
    body.append(_text(x2 + 10, dim_y + 26, "tray %d x %d" % (tray["width"], tray["depth"]), 9, fill="#555"))
    return _svg(int(width), int(depth), body, "tiletable tray %s" % profile_name, scale=1.5)


# --- driver ---


def outputs(root=ROOT):
    """Every generated file: ``{path relative to the repository: content}``."""
    pinmap, trays = load(root)
    files = {
        PINS_MODULE_PATH: render_pins_module(pinmap),
        "hardware/PINS.md": render_pins_md(pinmap),
        "hardware/POWER.md": render_power_md(pinmap),
        "hardware/wiring.svg": render_wiring_svg(pinmap),
    }
    for name in sorted(trays["profiles"]):
        files["hardware/trays/%s.svg" % name] = render_tray_svg(trays, name)
    return files


def stale(root=ROOT):
    """Generated paths whose committed content differs from what the sources give."""
    out = []
    for path, content in sorted(outputs(root).items()):
        full = os.path.join(root, path)
        try:
            with open(full) as handle:
                if handle.read() == content:
                    continue
        except FileNotFoundError:
            pass
        out.append(path)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report stale files (exit status 1 if any)")
    args = parser.parse_args(argv)
    if args.check:
        paths = stale()
        for path in paths:
            print("stale: %s" % path)
        return 1 if paths else 0
    for path, content in sorted(outputs().items()):
        full = os.path.join(ROOT, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as handle:
            handle.write(content)
        print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
