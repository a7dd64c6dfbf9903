from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = re.compile(r'env_(?:str|bool|int|list)\("([A-Z0-9_]+)"')


def test_env_example_lists_every_variable_the_code_reads() -> None:
    read = {name for path in [*ROOT.joinpath("config").rglob("*.py"), *ROOT.joinpath("wiki").rglob("*.py")]
            for name in READ.findall(path.read_text(encoding="utf-8"))}
    listed = {line.split("=", 1)[0] for line in ROOT.joinpath(".env.example").read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")}
    assert "EDITOR_PASSWORD" in read
    assert read <= listed


def test_no_module_reads_the_environment_around_config_env() -> None:
    direct = [path.name for path in ROOT.joinpath("wiki").rglob("*.py") if "os.environ" in path.read_text(encoding="utf-8")]
    assert direct == []
