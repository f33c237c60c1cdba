"""datetime.strptime for the common directives."""
import re

_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_FULLMONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

_PATTERNS = {
    "Y": r"(?P<Y>\d{4})", "y": r"(?P<y>\d{2})", "m": r"(?P<m>1[0-2]|0[1-9]|[1-9])", "d": r"(?P<d>3[01]|[12]\d|0[1-9]|[1-9]| [1-9])",
    "H": r"(?P<H>2[0-3]|[0-1]\d|\d)", "I": r"(?P<I>1[0-2]|0[1-9]|[1-9])", "M": r"(?P<M>[0-5]\d|\d)", "S": r"(?P<S>6[0-1]|[0-5]\d|\d)",
    "f": r"(?P<f>[0-9]{1,6})", "p": r"(?P<p>am|pm|AM|PM)", "b": r"(?P<b>[A-Za-z]{3})", "B": r"(?P<B>[A-Za-z]+)",
    "a": r"(?P<a>[A-Za-z]{3})", "A": r"(?P<A>[A-Za-z]+)", "j": r"(?P<j>36[0-6]|3[0-5]\d|[12]\d\d|0[1-9]\d|00[1-9]|[1-9]\d|0[1-9]|[1-9])",
    "z": r"(?P<z>[+-]\d\d:?[0-5]\d(:?[0-5]\d)?|Z)", "Z": r"(?P<Z>[A-Z]{3,4})", "%": "%", "w": r"(?P<w>[0-6])",
    "e": r"(?P<d>3[01]|[12]\d|0[1-9]|[1-9]| [1-9])",
}


def parse(cls, s, fmt):
    regex = ""
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            d = fmt[i + 1]
            if d == "T":
                regex += _PATTERNS["H"] + ":" + _PATTERNS["M"] + ":" + _PATTERNS["S"]
            elif d == "F":
                regex += _PATTERNS["Y"] + "-" + _PATTERNS["m"] + "-" + _PATTERNS["d"]
            elif d in _PATTERNS:
                regex += _PATTERNS[d]
            else:
                raise ValueError(f"'{d}' is a bad directive in format '{fmt}'")
            i += 2
            continue
        if c.isspace():
            regex += r"\s+"
        else:
            regex += re.escape(c)
        i += 1
    m = re.fullmatch(regex, s, re.IGNORECASE)
    if m is None:
        raise ValueError(f"time data {s!r} does not match format {fmt!r}")
    g = m.groupdict()
    year = int(g["Y"]) if g.get("Y") else (2000 + int(g["y"]) if int(g["y"]) < 69 else 1900 + int(g["y"])) if g.get("y") else 1900
    month = int(g["m"]) if g.get("m") else 1
    if g.get("b"):
        month = _MONTHS.index(g["b"].lower()) + 1
    if g.get("B"):
        month = _FULLMONTHS.index(g["B"].lower()) + 1
    day = int(g["d"]) if g.get("d") else 1
    hour = int(g["H"]) if g.get("H") else 0
    if g.get("I"):
        hour = int(g["I"]) % 12
        if g.get("p") and g["p"].lower() == "pm":
            hour += 12
    minute = int(g["M"]) if g.get("M") else 0
    second = int(g["S"]) if g.get("S") else 0
    us = int((g["f"] + "000000")[:6]) if g.get("f") else 0
    tz = None
    if g.get("z"):
        import datetime as _dt
        z = g["z"]
        if z == "Z":
            tz = _dt.timezone.utc
        else:
            sign = -1 if z[0] == "-" else 1
            body = z[1:].replace(":", "")
            tz = _dt.timezone(sign * _dt.timedelta(hours=int(body[:2]), minutes=int(body[2:4])))
    dt = cls(year, month, day, hour, minute, second, us, tz)
    if g.get("j") and not g.get("m") and not g.get("d"):
        import datetime as _dt
        dt = dt + _dt.timedelta(days=int(g["j"]) - 1)
    return dt
