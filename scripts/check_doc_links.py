#!/usr/bin/env python3
"""Checks every relative link of the README and the manual (docs/): the file
or folder it names exists, and an anchor (#section) names a heading of that
page as GitHub renders it. Also used by CTest (tests/docs: doc_links).

    scripts/check_doc_links.py [--root DIR] [FILE.md ...]

Without files: README.md, every .md under docs/, and the other READMEs of the
repository (examples/, fuzz/). Prints one line per dead link, FILE:LINE: why,
and exits 1 when there is any; external links (http:, https:, mailto:) are
not fetched.
"""
import argparse
import pathlib
import re
import sys

FENCE = re.compile(r"^\s*(```|~~~)")
# [text](target) and ![alt](target); the target ends at the first space or ')'.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading: its rendered text, lower case, without
    punctuation other than '-' and '_', spaces turned into '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link renders as its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    """The anchors of a markdown file's headings, with GitHub's -1, -2 for repeats."""
    if path not in cache:
        seen, out = {}, set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
        for match in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", path.read_text(encoding="utf-8")):
            out.add(match.group(1))
        cache[path] = out
    return cache[path]


def check(path, root):
    """The dead links of one file, as 'FILE:LINE: why'."""
    problems = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(CODE_SPAN.sub("", line)):
            target = match.group(1)
            if EXTERNAL.match(target):
                continue
            where = f"{path.relative_to(root)}:{number}"
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                problems.append(f"{where}: {target}: no such file or folder")
                continue
            if not anchor:
                continue
            if linked.suffix != ".md" or not linked.is_file():
                problems.append(f"{where}: {target}: an anchor into something that is not a markdown page")
            elif anchor not in anchors(linked):
                problems.append(f"{where}: {target}: no heading with the anchor #{anchor} in "
                                f"{linked.relative_to(root)}")
    return problems


def default_files(root):
    files = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    for folder in ("examples", "fuzz"):
        files += sorted((root / folder).rglob("README.md"))
    return [f for f in files if f.is_file()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    args = parser.parse_args()
    root = args.root.resolve()
    files = [f.resolve() for f in args.files] or default_files(root)
    problems, links = [], 0
    for path in files:
        problems += check(path, root)
    for problem in problems:
        print(problem)
    print(f"check_doc_links: {len(files)} files, {len(problems)} dead links")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
