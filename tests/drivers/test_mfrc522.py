# portable
"""The MFRC522 driver against the wire-level reader model and virtual NTAG213 tags."""
from portable import raises

import machine
from allocation import bytes_allocated
from empty_field import ChipSelect, EmptyFieldBus
from mfrc522_model import BusClock, MFRC522Model
from ntag213 import Ntag213, XorShift
from tiletable import tagrecord
from tiletable.drivers import mfrc522
from tiletable.drivers.mfrc522 import MFRC522, UnexpectedChip, crc_a

SETTLE_US = 5200


def inventory(reader, limit=16):
    """Every tag in the field: ``[uid bytes, ...]``, by the driver's own steps (probe, then
    select and halt until no tag answers REQA); radio errors are retried up to ``limit`` times."""
    found = []
    uid = bytearray(10)
    errors = 0
    if reader.probe() == 0:
        return found
    while len(found) < limit and errors < limit:
        n = reader.select_next(uid)
        if n == 0:
            break
        if n < 0:
            errors += 1
            continue
        found.append(bytes(uid[:n]))
        reader.halt()
    return found


def make_reader(version=0x92, accept_clone=False):
    machine.reset_pins()
    clock = BusClock()
    spi = machine.SPI(0)
    cs = machine.Pin(17)
    model = MFRC522Model(clock, version=version)
    spi.attach(model, cs)
    return MFRC522(spi, cs, accept_clone=accept_clone), model, spi, clock


def field_up(reader, clock):
    reader.antenna_on()
    clock.advance_us(SETTLE_US)


def nxp_uid(n):
    """A 7-byte NXP UID (manufacturer byte 0x04) from a number."""
    rnd = XorShift(n)
    return bytes([0x04] + [rnd.below(256) for _ in range(6)])


def test_crc_a_matches_the_iso_14443_vectors():
    assert crc_a(b"\x50\x00", 0, 2) == 0xCD57  # HLTA 50 00 57 CD
    assert crc_a(b"\x30\x04", 0, 2) == 0xEE26  # READ page 4: 30 04 26 EE


def test_genuine_reader_reports_its_version():
    reader, _, _, _ = make_reader(0x92)
    assert reader.version == 0x92 and not reader.is_clone


def test_clone_version_is_refused_by_default_and_flagged_when_accepted():
    for version in (0x12, 0x15, 0xB2):
        err = raises(UnexpectedChip, make_reader, version)
        assert err.version == version
        assert "0x%02x" % version in str(err)
    reader, _, _, _ = make_reader(0xB2, accept_clone=True)
    assert reader.is_clone and reader.version == 0xB2


def test_absent_reader_raises_oserror_naming_the_cs_pin():
    machine.reset_pins()
    spi = machine.SPI(0)
    err = raises(OSError, MFRC522, spi, machine.Pin(21))  # nothing attached: MISO floats high
    assert "Pin(21)" in str(err) and "0xff" in str(err)
    model = MFRC522Model(BusClock())
    model.drop_off_bus(miso=0x00)
    spi.attach(model, machine.Pin(22))
    err = raises(OSError, MFRC522, spi, machine.Pin(22))
    assert "Pin(22)" in str(err) and "0x00" in str(err)


def test_reader_dropping_off_the_bus_mid_poll_raises_oserror():
    for miso in (0xFF, 0x00):
        reader, model, _, clock = make_reader()
        model.place(Ntag213(nxp_uid(1)))
        field_up(reader, clock)
        assert reader.probe() == 80
        model.drop_off_bus(miso)
        err = raises(OSError, reader.probe)
        assert "stopped answering" in str(err)


def test_uids_of_4_7_and_10_bytes_never_include_the_cascade_tag():
    uids = [
        b"\x12\x88\x34\x88",
        b"\x04\x88\x88\x88\x88\x88\x88",
        b"\x04\x88\x01\x88\x02\x03\x88\x04\x05\x06",
    ]
    for uid in uids:
        reader, model, _, clock = make_reader()
        model.place(Ntag213(uid))
        field_up(reader, clock)
        assert inventory(reader) == [uid]


