"""Engine benchmarks: ``.venv/bin/python bench/engine`` (``make bench``) prints the figures.

Runs ``line_bench.run()`` (Block against OpenSpiel, MicroPython heap), then
``families_bench.run()`` for the other game families when that file exists.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import line_bench  # noqa: E402


def main():
    print("== line family ==")
    line_bench.run()
    if os.path.exists(os.path.join(HERE, "families_bench.py")):
        import families_bench

        print("== other families ==")
        families_bench.run()


if __name__ == "__main__":
    main()
