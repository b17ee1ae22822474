"""KeptRuns: each setting simulated once, a ValueError kept as its message, a check's error
not kept; the widgets that simulate count their runs with it."""

from __future__ import annotations

import pytest

from robolab.views.widgets.kept_runs import KeptRuns


def test_each_setting_runs_once_and_a_failure_is_kept_as_its_message():
    calls = []

    def simulate(gain, load):
        calls.append((gain, load))
        if gain < 0:
            raise ValueError("unstable")
        return gain * load

    kept = KeptRuns(simulate)
    assert kept.run(2, 3.0) == (6.0, None)
    assert kept.run(2.0, 3) == (6.0, None)  # equal arguments, one run
    assert kept.run(-1.0, 3.0) == (None, "unstable")
    assert kept.run(-1.0, 3.0) == (None, "unstable")
    assert kept.calls == len(calls) == 2
    kept.clear()
    assert kept.run(2.0, 3.0) == (6.0, None) and kept.calls == 3


def test_what_is_not_a_failed_run_is_raised_and_not_kept():
    def check(result):
        if result is None:
            raise KeyError("no run")

    kept = KeptRuns(lambda x: None if x else 1, check=check)
    with pytest.raises(KeyError):
        kept.run(1)
    assert 1 not in kept and (1,) not in kept and kept.run(0) == (1, None)
    with pytest.raises(TypeError, match="simulate must be a function, got int"):
        KeptRuns(3)  # type: ignore[arg-type]
    with pytest.raises(ZeroDivisionError):  # not a ValueError: the notebook's bug, raised
        KeptRuns(lambda: 1 / 0).run()