def test_tag_staying_on_the_pad_answers_100_polls_with_the_field_kept_on():
    reader, model, _, clock = make_reader()
    tag = Ntag213(nxp_uid(2))
    model.place(tag)
    field_up(reader, clock)
    answered = 0
    for _ in range(100):
        if reader.probe() == 80:
            answered += 1
        clock.advance_us(2000)
    assert answered == 100


def test_tag_staying_on_the_pad_is_selected_and_read_100_times_with_the_field_cycled():
    reader, model, _, clock = make_reader()
    tag = Ntag213(nxp_uid(3), user=tagrecord.encode(tagrecord.KIND_TILE, 5, 0x26))
    model.place(tag)
    uid = bytearray(10)
    record = bytearray(16)
    good = 0
    for _ in range(100):
        field_up(reader, clock)
        if reader.probe() == 80 and reader.select_next(uid) == 7 and reader.read(4, record) == 16:
            good += tagrecord.decode(record) == (tagrecord.KIND_TILE, 5, 0x26)
        reader.halt()
        reader.antenna_off()
    assert good == 100
    assert model.early_frames == 0


def test_two_tags_in_one_field_are_both_found():
    reader, model, _, clock = make_reader()
    a = Ntag213(b"\x04\x11\x22\x33\x44\x55\x66")
    b = Ntag213(b"\x04\x11\x22\x33\x44\x55\x67")  # differ in the very last UID bit
    model.place(a, b)
    field_up(reader, clock)
    assert sorted(inventory(reader)) == sorted([a.uid, b.uid])


def test_seven_tags_of_a_hand_scan_are_all_found():
    reader, model, _, clock = make_reader()
    tags = [Ntag213(nxp_uid(100 + i)) for i in range(7)]
    model.place(*tags)
    field_up(reader, clock)
    assert sorted(inventory(reader)) == sorted(t.uid for t in tags)


def test_probe_signature_stays_for_one_tag_and_changes_when_a_second_of_its_batch_arrives():
    reader, model, _, clock = make_reader()
    model.place(Ntag213(b"\x04\x31\x07\x5a\x10\x22\x80"))
    field_up(reader, clock)
    assert reader.probe() == 80 and reader.is_single()
    first = bytes(reader.signature)
    assert reader.probe() == 80 and bytes(reader.signature) == first
    model.place(Ntag213(b"\x04\x31\x07\x5a\x10\x22\x81"))  # same CL1, differs in the last bit
    reader.antenna_off()  # as the tray does between scans: every tag starts from IDLE
    field_up(reader, clock)
    bits = reader.probe()
    assert bits == 40 + 25 and not reader.is_single()  # CL2 bit 24 (UID6 bit 0) collided
    assert bytes(reader.signature[:5]) == first[:5]


def test_probe_of_a_4_byte_uid_stops_after_cl1():
    reader, model, _, clock = make_reader()
    model.place(Ntag213(b"\x12\x34\x56\x78"))
    field_up(reader, clock)
    assert reader.probe() == 40 and reader.is_single()
    uid = bytearray(10)
    assert reader.select_next(uid) == 4 and bytes(uid[:4]) == b"\x12\x34\x56\x78"


def test_tag_removed_mid_read_gives_no_answer_not_data():
    reader, model, _, clock = make_reader()
    tag = Ntag213(nxp_uid(6), user=tagrecord.encode(tagrecord.KIND_TILE, 1, 0x11))
    model.place(tag)
    field_up(reader, clock)
    uid = bytearray(10)
    assert reader.probe() == 80 and reader.select_next(uid) == 7
    tag.leave_after(0)
    record = bytearray(16)
    assert reader.read(4, record) == mfrc522.NO_ANSWER
    assert record == bytearray(16)


def test_tag_removed_between_cascade_levels_is_a_radio_error_not_a_uid():
    reader, model, _, clock = make_reader()
    tag = Ntag213(nxp_uid(7))
    model.place(tag)
    field_up(reader, clock)
    tag.leave_after(2)  # ATQA and CL1 answered, then gone before the CL1 SAK
    assert reader.probe() == mfrc522.NO_ANSWER
    assert reader.select_next(bytearray(10)) == 0
    assert inventory(reader) == []


