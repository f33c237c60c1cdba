import pytest

def test_ok():
    assert True

def test_bad_compare():
    result = [1, 2, 3]
    assert result == [1, 2, 4]

def test_bad_message():
    value = 5
    assert value > 10, "value too small"

def test_exception():
    {}["missing"]

@pytest.mark.skip(reason="not now")
def test_skip():
    assert False

@pytest.mark.xfail
def test_xfail():
    assert 1 == 2
