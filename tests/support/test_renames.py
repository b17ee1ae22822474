"""robolab/support/renames.py: an old keyword keeps working, with a warning naming the new one."""

from __future__ import annotations

import pytest

from robolab.support.renames import renamed_keywords


@renamed_keywords(kp="Kp", total_time="duration")
def law(error, Kp=1.0, duration=2.0):
    """A stand-in with two renamed keywords."""
    return Kp * error, duration


def test_the_new_names_need_no_warning():
    assert law(2.0, Kp=3.0, duration=4.0) == (6.0, 4.0)
    assert law.__name__ == "law" and law.__doc__ == "A stand-in with two renamed keywords."
    assert law.renamed_keywords == {"kp": "Kp", "total_time": "duration"}


def test_an_old_keyword_warns_and_passes_its_value_on():
    with pytest.warns(DeprecationWarning, match=r"law\(kp=\.\.\.\) is now law\(Kp=\.\.\.\)"):
        assert law(2.0, kp=3.0) == (6.0, 2.0)
    with pytest.warns(DeprecationWarning, match="total_time") as caught:
        law(1.0, total_time=5.0)
    assert caught[0].filename == __file__  # points at the caller's line


def test_both_names_at_once_is_an_error():
    with pytest.raises(TypeError, match="got both kp and Kp"):
        law(1.0, kp=1.0, Kp=2.0)


def test_a_method_is_named_by_its_class():
    class Tuner:
        @renamed_keywords(kd="Kd")
        def __init__(self, Kd=0.0):
            self.Kd = Kd

    with pytest.warns(DeprecationWarning, match=r"Tuner\(kd=\.\.\.\) is now Tuner\(Kd=\.\.\.\)"):
        assert Tuner(kd=2.0).Kd == 2.0
