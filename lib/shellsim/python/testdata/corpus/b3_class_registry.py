class Plugin:
    registry = {}
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        Plugin.registry[name or cls.__name__.lower()] = cls
class Csv(Plugin, name="csv"):
    def run(self):
        return "csv!"
class Json(Plugin):
    def run(self):
        return "json!"
print(sorted(Plugin.registry), Plugin.registry["csv"]().run(), Plugin.registry["json"]().run())
