"""The README's tour runs as written (its Python blocks, in order, in one namespace)."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_tour_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) >= 2, "the README's tour lost its code"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    printed = capsys.readouterr().out
    assert "planar 2R" in printed and "steps, the first:" in printed
    assert namespace["tau"].shape == (6,)
