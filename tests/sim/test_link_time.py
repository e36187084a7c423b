"""The simulated table's link in device time: STATE reports each service's longest step since
the last STATE (how long it held the loop), and a sync of every preset leaves the scan, the
buttons and the housekeeping within issue 14's 50 ms."""
from linktime import DeviceTimeTransport
from tiletable.runtime.app import SERVICES
from tiletable_host.sync import collect_documents, push

LOOP_HOLD_US = 50000  # issue 14: no task holds the loop for more than 50 ms


def test_state_reports_the_longest_step_of_each_service_since_the_last_state(tmp_path):
    link = DeviceTimeTransport(str(tmp_path))
    link.hello()
    link.state()  # what the boot took is not the sync's
    for document in collect_documents([], True):
        push(link, document)
    longest = link.state()["longest_us"]
    assert sorted(longest) == sorted(SERVICES)
    assert min(longest.values()) > 0, longest
    uploads = link.replies["ruleset put chunk"] + link.replies["ruleset put commit"]
    assert longest["link"] <= 1000 * max(uploads), (longest, uploads)  # a reply waits for its steps
    for service in ("scan", "buttons", "housekeeping"):
        assert longest[service] <= LOOP_HOLD_US, longest
    again = link.state()["longest_us"]  # the sync's steps are forgotten
    assert again["link"] < longest["link"], (again, longest)
