# portable
"""The RAM flash the power-cut tests run littlefs on behaves as NOR flash does (issue 18: the
old model let a program set bits and wrote a cut program as a clean prefix)."""
from blockdev import PowerCut, RamBlockDevice
from portable import raises


def test_a_program_only_clears_bits():
    dev = RamBlockDevice(block_size=64, block_count=2)
    dev.writeblocks(0, b"\x0f\xff", 0)
    dev.writeblocks(0, b"\xf0\x5a", 0)
    assert bytes(dev.image[:3]) == b"\x00\x5a\xff"


def test_a_cut_program_tears_its_last_byte_and_leaves_the_rest_old():
    torn = set()
    for seed in range(40):
        dev = RamBlockDevice(block_size=64, block_count=2)
        dev.writeblocks(0, b"\xff\xff\x3c", 0)
        dev.programmed = seed  # another torn byte each time
        dev.cut_after(3)
        raises(PowerCut, dev.writeblocks, 0, b"\x00" * 8, 0)
        assert bytes(dev.image[:2]) == b"\x00\x00" and bytes(dev.image[3:8]) == b"\xff" * 5
        assert dev.image[2] & ~0x3C == 0  # a torn program still only clears bits
        torn.add(dev.image[2])
        dev.writeblocks(0, b"\x00" * 8, 0)  # the chip is dead now
        assert bytes(dev.image[3:8]) == b"\xff" * 5
    assert len(torn) > 3, torn  # old bits, new bits and mixes of them


def test_a_cut_erase_leaves_the_block_part_erased():
    dev = RamBlockDevice(block_size=4096, block_count=2)
    dev.writeblocks(0, b"\x00" * 4096, 0)
    dev.cut_after(1)
    raises(PowerCut, dev.erase, 0)
    kept = [dev.image[i] for i in range(0, 4096, 64)]
    assert 0 in kept and 0xFF in kept, kept
    assert dev.erase_steps == [4097]  # the erase was the step after 4096 programmed bytes
