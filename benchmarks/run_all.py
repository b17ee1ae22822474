"""Run the benchmarks and rewrite their sections of docs/benchmarks.md.

Each ``benchmarks/bench_<topic>.py`` defines ``main() -> str`` that runs
robolab and its anchors (Moro, the Python Modern Robotics library, Pinocchio)
side by side in this one process, prints progress and ratios, and returns a
Markdown section. This script runs them and stores each section in
``docs/benchmarks.md`` between ``<!-- bench:<topic> -->`` markers, so one
topic can be re-run without touching the others::

    python benchmarks/run_all.py            # every topic
    python benchmarks/run_all.py dh screw   # only these topics
"""

from __future__ import annotations

import datetime
import importlib.util
import os
import platform
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUTPUT = HERE.parent / "docs" / "benchmarks.md"

HEADER = """# Benchmarks

Written by `make bench` (`python benchmarks/run_all.py`). Each section runs
robolab and the reference implementations side by side in one process on the
same machine and reports ratios; absolute times depend on the machine. Timing
never appears in the test suite.
"""


def _topics() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))


def _run(topic: str) -> str:
    path = HERE / f"bench_{topic}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{topic}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    section = module.main().strip()
    stamp = (
        f"_Run {datetime.date.today().isoformat()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}._"
    )
    return f"<!-- bench:{topic} -->\n{section}\n\n{stamp}\n<!-- /bench:{topic} -->"


def main(argv: list[str]) -> int:
    topics = argv or _topics()
    unknown = sorted(set(topics) - set(_topics()))
    if unknown:
        print(f"unknown benchmark topic(s) {unknown}; available: {_topics()}", file=sys.stderr)
        return 2
    for topic in topics:
        print(f"== {topic}", flush=True)
        block = _run(topic)
        # Read the file only now: another run may have rewritten other sections meanwhile.
        text = OUTPUT.read_text() if OUTPUT.exists() else HEADER
        pattern = re.compile(rf"<!-- bench:{topic} -->.*?<!-- /bench:{topic} -->", re.S)
        if pattern.search(text):
            text = pattern.sub(lambda _match, block=block: block, text)
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        OUTPUT.write_text(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
