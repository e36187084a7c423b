"""Running ``tiletable`` commands in-process, as a user would type them, optionally against a
transport the test holds (``link``); returns (status, stdout, stderr), and ``tiletable serve``
in a process of its own."""
import subprocess
import sys

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


def serve_process(*argv):
    """``tiletable serve --http-port 0 ARGV...`` in a process of its own (Ctrl-C is a signal to
    it, as a person stops it), and the first line it prints: its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tiletable_host.main", "serve", "--http-port", "0"] + list(argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return process, process.stdout.readline()
