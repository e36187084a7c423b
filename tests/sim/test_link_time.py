"""The simulated table's link in device time: STATE reports each service's longest step since
the last STATE (how long it held the loop), and a sync of every preset leaves the scan, the
buttons and the housekeeping within issue 14's 50 ms."""
from linktime import DeviceTimeTransport, fill_journal
from tiletable.runtime.app import SERVICES
from tiletable_host.sync import collect_documents, push

LOOP_HOLD_US = 50000  # issue 14: no task holds the loop for more than 50 ms


def test_state_reports_the_longest_step_of_each_service_since_the_last_state(tmp_path):
    link = DeviceTimeTransport(str(tmp_path))
    link.hello()
    link.state()  # what the boot took is not the sync's
    for document in collect_documents([], True):
        push(link, document)
    link.ruleset_list()  # as a sync ends: the row of uploads ends, and the modules it kept go
    longest = link.state()["longest_us"]
    assert sorted(longest) == sorted(SERVICES)
    assert min(longest.values()) > 0, longest
    uploads = link.replies["ruleset put deflated"] + link.replies["ruleset put commit"]
    assert longest["link"] <= 1000 * max(uploads), (longest, uploads)  # a reply waits for its steps
    for service in ("scan", "buttons", "housekeeping"):
        assert longest[service] <= LOOP_HOLD_US, longest
    again = link.state()["longest_us"]  # the sync's steps are forgotten
    assert again["link"] < longest["link"], (again, longest)


def test_a_journal_stream_runs_within_the_loop_budget_and_pauses_for_a_pc_that_stops_reading(tmp_path):
    """Every step of a stream stays within 50 ms; a PC that asks for a stream and then stops
    reading (gone mid-transfer) leaves the frames waiting, not dropped, the watchdog fed, and
    its next request is answered at once."""
    import io

    from tiletable.proto.frame import FrameDecoder, encode_frame
    from tiletable.proto.messages import HELLO, JOURNAL_STREAM, REPLY, decode_payload, encode_payload

    fill_journal(str(tmp_path / "journal"), 3)
    link = DeviceTimeTransport(str(tmp_path))
    link.hello()
    link.state()
    records, durable, _, done = link.journal_stream(0)
    assert done and [r[0] for r in records] == list(range(1, durable + 1))
    assert all(us <= LOOP_HOLD_US for us in link.state()["longest_us"].values())

    class Stalled(io.RawIOBase):  # a USB FIFO the PC has stopped emptying: takes 2 KB, then nothing
        taken = bytearray()

        def writable(self):
            return True

        def write(self, data):
            room = 2048 - len(self.taken)
            self.taken.extend(bytes(data[:room]))
            return min(room, len(data))

    usb = link.device.app.link
    write = usb._write
    usb._write = Stalled().write
    usb._flush = None
    request = encode_payload(JOURNAL_STREAM, {"after": 0, "first": 0, "offset": 0, "frames": 64, "max": 1008})
    link._write(encode_frame(JOURNAL_STREAM, 900, request))
    services = link.device.services
    services.run_until(services.bus.now_us + 10 * 1000 * 1000)  # ten seconds of device time
    assert not services.watchdog_fired and link.device.app.running
    assert usb.dropped == 0 and usb.pending() > 0 and link.device.app.server.stream is not None
    parts = [decode_payload(t, p)["part"] for _, t, s, p in FrameDecoder().feed(bytes(Stalled.taken)) if t == JOURNAL_STREAM | REPLY]
    assert parts == list(range(len(parts))) and parts
    usb._write = write
    usb._head = usb._tail = 0  # the PC is back on a new port: what the old one held is gone
    assert link.hello()["device"] and link.device.app.server.stream is None
