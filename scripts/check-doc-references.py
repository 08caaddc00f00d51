#!/usr/bin/env python3
"""Checks that the source tree's pointers into docs/ name sections that last.

A comment says the rule and why; where it needs evidence it names a section of
the docs, and the section must still be there when the comment is read:

  dated      No line of source cites a docs section by a date or a time of day
             (a day, an hh:mm or UTC after the section sign): measurement logs
             are renamed and rewritten, and a date in a citation goes stale
             with them.
  existing   Every `docs/NAME.md §Section` on one line of source names the
             start of a heading of that file (the part of the citation before
             a comma, colon, semicolon, bracket, parenthesis or final full
             stop), so a renamed heading fails here rather than leaving
             dangling pointers. A section sign cites the nearest docs file
             before it on its line; one whose file name is on the line before
             is not checked.

Source: compiler/, runtime/, templates/, examples/, bench/, scripts/, cmake/,
tests/ (test inputs and JSON data excepted) and the CMakeLists.txt files.

Usage: check-doc-references.py [REPO_ROOT]; prints each problem and exits 1 if any.
"""
import pathlib
import re
import sys

FOLDERS = ("compiler", "runtime", "templates", "examples", "bench", "scripts", "cmake", "tests")
SUFFIXES = {".h", ".cpp", ".cu", ".cuh", ".tmpl", ".py", ".sh", ".cmake", ".test", ".stencil"}
# Data and expected output, not comments: dates there are the data's own.
SKIP_PARTS = {"Inputs", "results", "goldens", "__pycache__"}

DOC = re.compile(r"docs/([A-Za-z0-9_-]+\.md)")
SECTION = re.compile(r"§\s*\"?([^\"§()\]\[,;:]+)")
DATED = re.compile(r"§[^)§]*(\b20[0-9]{2}-[01][0-9]\b|\b[0-2][0-9]:[0-5][0-9]\b|\bUTC\b)")
DATED_DOC = re.compile(r"docs/[A-Za-z0-9_-]+\.md[^)]*?(\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b|\bUTC\b)")


def headings(path):
    """The headings of a Markdown file, outside code fences, without the #s."""
    out, fence = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            out.append(line.lstrip("#").strip())
    return out


def sources(root):
    for name in ("CMakeLists.txt",):
        if (root / name).is_file():
            yield root / name
    for folder in FOLDERS:
        for p in sorted((root / folder).rglob("*")):
            if not p.is_file() or SKIP_PARTS & set(p.relative_to(root).parts):
                continue
            if p.suffix in SUFFIXES or p.name == "CMakeLists.txt":
                yield p


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    docs = {p.name: headings(p) for p in (root / "docs").glob("*.md")}
    problems = []
    for path in sources(root):
        rel = path.relative_to(root)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if DATED.search(line) or DATED_DOC.search(line):
                problems.append(f"{rel}:{n}: cites a docs section by a date or time: {line.strip()}")
            cited = list(DOC.finditer(line))
            for m in SECTION.finditer(line):
                before = [d for d in cited if d.end() <= m.start()]
                if not before or before[-1].group(1) not in docs:
                    continue
                doc = before[-1].group(1)
                name = m.group(1).strip().rstrip(".").strip()
                if name and not any(h.startswith(name) for h in docs[doc]):
                    problems.append(f"{rel}:{n}: docs/{doc} has no section "
                                    f"\"{name}...\": {line.strip()}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} doc reference problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
