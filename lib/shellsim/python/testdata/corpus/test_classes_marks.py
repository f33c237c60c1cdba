import pytest

class TestMath:
    def test_add(self):
        assert 1 + 1 == 2

    def test_div_zero(self):
        with pytest.raises(ZeroDivisionError):
            1 / 0

    @pytest.mark.skipif(True, reason="always skipped")
    def test_skipped(self):
        pass

class TestStrings:
    @pytest.mark.parametrize("word", ["level", "radar"])
    def test_palindrome(self, word):
        assert word == word[::-1]

    def test_fails(self):
        assert "abc".upper() == "ABD"

def test_raises_match():
    with pytest.raises(ValueError, match=r"invalid literal"):
        int("x")
