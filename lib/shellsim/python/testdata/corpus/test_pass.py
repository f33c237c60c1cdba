import pytest

def add(a, b):
    return a + b

def test_add():
    assert add(1, 2) == 3

@pytest.mark.parametrize("a,b,c", [(1, 1, 2), (2, 3, 5), (-1, 1, 0)])
def test_add_param(a, b, c):
    assert add(a, b) == c

def test_raises():
    with pytest.raises(ZeroDivisionError):
        1 / 0

@pytest.fixture
def numbers():
    return [3, 1, 2]

def test_fixture(numbers):
    assert sorted(numbers) == [1, 2, 3]

class TestGroup:
    def test_a(self):
        assert "x" in "xyz"

    def test_b(self, tmp_path):
        f = tmp_path / "f.txt"
        f.write_text("hi")
        assert f.read_text() == "hi"

def test_approx():
    assert 0.1 + 0.2 == pytest.approx(0.3)
