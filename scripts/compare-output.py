#!/usr/bin/env python3
"""Runs a command and compares its output with an expected file (the tutorial's checker).

Lines are compared exactly, except that a `{{regex}}` segment of an expected
line matches a Python regular expression, as FileCheck's {{...}} does: for
timings and numbers that vary with the machine. Everything outside the braces
is literal text. Line endings and trailing newlines at the end of the output
are not significant; every other line is.

On a mismatch the script prints a unified diff (expected against actual, the
first differing line marked) and exits 1; a command that exits with a status
other than --expect-exit fails too, with its standard error shown.

Usage: compare-output.py --expected FILE [--expect-exit N] [--with-stderr] -- CMD [ARGS...]
"""
import argparse
import difflib
import re
import subprocess
import sys

SEGMENT = re.compile(r"\{\{(.*?)\}\}")


def line_pattern(expected):
    """The regex an expected line stands for: literal text, {{...}} segments as regexes."""
    parts, last = [], 0
    for m in SEGMENT.finditer(expected):
        parts.append(re.escape(expected[last:m.start()]))
        parts.append("(?:" + m.group(1) + ")")
        last = m.end()
    parts.append(re.escape(expected[last:]))
    return re.compile("".join(parts))


def lines_of(text):
    lines = text.splitlines()
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def first_mismatch(expected, actual):
    """The index of the first line that differs, or None when all match."""
    for i, (e, a) in enumerate(zip(expected, actual)):
        if not line_pattern(e).fullmatch(a):
            return i
    if len(expected) != len(actual):
        return min(len(expected), len(actual))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expected", required=True, help="file of expected lines")
    parser.add_argument("--expect-exit", type=int, default=0, help="the command's exit status")
    parser.add_argument("--with-stderr", action="store_true",
                        help="compare standard error too, after standard output")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    with open(args.expected, encoding="utf-8") as f:
        expected = lines_of(f.read())
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        print(f"compare-output: cannot run {command[0]}: {e}")
        return 1
    stdout = run.stdout.decode("utf-8", errors="replace")
    stderr = run.stderr.decode("utf-8", errors="replace")
    actual = lines_of(stdout) + (lines_of(stderr) if args.with_stderr else [])

    ok = True
    if run.returncode != args.expect_exit:
        print(f"compare-output: `{' '.join(command)}` exited with {run.returncode}, "
              f"expected {args.expect_exit}")
        if stderr and not args.with_stderr:
            print("standard error:\n" + stderr.rstrip())
        ok = False
    bad = first_mismatch(expected, actual)
    if bad is not None:
        print(f"compare-output: output differs from {args.expected} at line {bad + 1}")
        if bad < len(expected):
            print(f"  expected: {expected[bad]}")
        if bad < len(actual):
            print(f"  actual:   {actual[bad]}")
        # Lines that match their pattern are shown as the expected text, so the
        # diff shows only real differences, not the {{regex}} lines.
        shown = [expected[i] if i < len(expected) and line_pattern(expected[i]).fullmatch(a) else a
                 for i, a in enumerate(actual)]
        sys.stdout.writelines(difflib.unified_diff(
            [e + "\n" for e in expected], [a + "\n" for a in shown],
            fromfile=args.expected, tofile="actual output"))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
