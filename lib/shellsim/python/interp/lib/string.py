"""Common string constants and Template."""
whitespace = " \t\n\r\v\f"
ascii_lowercase = "abcdefghijklmnopqrstuvwxyz"
ascii_uppercase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ascii_letters = ascii_lowercase + ascii_uppercase
digits = "0123456789"
hexdigits = digits + "abcdef" + "ABCDEF"
octdigits = "01234567"
punctuation = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or " ").join(map(str.capitalize, s.split(sep)))


class Template:
    delimiter = "$"

    def __init__(self, template):
        self.template = template

    def _sub(self, mapping, safe):
        import re
        pat = re.compile(r"\$(?:(\$)|([_a-zA-Z][_a-zA-Z0-9]*)|\{([_a-zA-Z][_a-zA-Z0-9]*)\}|())")

        def repl(m):
            if m.group(1) is not None:
                return "$"
            name = m.group(2) or m.group(3)
            if name is not None:
                if name in mapping:
                    return str(mapping[name])
                if safe:
                    return m.group(0)
                raise KeyError(name)
            if safe:
                return m.group(0)
            raise ValueError("Invalid placeholder in string")
        return pat.sub(repl, self.template)

    def substitute(self, mapping=None, **kws):
        m = dict(mapping or {})
        m.update(kws)
        return self._sub(m, False)

    def safe_substitute(self, mapping=None, **kws):
        m = dict(mapping or {})
        m.update(kws)
        return self._sub(m, True)


class Formatter:
    def format(self, format_string, *args, **kwargs):
        return format_string.format(*args, **kwargs)
