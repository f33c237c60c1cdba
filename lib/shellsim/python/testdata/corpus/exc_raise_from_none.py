class ConfigError(Exception):
    pass
def load(d):
    try:
        return d["port"]
    except KeyError:
        raise ConfigError("missing port") from None
try:
    load({})
except ConfigError as e:
    print(e, e.__cause__, e.__suppress_context__)
load({})