def test_weak_tag_fails_some_reads_and_never_returns_wrong_data():
    reader, model, _, clock = make_reader()
    record = tagrecord.encode(tagrecord.KIND_CARD, 9, 51)
    tag = Ntag213(nxp_uid(8), user=record, weak=150, seed=42)
    model.place(tag)
    uid = bytearray(10)
    out = bytearray(16)
    good = failed = 0
    for _ in range(60):
        field_up(reader, clock)
        if reader.probe() == 80 and reader.select_next(uid) == 7 and reader.read(4, out) == 16:
            assert bytes(out) == record and bytes(uid[:7]) == tag.uid
            good += 1
        else:
            failed += 1
        reader.antenna_off()
    assert good > 10 and failed > 10


def test_write_then_read_round_trips_a_tag_record():
    reader, model, _, clock = make_reader()
    tag = Ntag213(nxp_uid(9))
    model.place(tag)
    field_up(reader, clock)
    uid = bytearray(10)
    assert reader.probe() == 80 and reader.select_next(uid) == 7
    record = tagrecord.encode(tagrecord.KIND_TILE, 300, 0x66)
    for page in range(4):
        assert reader.write(tagrecord.FIRST_PAGE + page, record[page * 4 : page * 4 + 4]) == 0
    out = bytearray(16)
    assert reader.read(tagrecord.FIRST_PAGE, out) == 16
    assert tagrecord.decode(out) == (tagrecord.KIND_TILE, 300, 0x66)
    assert reader.write(2, b"\x00\x00\x00\x00") == mfrc522.NAK  # lock bytes are not user memory


def test_antenna_off_means_no_tag_answers():
    reader, model, _, clock = make_reader()
    model.place(Ntag213(nxp_uid(10)))
    field_up(reader, clock)
    reader.antenna_off()
    assert reader.probe() == 0


def test_model_ignores_frames_sent_before_the_field_settled():
    reader, model, _, clock = make_reader()
    model.place(Ntag213(nxp_uid(11)))
    reader.antenna_on()
    clock.advance_us(1000)
    assert reader.probe() == 0 and model.early_frames == 1


def test_empty_poll_costs_a_few_register_accesses_not_220_ms():
    reader, model, spi, clock = make_reader()
    field_up(reader, clock)
    spi.stats.reset()
    start = clock.now_us
    assert reader.probe() == 0
    assert spi.stats.transactions <= 16
    assert clock.now_us - start < 1500


def test_transceive_stays_the_command_after_an_answer_and_restarts_after_a_time_out():
    """A frame after a clean answer is only StartSend (three register writes fewer); after a
    time-out the receiver may still be listening, so Idle stops it before the next frame."""
    reader, model, _, clock = make_reader()
    model.place(Ntag213(nxp_uid(7)))
    field_up(reader, clock)
    commands = []
    write = model._write

    def spy(reg, value):
        if reg == 0x01:  # CommandReg
            commands.append(value)
        write(reg, value)

    model._write = spy
    assert reader.probe() == 80  # WUPA, CL1, SELECT CL1, CL2: four frames, each answered
    assert commands == [0x00, 0x0C]
    del commands[:]
    reader.halt()  # HLTA is never answered: its frame times out
    assert commands == []
    assert reader.wake()
    assert commands == [0x00, 0x0C]


def test_idle_probe_allocates_nothing():
    reader = MFRC522(EmptyFieldBus(), ChipSelect())

    def loop():
        for _ in range(20):
            reader.antenna_on()
            reader.probe()
            reader.antenna_off()

    assert bytes_allocated(loop) in (0, None)


def test_model_crc_coprocessor_agrees_with_the_driver_crc():
    reader, model, _, _ = make_reader()
    reader._write(0x01, 0x00)  # Idle
    reader._write(0x0A, 0x80)  # flush the FIFO
    reader._write(0x09, 0x50)
    reader._write(0x09, 0x00)
    reader._write(0x01, 0x03)  # CalcCRC over the FIFO (data sheet §10.3.1.4)
    assert reader._read(0x05) & 0x04  # DivIrqReg.CRCIRq
    assert reader._read(0x22) | reader._read(0x21) << 8 == crc_a(b"\x50\x00", 0, 2) == 0xCD57
