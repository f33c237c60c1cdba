import pytest

@pytest.fixture(params=[1, 2, 3])
def number(request):
    return request.param

def test_positive(number):
    assert number > 0

@pytest.fixture
def resource():
    data = {"opened": True}
    yield data
    data["opened"] = False

def test_resource(resource):
    assert resource["opened"]

@pytest.mark.parametrize("s,expected", [("abc", 3), ("", 0), pytest.param("xy", 2, id="two")])
def test_len(s, expected):
    assert len(s) == expected

def test_monkeypatch(monkeypatch):
    import os
    monkeypatch.setenv("MY_VAR", "set")
    assert os.environ["MY_VAR"] == "set"

def test_capsys(capsys):
    print("hello")
    out, err = capsys.readouterr()
    assert out == "hello\n"
