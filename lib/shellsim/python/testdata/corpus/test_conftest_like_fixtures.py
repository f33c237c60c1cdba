import pytest

@pytest.fixture(scope="module")
def db():
    store = {"users": []}
    yield store
    store.clear()

@pytest.fixture
def user(db):
    u = {"name": "ann"}
    db["users"].append(u)
    return u

def test_user_added(user, db):
    assert user in db["users"]

def test_module_scope_shared(db):
    assert len(db["users"]) == 1

@pytest.mark.parametrize("x", [0, 1, 2])
@pytest.mark.parametrize("y", ["a", "b"])
def test_grid(x, y):
    assert isinstance(x, int) and isinstance(y, str)

def test_tmp_path_isolated(tmp_path):
    p = tmp_path / "data.txt"
    p.write_text("hello")
    assert p.read_text() == "hello"
    assert len(list(tmp_path.iterdir())) == 1
