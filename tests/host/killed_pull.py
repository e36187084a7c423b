"""`tiletable pull` into a PostgreSQL database, dying on cue: the program of
test_club_many_writers.py, one per table, each in a process of its own.

    python killed_pull.py PORT URL KILL_AT COMMIT_RECORDS

Every statement sent to the database and every request on the link is an event; the program
dies (``os._exit``: no cleanup, nothing closed, as ``kill -9``) as event number KILL_AT starts
(0: never; AT_ACK: at the JOURNAL_ACK). Before every JOURNAL_ACK it checks, through a connection of its own, that every
record up to the one it acknowledges is committed, and exits NOT_COMMITTED if one is not.
Exit status: the command's (0), KILLED, NOT_COMMITTED; on standard output the events it
counted and the last seq acknowledged.
"""
import os
import sys

KILLED = 86
NOT_COMMITTED = 88
AT_ACK = -1  # KILL_AT: die as the JOURNAL_ACK request starts (once the records were checked committed)


def main(port, url, kill_at, commit_records):
    import psycopg

    from tiletable.proto.messages import JOURNAL_ACK
    from tiletable_host import main as cli
    from tiletable_host import pull as pullmod
    from tiletable_host.transport import Transport

    events = [0]
    acked = [0]

    def event():
        events[0] += 1
        if events[0] == kill_at:
            sys.stdout.flush()
            os._exit(KILLED)

    execute = psycopg.Cursor.execute

    def traced_execute(self, *args, **kwargs):
        event()
        return execute(self, *args, **kwargs)

    request = Transport.request

    def traced_request(self, msg_type, fields=None, *args, **kwargs):
        if msg_type == JOURNAL_ACK:
            _check_committed(psycopg, url, self.device_info["device"], fields["seq"])
            if kill_at == AT_ACK:
                os._exit(KILLED)
            acked[0] = fields["seq"]
        event()
        return request(self, msg_type, fields, *args, **kwargs)

    psycopg.Cursor.execute = traced_execute
    Transport.request = traced_request
    pullmod.COMMIT_RECORDS = commit_records
    args = cli.build_parser().parse_args(["pull", "--port", port, "--db", url, "--timeout", "30"])
    status = cli.run(args)
    print("events %d acked %d" % (events[0], acked[0]), flush=True)
    return status


def _check_committed(psycopg, url, device, seq):
    """Exit NOT_COMMITTED unless records 1..``seq`` of ``device``'s newest journal are committed
    (seen from another connection: what another program, or the table's next pull, sees)."""
    with psycopg.connect(url, autocommit=True) as conn:
        stored = conn.execute(
            "SELECT count(*), coalesce(max(seq), 0) FROM records r JOIN journals j ON j.id = r.journal"
            " WHERE j.device = %s AND r.seq <= %s", (device, seq)
        ).fetchone()
    if stored[1] != seq:
        print("acknowledging %d of %s with records up to %d committed" % (seq, device, stored[1]), flush=True)
        sys.stdout.flush()
        os._exit(NOT_COMMITTED)


if __name__ == "__main__":
    port, url, kill_at, commit_records = sys.argv[1:5]
    sys.exit(main(port, url, int(kill_at), int(commit_records)))
