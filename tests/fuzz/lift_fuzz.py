#!/usr/bin/env python3
"""lift_fuzz.py - Byte-mutation fuzzing of `stencilc lift` on C++ programs.

Takes the legacy corpus (tests/legacy/*.cpp) and the lift test inputs
(tests/lit/lift/Inputs/*.cpp) as seeds, applies the byte mutations libFuzzer
applies to the DSL parser's inputs (erase, insert, insert repeated, change
byte, change bit, shuffle, change an ASCII integer, copy part, cross over,
insert a dictionary word from tests/fuzz/cpp.dict), one (half the time) to five at a time, and
runs `stencilc lift` on each result. Every run must end, within --timeout
seconds, either with exit 0 and a .stencil that `stencilc check` accepts, or
with exit 1 and every error located (`FILE:LINE:COL: error:`) or naming the
file (`no loop nest to lift in 'FILE'`; Clang's own "too many errors" after 20
located ones is allowed). A crash, a hang, another exit status
or an unlocated error is a failure: the input is saved under --artifacts and
the script exits 1.

Usage: lift_fuzz.py --stencilc PATH (--runs N | --seconds S) [--seed N]
                    [--jobs N] [--timeout S] [--artifacts DIR]
"""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LOCATED = re.compile(rb"^[^\s:][^:]*:\d+:\d+: (error|fatal error):", re.M)
NO_NEST = re.compile(rb"^stencilc: error: no loop nest to lift in '[^']+'", re.M)
# Clang stops after 20 located errors and says so without a location.
ERROR_LIMIT = re.compile(rb"^fatal error: too many errors emitted, stopping now", re.M)
ANY_ERROR = re.compile(rb"error:", re.M)


def read_dictionary(path):
    words = []
    for line in open(path, encoding="utf-8"):
        m = re.match(r'^\w+="(.*)"\s*$', line)
        if m:
            words.append(m.group(1).encode().decode("unicode_escape").encode("latin-1"))
    return words


def mutate(data, seeds, words, rng):
    data = bytearray(data)
    # Half the inputs get one mutation: they still compile more often, so the
    # lifter itself (not only Clang's parser) sees them.
    for _ in range(1 if rng.random() < 0.5 else rng.randint(2, 5)):
        kind = rng.randrange(10)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:  # erase bytes
            del data[at:at + rng.randint(1, 16)]
        elif kind == 1:  # insert a byte
            data[at:at] = bytes([rng.randrange(256)])
        elif kind == 2:  # insert repeated bytes
            data[at:at] = bytes([rng.choice(b"{}()[];+-*/%<=0 \n")]) * rng.randint(2, 64)
        elif kind == 3 and data:  # change a byte
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind == 4 and data:  # flip a bit
            data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif kind == 5 and len(data) > 2:  # shuffle a few bytes
            start = min(at, len(data) - 2)
            part = data[start:start + rng.randint(2, 8)]
            rng.shuffle(part)
            data[start:start + len(part)] = part
        elif kind == 6:  # change an ASCII integer
            numbers = [m.span() for m in re.finditer(rb"\d+", data)]
            if numbers:
                s, e = rng.choice(numbers)
                value = rng.choice([0, 1, -1, 2 ** 31 - 1, 2 ** 63, int(data[s:e]) + rng.randint(-3, 3)])
                data[s:e] = str(value).encode()
        elif kind == 7 and data:  # copy a part of itself elsewhere
            s = rng.randrange(len(data))
            data[at:at] = data[s:s + rng.randint(1, 200)]
        elif kind == 8:  # cross over with another seed
            other = rng.choice(seeds)
            s = rng.randrange(len(other))
            data[at:] = other[s:s + rng.randint(1, 2000)] + data[at:]
        else:  # insert a dictionary word
            data[at:at] = rng.choice(words)
    return bytes(data)


def run_one(stencilc, source, timeout):
    """Returns None when the run behaved, else why not."""
    workdir = os.path.dirname(source)
    out = os.path.join(workdir, "out.stencil")
    try:
        proc = subprocess.run([stencilc, "lift", source, "-o", out, "--", "-std=c++20"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"lift ran longer than {timeout} s"
    if proc.returncode == 0:
        if ANY_ERROR.search(proc.stderr):
            return "lift reported an error but exited 0"
        check = subprocess.run([stencilc, "check", out], capture_output=True, timeout=timeout)
        if check.returncode != 0:
            return "lift wrote a .stencil that `stencilc check` rejects:\n" + \
                check.stdout.decode(errors="replace") + check.stderr.decode(errors="replace")
        return None
    if proc.returncode != 1:
        return f"lift exited with status {proc.returncode}:\n" + proc.stderr.decode(errors="replace")[-2000:]
    if os.path.exists(out):
        return "lift failed but left its output file"
    for line in proc.stderr.splitlines():
        if b"error:" in line and not (LOCATED.match(line) or NO_NEST.match(line) or
                                      ERROR_LIMIT.match(line)):
            return "an error without a location: " + line.decode(errors="replace")
    if not (LOCATED.search(proc.stderr) or NO_NEST.search(proc.stderr)):
        return "lift failed without an error message"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stencilc", required=True)
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--runs", type=int)
    limit.add_argument("--seconds", type=float)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--artifacts", default="lift-fuzz-artifacts")
    args = parser.parse_args()

    paths = sorted(glob.glob(os.path.join(ROOT, "tests/legacy/*.cpp")) +
                   glob.glob(os.path.join(ROOT, "tests/lit/lift/Inputs/*.cpp")))
    seeds = [open(p, "rb").read() for p in paths]
    words = read_dictionary(os.path.join(ROOT, "tests/fuzz/cpp.dict"))
    if not seeds or not words:
        sys.exit("lift_fuzz.py: no seeds or no dictionary words")
    rng = random.Random(args.seed)
    print(f"lift_fuzz.py: seed {args.seed}, {len(seeds)} seed programs, {len(words)} words")
    deadline = time.time() + args.seconds if args.seconds else None
    done, located, lifted, failures = 0, 0, 0, 0
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        def submit(n):
            data = mutate(rng.choice(seeds), seeds, words, rng)
            work = os.path.join(scratch, str(n))
            os.makedirs(work)
            source = os.path.join(work, "mutated.cpp")
            open(source, "wb").write(data)
            return pool.submit(run_one, args.stencilc, source, args.timeout), data, work

        pending, n = [], 0
        def more():
            return (args.runs is not None and n < args.runs) or \
                (deadline is not None and time.time() < deadline)
        while more() or pending:
            while more() and len(pending) < args.jobs * 2:
                pending.append(submit(n))
                n += 1
            future, data, work = pending.pop(0)
            problem = future.result()
            done += 1
            if problem is None:
                if os.path.exists(os.path.join(work, "out.stencil")):
                    lifted += 1
                else:
                    located += 1
            else:
                failures += 1
                os.makedirs(args.artifacts, exist_ok=True)
                path = os.path.join(args.artifacts, f"failure-{args.seed}-{done}.cpp")
                open(path, "wb").write(data)
                print(f"FAILURE ({path}): {problem}", file=sys.stderr)
            subprocess.run(["rm", "-rf", work])
    print(f"lift_fuzz.py: {done} mutated programs: {lifted} lifted and checked, "
          f"{located} refused with located errors, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
