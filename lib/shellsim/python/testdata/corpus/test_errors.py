import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture failed")

def test_uses_broken(broken):
    assert True

def test_ok():
    assert [1, 2] == [1, 2]

def test_dict_compare():
    assert {"a": 1} == {"a": 2}
