"""HTML escaping."""
import re as _re

_entities = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "#x27": "'", "nbsp": "\xa0", "copy": "\xa9"}


def escape(s, quote=True):
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        s = s.replace('"', "&quot;").replace("'", "&#x27;")
    return s


def unescape(s):
    def repl(m):
        name = m.group(1)
        if name.startswith("#x") or name.startswith("#X"):
            return chr(int(name[2:], 16))
        if name.startswith("#"):
            return chr(int(name[1:]))
        return _entities.get(name, m.group(0))
    return _re.sub(r"&(#?[xX]?\w+);", repl, s)
