import hashlib
import json
import subprocess
import sys
from pathlib import Path

from classifier.heldout_texts import Cleaning, arxiv_abstracts, clean_readme, rebuild


def _commit(work: Path, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text, encoding="utf-8")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "add", "-A"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-qm", message], check=True, capture_output=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def _repo(tmp_path: Path, name: str) -> Path:
    work = tmp_path / name
    work.mkdir()
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    return work


def _entry(title: str, abstract: str, arxiv_id: str) -> str:
    return (f"<details>\n<summary><strong>{title}</strong> - Someone</summary>\n\n**Abstract:** {abstract}\n\n"
            f"**arXiv ID:** {arxiv_id}\n</details>\n")


def test_each_arxiv_id_gets_its_longest_complete_abstract_over_every_commit(tmp_path: Path) -> None:
    work = _repo(tmp_path, "daily")
    _commit(work, {"README.md": _entry("WebRunner", "We train a web agent with GRPO in a live...", "2601.00001")
                   + _entry("BenchX", "A benchmark of 300 web tasks.", "2601.00003")}, "first")
    _commit(work, {"README.md": _entry("BenchX", "A benchmark of 300 web tasks.", "2601.00003"),
                   "archive/2026-01.md": _entry("WebRunner", "We train a web agent with GRPO in a live browser.",
                                                "2601.00001")}, "second")
    abstracts = arxiv_abstracts(work / ".git")
    assert abstracts == {"2601.00001": "We train a web agent with GRPO in a live browser.",
                         "2601.00003": "A benchmark of 300 web tasks."}


README = """# 项目

![logo](logo.png)
本项目是一个 <b>agent 框架</b>，详见[文档](https://example.org/docs)。

```bash
pip install demo
```
<!-- 注释 -->
支持 Python <= 3.12 与
版本 >= 2。
---
"""


def test_a_readme_is_cleaned_as_the_sets_keep_it() -> None:
    assert clean_readme(README, rst=False, cleaning=Cleaning.LINE_TAGS) == (
        "# 项目\n本项目是一个 agent 框架，详见文档。\n支持 Python <= 3.12 与\n版本 >= 2。")
    # The ninth set's cleaning ends a tag at the next ">", across lines.
    assert clean_readme(README, rst=False, cleaning=Cleaning.OPEN_TAGS) == (
        "# 项目\n本项目是一个 agent 框架，详见文档。\n支持 Python = 2。")


def test_rebuild_keeps_the_texts_that_match_their_checksums(tmp_path: Path) -> None:
    daily = _repo(tmp_path, "daily")
    _commit(daily, {"README.md": _entry("WebRunner", "We train a web agent with GRPO.", "2601.00001")}, "list")
    work = _repo(tmp_path, "demo")
    commit = _commit(work, {"README_zh.md": README}, "readme")
    repos = tmp_path / "repos"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(repos / "someone+demo" / "repo")], check=True)
    zh = clean_readme(README, rst=False, cleaning=Cleaning.OPEN_TAGS)
    manifest = {"items": [
        {"id": "arXiv:2601.00001", "lang": "en",
         "sha256": hashlib.sha256(b"We train a web agent with GRPO.").hexdigest()},
        {"id": "github:someone/demo:README_zh.md", "lang": "zh",
         "url": f"https://github.com/someone/demo/blob/{commit}/README_zh.md",
         "sha256": hashlib.sha256(zh.encode("utf-8")).hexdigest()},
        {"id": "arXiv:2601.00003", "lang": "en", "sha256": "0" * 64},
    ]}
    texts = rebuild(manifest, arxiv_abstracts(daily / ".git"), repos)
    assert texts == [{"id": "arXiv:2601.00001", "text": "We train a web agent with GRPO."},
                     {"id": "github:someone/demo:README_zh.md", "text": zh}]

    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "classifier.heldout_texts", str(tmp_path / "manifest.json"),
         "--arxiv-daily", str(daily / ".git"), "--repos", str(repos), "--out", str(tmp_path / "texts.json")],
        capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("2/3 texts match their checksums")
    assert json.loads((tmp_path / "texts.json").read_text(encoding="utf-8")) == texts


def test_a_snapshot_with_a_work_tree_is_read_through_its_git_directory(tmp_path: Path) -> None:
    work = _repo(tmp_path, "demo")
    commit = _commit(work, {"README.md": README}, "readme")
    repos = tmp_path / "repos"
    subprocess.run(["git", "clone", "-q", str(work), str(repos / "someone+demo" / "repo")], check=True)
    zh = clean_readme(README, rst=False, cleaning=Cleaning.OPEN_TAGS)
    manifest = {"items": [{"id": "github:someone/demo:README.md", "lang": "zh",
                           "url": f"https://github.com/someone/demo/blob/{commit}/README.md",
                           "sha256": hashlib.sha256(zh.encode("utf-8")).hexdigest()}]}
    assert rebuild(manifest, {}, repos) == [{"id": "github:someone/demo:README.md", "text": zh}]
