#!/usr/bin/env python3
"""same_members.py - Checks that a rewritten program sets exactly the members
of the generated kernel's Args: reads the `struct Args { ... };` members of
HEADER and the `NAME_args.MEMBER = ...;` lines of REWRITTEN, prints both sets
and fails when they differ.

Usage: same_members.py HEADER REWRITTEN NAME
"""
import re
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    header, rewritten, name = sys.argv[1:]
    text = open(header).read()
    body = re.search(r"struct Args \{(.*?)\n\};", text, re.S)
    if not body:
        sys.exit(f"{header}: no 'struct Args'")
    declared = set(re.findall(r"^\s+[\w:<> ]+?\s(\w+)(?: = 0)?;", body.group(1), re.M))
    assigned = set(re.findall(rf"\b{name}_args\.(\w+) = ", open(rewritten).read()))
    print("Args:", " ".join(sorted(declared)))
    print("set:", " ".join(sorted(assigned)))
    if declared != assigned:
        sys.exit(f"differ: only in Args {sorted(declared - assigned)}, "
                 f"only set {sorted(assigned - declared)}")


if __name__ == "__main__":
    main()
