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


def run_captured(argv, link=None):
    """As ``tiletable``, with the output caught here rather than by pytest's capsys: for a test's
    own processes (multiprocessing) and threads."""
    import contextlib
    import io

    args = cli.build_parser().parse_args(argv)
    if link is not None:
        args.link = link
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.run(args)
    return status, out.getvalue(), err.getvalue()
