"""tiletable check FILE...: replay tile game records (docs/RECORD.md) through the engine.

Every action is played through the engine's checked path and every score comment compared
with what the engine awards; the first illegal action, disagreeing score, wrong hand marker,
wrong result or wrong content hash is reported with its line number (exit status 1).

    tiletable check club-night.tgr
"""
from tiletable_host.record import read_records, summary


def configure(parser):
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files (.tgr)")


def do_check(args):
    for path in args.files:
        for number, (record, state) in enumerate(read_records(path), 1):
            print("%s: record %d (%s): clean" % (path, number, summary(record, state)))
    return 0
