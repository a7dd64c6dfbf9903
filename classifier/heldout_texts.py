"""Rebuild a held-out set's texts from local copies of their sources.

    python -m classifier.heldout_texts MANIFEST --arxiv-daily GIT_DIR [--repos DIR] --out TEXTS.json

The texts of a held-out set stay outside the repository; its manifest names
where each came from and holds each text's SHA-256. English works are arXiv
abstracts as the public repository Aaron617/agent-arXiv-daily lists them:
every Markdown file at every commit of its git directory is read, and per
arXiv ID the longest abstract that does not end in "..." is the text. Chinese
works are README or documentation files at the commit in their url, read from
``DIR/<owner>+<repo>/repo`` (a bare git directory each, or a checkout holding
one in ``.git``) and cleaned as the manifest describes. A text is written only when it matches its checksum, so
the result is the frozen file itself, or the part of it ``classifier.evaluate``
measures item by item.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

from classifier.evaluate import text_sha256

ENTRY = re.compile(
    r"<summary><strong>(?P<title>.*?)</strong>.*?</summary>\n\n\*\*Abstract:\*\* (?P<abstract>.*?)\n\n"
    r"\*\*arXiv ID:\*\* (?P<id>\S+)",
    re.DOTALL,
)
GITHUB_URL = re.compile(r"https://github\.com/(?P<owner>[^/]+)/(?P<repo>[^/]+)/blob/(?P<commit>[0-9a-f]{7,40})/(?P<path>.+)")


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True).stdout


def _blobs(git_dir: Path) -> Iterator[str]:
    """Every Markdown file's text at every commit, each distinct version once."""
    seen: set[str] = set()
    for commit in _git(git_dir, "rev-list", "--all").split():
        for line in _git(git_dir, "ls-tree", "-r", commit).splitlines():
            meta, path = line.split("\t", 1)
            blob = meta.split()[2]
            if path.endswith(".md") and blob not in seen:
                seen.add(blob)
                yield _git(git_dir, "cat-file", "-p", blob)


def arxiv_abstracts(git_dir: Path) -> dict[str, str]:
    """arXiv ID → the longest complete abstract the listing gives it (entries are read one ``<details>`` at a
    time: a diff or a whole file read at once would pair titles with the wrong abstracts)."""
    best: dict[str, str] = {}
    for text in _blobs(git_dir):
        for chunk in text.split("<details>"):
            m = ENTRY.search(chunk)
            if m is None:
                continue
            abstract, arxiv_id = m.group("abstract").strip(), m.group("id").strip()
            if not abstract.endswith("...") and len(abstract) > len(best.get(arxiv_id, "")):
                best[arxiv_id] = abstract
    return best


class Cleaning(Enum):
    """The two cleanings the sets' Chinese texts went through, told apart by their checksums."""

    # Seventh and eighth sets: an HTML tag ends with its line, a reference-style link keeps its text, a
    # reStructuredText line opening on ".." goes only when it is a directive.
    LINE_TAGS = "line tags"
    # Ninth set: an HTML tag runs to the next ">", across lines; reference-style images go and reference-style
    # links stay as written; every reStructuredText line opening on ".." goes.
    OPEN_TAGS = "open tags"


def clean_readme(text: str, *, rst: bool, cleaning: Cleaning) -> str:
    """A README or documentation page as the held-out sets keep it: prose lines without code, markup, images or
    link targets, cut at 2,000 characters."""
    open_tags = cleaning is Cleaning.OPEN_TAGS
    text = text.replace("\r\n", "\n")
    text = re.sub(r"```.*?(```|$)", "", text, flags=re.DOTALL)
    text = re.sub(r"~~~.*?(~~~|$)", "", text, flags=re.DOTALL)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    if open_tags:
        text = re.sub(r"!\[[^\]]*\]\[[^\]]*\]", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    if not open_tags:
        text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"^\s*\[[^\]]+\]:\s*\S+.*$", "", text, flags=re.MULTILINE)
    text = re.sub(r"<[^>]+>" if open_tags else r"<[^>\n]+>", "", text)
    if rst:
        text = _without_rst_blocks(text, comments=open_tags)
    lines = (line.strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line and not re.fullmatch(r"[-=*_#~^`+|:. ]+", line))[:2000]


def _without_rst_blocks(text: str, *, comments: bool) -> str:
    """Code, image and table-of-contents blocks, directive lines and option lines removed; ``comments`` drops
    every other line opening on ".." too."""
    out: list[str] = []
    skipping = False
    for line in text.split("\n"):
        if skipping:
            if not line.strip() or line[:1].isspace():
                continue
            skipping = False
        if re.match(r"\s*\.\.\s+(code-block|code|sourcecode|image|figure|toctree|literalinclude)::", line) \
                or line.rstrip().endswith("::"):
            skipping = True
            if line.rstrip().endswith("::") and not line.strip().startswith(".."):
                out.append(line.rstrip()[:-1])
            continue
        directive = r"\s*\.\.\s" if comments else r"\s*\.\.\s+[\w-]+::"
        if re.match(directive, line) or re.match(r"\s*:[\w-]+:", line):
            continue
        out.append(line)
    return "\n".join(out)


def readme_text(repos: Path, url: str, expected: str) -> str | None:
    """The cleaned file the url names, in whichever of the sets' cleanings matches ``expected``."""
    m = GITHUB_URL.fullmatch(url)
    if m is None:
        return None
    git_dir = repos / f"{m['owner']}+{m['repo']}" / "repo"
    if (git_dir / ".git").is_dir():  # a snapshot with a work tree
        git_dir = git_dir / ".git"
    try:
        raw = _git(git_dir, "show", f"{m['commit']}:{m['path']}")
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    for cleaning in Cleaning:
        text = clean_readme(raw, rst=m["path"].endswith(".rst"), cleaning=cleaning)
        if text_sha256(text) == expected:
            return text
    return None


def rebuild(manifest: dict[str, Any], abstracts: dict[str, str], repos: Path | None) -> list[dict[str, str]]:
    texts = []
    for item in manifest["items"]:
        text: str | None = None
        if item["id"].startswith("arXiv:"):
            text = abstracts.get(item["id"].removeprefix("arXiv:"))
        elif repos is not None and item.get("url"):
            text = readme_text(repos, item["url"], item["sha256"])
        if text is not None and text_sha256(text) == item["sha256"]:
            texts.append({"id": item["id"], "text": text})
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m classifier.heldout_texts", description=__doc__.split("\n")[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("--arxiv-daily", type=Path, required=True, help="git directory of Aaron617/agent-arXiv-daily")
    parser.add_argument("--repos", type=Path, help="folder of bare git directories, <owner>+<repo>/repo")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
    if not all("sha256" in item for item in manifest["items"]):
        parser.error(f"{args.manifest} has no checksum per text")
    texts = rebuild(manifest, arxiv_abstracts(args.arxiv_daily), args.repos)
    # The layout the sets were frozen in, so that a complete rebuild is the frozen file byte for byte.
    args.out.write_bytes(json.dumps(texts, ensure_ascii=False, indent=1).encode("utf-8"))
    print(f"{len(texts)}/{len(manifest['items'])} texts match their checksums → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
