class Proxy:
    def __init__(self, target):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_log", [])
    def __getattr__(self, name):
        self._log.append(name)
        return getattr(self._target, name)
    def __setattr__(self, name, value):
        self._log.append("set " + name)
        setattr(self._target, name, value)
class T:
    x = 1
    def hello(self):
        return "hi"
p = Proxy(T())
print(p.x, p.hello())
p.y = 5
print(p._target.y, p._log)
