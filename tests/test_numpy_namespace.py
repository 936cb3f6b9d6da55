"""Every public name of NumPy (numpy, linalg, random, Generator, ndarray) is in pygpu, or on the
reasoned exclusion list, or on the not-yet list of tests/numpy_names.py; and nothing on those
lists is there already (the lists stay true as names land)."""
import pytest

from numpy_names import namespaces


@pytest.mark.parametrize("title, theirs, ours, excluded, not_yet", namespaces(), ids=lambda v: v if isinstance(v, str) else "")
def test_numpy_names_are_in_pygpu_or_listed(title, theirs, ours, excluded, not_yet):
    missing = theirs - ours
    unlisted = missing - set(excluded) - not_yet
    assert not unlisted, f"{title}: pygpu lacks {sorted(unlisted)} (implement them, or list them in numpy_names.py)"
    landed = (set(excluded) | not_yet) & ours
    assert not landed, f"{title}: {sorted(landed)} are in pygpu now: take them off numpy_names.py's lists"
