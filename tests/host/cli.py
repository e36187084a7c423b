"""Running ``tiletable`` commands in-process, as a user would type them, optionally against a
transport the test holds (``link``); returns (status, stdout, stderr)."""
from tiletable_host import main as cli


def tiletable(capsys, argv, link=None):
    capsys.readouterr()
    args = cli.build_parser().parse_args(argv)
    if link is not None:
        args.link = link
    status = cli.run(args)
    out, err = capsys.readouterr()
    return status, out, err
