"""A small unittest.mock: Mock, MagicMock, patch, call, ANY."""


class _ANY:
    def __eq__(self, other):
        return True

    def __repr__(self):
        return "<ANY>"


ANY = _ANY()


class _Call(tuple):
    def __new__(cls, name="", args=(), kwargs=None):
        return tuple.__new__(cls, (name, tuple(args), dict(kwargs or {})))

    def __call__(self, *args, **kwargs):
        return _Call(self[0], args, kwargs)

    def __getattr__(self, name):
        return _Call(name)

    def __eq__(self, other):
        if isinstance(other, tuple) and len(other) == 3:
            return self[1] == other[1] and self[2] == other[2]
        return False

    def __repr__(self):
        args = [repr(a) for a in self[1]] + [f"{k}={v!r}" for k, v in self[2].items()]
        return f"call({', '.join(args)})"


call = _Call()

_sentinel = object()


class Mock:
    def __init__(self, spec=None, side_effect=None, return_value=_sentinel, name=None, **kwargs):
        d = self.__dict__
        d["_children"] = {}
        d["_return_value"] = return_value
        d["side_effect"] = side_effect
        d["call_args_list"] = []
        d["method_calls"] = []
        d["_name"] = name
        d["_spec"] = spec
        for k, v in kwargs.items():
            setattr(self, k, v)

    @property
    def return_value(self):
        if self._return_value is _sentinel:
            self.__dict__["_return_value"] = type(self)()
        return self._return_value

    @return_value.setter
    def return_value(self, v):
        self.__dict__["_return_value"] = v

    @property
    def called(self):
        return bool(self.call_args_list)

    @property
    def call_count(self):
        return len(self.call_args_list)

    @property
    def call_args(self):
        return self.call_args_list[-1] if self.call_args_list else None

    def __call__(self, *args, **kwargs):
        self.call_args_list.append(_Call("", args, kwargs))
        se = self.side_effect
        if se is not None:
            if isinstance(se, BaseException) or (isinstance(se, type) and issubclass(se, BaseException)):
                raise se
            if callable(se):
                r = se(*args, **kwargs)
                if r is not _sentinel:
                    return r
            else:
                it = self.__dict__.setdefault("_se_iter", iter(se))
                v = next(it)
                if isinstance(v, BaseException):
                    raise v
                return v
        return self.return_value

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        ch = self._children.get(name)
        if ch is None:
            ch = type(self)(name=name)
            self._children[name] = ch
        return ch

    def __setattr__(self, name, value):
        if name in ("return_value",):
            object.__setattr__(self, name, value)
            return
        self.__dict__[name] = value

    def assert_called(self):
        if not self.called:
            raise AssertionError(f"Expected '{self._name or 'mock'}' to have been called.")

    def assert_not_called(self):
        if self.called:
            raise AssertionError(f"Expected '{self._name or 'mock'}' to not have been called. Called {self.call_count} times.")

    def assert_called_once(self):
        if self.call_count != 1:
            raise AssertionError(f"Expected '{self._name or 'mock'}' to have been called once. Called {self.call_count} times.")

    def assert_called_with(self, *args, **kwargs):
        if self.call_args is None or self.call_args != _Call("", args, kwargs):
            raise AssertionError(f"expected call not found.\nExpected: {_Call('', args, kwargs)!r}\n  Actual: {self.call_args!r}")

    def assert_called_once_with(self, *args, **kwargs):
        self.assert_called_once()
        self.assert_called_with(*args, **kwargs)

    def assert_any_call(self, *args, **kwargs):
        if _Call("", args, kwargs) not in self.call_args_list:
            raise AssertionError(f"{_Call('', args, kwargs)!r} call not found")

    def assert_has_calls(self, calls, any_order=False):
        for c in calls:
            if c not in self.call_args_list:
                raise AssertionError(f"Calls not found.\nExpected: {calls!r}\n  Actual: {self.call_args_list!r}")

    def reset_mock(self):
        self.call_args_list[:] = []


class MagicMock(Mock):
    def __len__(self):
        return 0

    def __iter__(self):
        return iter([])

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def __bool__(self):
        return True


class _Patch:
    def __init__(self, target, new, attribute=None, obj=None):
        self.target = target
        self.new = new
        self.attribute = attribute
        self.obj = obj

    def _resolve(self):
        if self.obj is not None:
            return self.obj, self.attribute
        mod, attr = self.target.rsplit(".", 1)
        parts = mod.split(".")
        o = __import__(parts[0])
        for p in parts[1:]:
            try:
                o = getattr(o, p)
            except AttributeError:
                __import__(mod)
                o = getattr(o, p)
        return o, attr

    def start(self):
        o, attr = self._resolve()
        self._saved = getattr(o, attr, _sentinel)
        new = MagicMock() if self.new is _sentinel else self.new
        setattr(o, attr, new)
        self._o, self._attr = o, attr
        return new

    def stop(self):
        if self._saved is _sentinel:
            delattr(self._o, self._attr)
        else:
            setattr(self._o, self._attr, self._saved)

    def __enter__(self):
        return self.start()

    def __exit__(self, *a):
        self.stop()

    def __call__(self, func):
        patcher = self

        def wrapper(*args, **kwargs):
            new = patcher.start()
            try:
                if patcher.new is _sentinel:
                    return func(*args, new, **kwargs)
                return func(*args, **kwargs)
            finally:
                patcher.stop()
        wrapper.__name__ = func.__name__
        return wrapper


def patch(target, new=_sentinel, **kwargs):
    return _Patch(target, new)


def _patch_object(obj, attribute, new=_sentinel, **kwargs):
    return _Patch(None, new, attribute, obj)


class _PatchDict:
    def __init__(self, d, values=(), clear=False, **kw):
        self.d = d
        self.values = dict(values, **kw)
        self.clear = clear

    def __enter__(self):
        self._saved = dict(self.d)
        if self.clear:
            self.d.clear()
        self.d.update(self.values)
        return self.d

    def __exit__(self, *a):
        self.d.clear()
        self.d.update(self._saved)


patch.object = _patch_object
patch.dict = _PatchDict
sentinel = type("sentinel", (), {"__getattr__": lambda self, name: name})()
