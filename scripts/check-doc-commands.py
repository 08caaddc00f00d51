#!/usr/bin/env python3
"""Checks that what the docs show still works with the code beside them.

  commands   Every `stencilc` command in a shell block (```sh, ```bash or
             ```console) of README.md, docs/*.md and docs/tutorial/*/README.md
             parses with the current stencilc: it is run with
             STENCILC_PARSE_ONLY=1, which stops after the command line is
             parsed, so an unknown option, a bad value or a removed
             subcommand fails here. A command may start with `$ ` and go on
             over lines ending in a backslash; a `# ...` comment is dropped.
             Every argument that names a repository file (a path under
             dsl-examples/, docs/, examples/, tests/, scripts/ or bench/) must
             exist.
  scripts    Every `bash scripts/...` or `python3 scripts/...` a shell block
             shows names a file that exists.
  links      Every relative Markdown link `[text](path#anchor)` of every .md
             file of the repository (build trees and peers' checkouts aside)
             names a file or folder that exists and, with an anchor into a
             Markdown file, one of its headings (GitHub's slugs).

Usage: check-doc-commands.py REPO_ROOT STENCILC; prints each problem and exits 1 if any.
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys

COMMAND_DOCS = ("README.md", "docs/*.md", "docs/tutorial/*/README.md")
REPO_PATH = re.compile(r"^(dsl-examples|docs|examples|tests|scripts|bench)/[^*?{}<>|]+$")
FENCE = re.compile(r"^\s*```(\w*)\s*$")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
SKIP_DIRS = {".git", "build", "node_modules", "__pycache__"}


def shell_blocks(text):
    """The lines of each shell code block, continuations joined, comments dropped."""
    lines, in_block, shell = [], False, False
    for raw in text.splitlines():
        fence = FENCE.match(raw)
        if fence:
            if in_block:
                in_block = False
            else:
                in_block, shell = True, fence.group(1) in ("sh", "bash", "console", "shell")
            continue
        if in_block and shell:
            lines.append(raw)
    joined, current = [], ""
    for line in lines:
        if current:
            current += " " + line.strip()
        else:
            current = line.strip()
        if current.endswith("\\"):
            current = current[:-1].rstrip()
            continue
        joined.append(current)
        current = ""
    if current:
        joined.append(current)
    return joined


def words_of(line):
    """The shell words of one command line, without a prompt or a comment; None if it
    does not split (an unbalanced quote)."""
    if line.startswith("$ "):
        line = line[2:]
    try:
        return shlex.split(line, comments=True)
    except ValueError:
        return None


SEPARATORS = {"|", "||", "&&", ";", "do", "then", "else"}
WRAPPERS = {"time", "/usr/bin/time", "env", "nice", "exec"}


def stencilc_commands(line):
    """Each stencilc invocation on a line, in command position (first, after a
    separator, variable assignments or a wrapper such as time): its arguments, up
    to the next separator or redirection."""
    words = words_of(line)
    if not words:
        return []
    commands, current, position, wrapper_arg = [], None, True, False
    for w in words:
        if w in SEPARATORS or w.endswith(";") or w.startswith(">") or w in ("2>", "<"):
            if current is not None:
                commands.append(current)
            current, position = None, w not in (">", ">>", "2>", "<") and not w.startswith(">")
            if w.endswith(";") and w not in SEPARATORS:
                position = True
            continue
        if current is not None:
            current.append(w)
        elif position:
            if wrapper_arg:
                wrapper_arg = False
            elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w) or w in WRAPPERS:
                pass
            elif w.startswith("-"):
                wrapper_arg = w in ("-f", "-o")  # /usr/bin/time -f FORMAT
            elif w == "stencilc" or w.endswith("/stencilc"):
                current = []
            else:
                position = False
    if current is not None:
        commands.append(current)
    return commands


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out, fence = set(), False
    counts = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            base = slug(line.lstrip("#").replace("`", ""))
            n = counts.get(base, 0)
            counts[base] = n + 1
            out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def markdown_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build")]
        for f in filenames:
            if f.endswith(".md"):
                yield pathlib.Path(dirpath) / f


def main():
    root, stencilc = pathlib.Path(sys.argv[1]).resolve(), sys.argv[2]
    problems, checked = [], 0
    env = dict(os.environ, STENCILC_PARSE_ONLY="1")

    docs = []
    for pattern in COMMAND_DOCS:
        docs.extend(sorted(root.glob(pattern)))
    for doc in docs:
        rel = doc.relative_to(root)
        for line in shell_blocks(doc.read_text(encoding="utf-8")):
            words = words_of(line) or []
            for i, w in enumerate(words[:-1]):
                if w in ("bash", "python3", "sh") and words[i + 1].startswith("scripts/"):
                    if not (root / words[i + 1]).is_file():
                        problems.append("%s: `%s`: no file %s" % (rel, line, words[i + 1]))
            for args in stencilc_commands(line):
                checked += 1
                if not args or args[0].startswith("-"):
                    problems.append("%s: `%s`: no subcommand" % (rel, line))
                    continue
                for a in args:
                    value = a.split("=", 1)[1] if a.startswith("--") and "=" in a else a
                    if REPO_PATH.match(value) and not (root / value).exists():
                        problems.append("%s: `%s`: no file %s" % (rel, line, value))
                run = subprocess.run([stencilc] + args, cwd=root, env=env, capture_output=True,
                                     text=True)
                if run.returncode != 0:
                    problems.append("%s: `%s` does not parse: %s"
                                    % (rel, line, (run.stderr or run.stdout).strip()))

    links = 0
    for md in markdown_files(root):
        text = md.read_text(encoding="utf-8")
        # Links inside code blocks are code, not links.
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        text = re.sub(r"`[^`\n]*`", "", text)
        for m in LINK.finditer(text):
            target = m.group(1) or m.group(2)
            if re.match(r"^[a-z]+:", target) or target.startswith("mailto:"):
                continue
            links += 1
            path, _, anchor = target.partition("#")
            dest = (md.parent / path).resolve() if path else md
            rel = md.relative_to(root)
            if not dest.exists():
                problems.append("%s: link %s: no such file" % (rel, target))
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problems.append("%s: link %s: no heading with that anchor in %s"
                                % (rel, target, dest.relative_to(root)))

    for p in problems:
        print(p)
    print("%d stencilc commands in %d files, %d links: %d problems"
          % (checked, len(docs), links, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
