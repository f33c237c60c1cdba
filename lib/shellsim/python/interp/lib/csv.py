"""CSV reading and writing (the dialect options agents use)."""
import io as _io

QUOTE_MINIMAL, QUOTE_ALL, QUOTE_NONNUMERIC, QUOTE_NONE = 0, 1, 2, 3


class Error(Exception):
    pass


class Dialect:
    delimiter = ","
    quotechar = '"'
    escapechar = None
    doublequote = True
    skipinitialspace = False
    lineterminator = "\r\n"
    quoting = QUOTE_MINIMAL
    strict = False


class excel(Dialect):
    pass


class excel_tab(excel):
    delimiter = "\t"


class unix_dialect(Dialect):
    lineterminator = "\n"
    quoting = QUOTE_ALL


_dialects = {"excel": excel, "excel-tab": excel_tab, "unix": unix_dialect}


def register_dialect(name, dialect=None, **kw):
    _dialects[name] = dialect or type(name, (Dialect,), kw)


def get_dialect(name):
    return _dialects[name]


def list_dialects():
    return list(_dialects)


class _Opts:
    def __init__(self, dialect, kw):
        if isinstance(dialect, str):
            dialect = _dialects[dialect]
        for k in ("delimiter", "quotechar", "escapechar", "doublequote", "skipinitialspace", "lineterminator", "quoting", "strict"):
            setattr(self, k, kw.get(k, getattr(dialect, k)))


def _parse_line_stream(lines, o):
    field = []
    row = []
    state = 0  # 0 start, 1 in field, 2 in quoted, 3 quote in quoted
    it = iter(lines)
    line_num = 0
    for line in it:
        line_num += 1
        i = 0
        n = len(line)
        while i < n:
            c = line[i]
            if state == 0:
                if c == o.quotechar and o.quoting != QUOTE_NONE:
                    state = 2
                elif c == o.delimiter:
                    row.append("")
                elif c in "\r\n":
                    if c == "\r" and i + 1 < n and line[i + 1] == "\n":
                        i += 1
                    row.append("".join(field)) if field or row else None
                    yield row
                    row, field = [], []
                elif c == " " and o.skipinitialspace:
                    pass
                elif c == o.escapechar:
                    i += 1
                    field.append(line[i] if i < n else "")
                    state = 1
                else:
                    field.append(c)
                    state = 1
            elif state == 1:
                if c == o.delimiter:
                    row.append("".join(field))
                    field = []
                    state = 0
                elif c in "\r\n":
                    if c == "\r" and i + 1 < n and line[i + 1] == "\n":
                        i += 1
                    row.append("".join(field))
                    yield row
                    row, field = [], []
                    state = 0
                elif c == o.escapechar:
                    i += 1
                    field.append(line[i] if i < n else "")
                else:
                    field.append(c)
            elif state == 2:
                if c == o.quotechar:
                    state = 3
                elif c == o.escapechar:
                    i += 1
                    field.append(line[i] if i < n else "")
                else:
                    field.append(c)
            elif state == 3:
                if c == o.quotechar and o.doublequote:
                    field.append(c)
                    state = 2
                elif c == o.delimiter:
                    row.append("".join(field))
                    field = []
                    state = 0
                elif c in "\r\n":
                    if c == "\r" and i + 1 < n and line[i + 1] == "\n":
                        i += 1
                    row.append("".join(field))
                    yield row
                    row, field = [], []
                    state = 0
                else:
                    if o.strict:
                        raise Error(f"'{o.delimiter}' expected after '{o.quotechar}'")
                    field.append(c)
                    state = 1
            i += 1
        if state == 2:
            continue
    if state == 2 and o.strict:
        raise Error("unexpected end of data")
    if field or row or state in (2, 3):
        row.append("".join(field))
        yield row


class reader:
    def __init__(self, f, dialect="excel", **kw):
        self._o = _Opts(dialect, kw)
        self._gen = _parse_line_stream(f, self._o)
        self.line_num = 0
        self.dialect = self._o

    def __iter__(self):
        return self

    def __next__(self):
        row = next(self._gen)
        self.line_num += 1
        if self._o.quoting == QUOTE_NONNUMERIC:
            row = [float(x) if x and _isnum(x) else x for x in row]
        return row


def _isnum(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


class writer:
    def __init__(self, f, dialect="excel", **kw):
        self._f = f
        self._o = _Opts(dialect, kw)
        self.dialect = self._o

    def _field(self, v):
        o = self._o
        if v is None:
            s = ""
        elif isinstance(v, float):
            s = repr(v)
        else:
            s = str(v)
        if o.quoting == QUOTE_ALL or (o.quoting == QUOTE_NONNUMERIC and not isinstance(v, (int, float))):
            return o.quotechar + s.replace(o.quotechar, o.quotechar * 2) + o.quotechar
        if o.quoting == QUOTE_NONE:
            if o.escapechar:
                for ch in (o.delimiter, o.quotechar, "\n", "\r"):
                    s = s.replace(ch, o.escapechar + ch)
            return s
        if s and (o.delimiter in s or o.quotechar in s or "\n" in s or "\r" in s or s[0] == " " and False) or (s == "" and False):
            return o.quotechar + s.replace(o.quotechar, o.quotechar * 2) + o.quotechar
        return s

    def writerow(self, row):
        row = list(row)
        if len(row) == 1 and (row[0] is None or row[0] == ""):
            line = self._o.quotechar * 2 + self._o.lineterminator
        else:
            line = self._o.delimiter.join(self._field(v) for v in row) + self._o.lineterminator
        self._f.write(line)
        return len(line)

    def writerows(self, rows):
        for r in rows:
            self.writerow(r)


class DictReader:
    def __init__(self, f, fieldnames=None, restkey=None, restval=None, dialect="excel", **kw):
        self.reader = reader(f, dialect, **kw)
        self._fieldnames = fieldnames
        self.restkey = restkey
        self.restval = restval
        self.line_num = 0

    @property
    def fieldnames(self):
        if self._fieldnames is None:
            try:
                self._fieldnames = next(self.reader)
            except StopIteration:
                pass
        return self._fieldnames

    def __iter__(self):
        return self

    def __next__(self):
        if self.line_num == 0:
            self.fieldnames
        row = next(self.reader)
        while row == []:
            row = next(self.reader)
        self.line_num = self.reader.line_num
        d = dict(zip(self.fieldnames, row))
        lf, lr = len(self.fieldnames), len(row)
        if lf < lr:
            d[self.restkey] = row[lf:]
        elif lf > lr:
            for key in self.fieldnames[lr:]:
                d[key] = self.restval
        return d


class DictWriter:
    def __init__(self, f, fieldnames, restval="", extrasaction="raise", dialect="excel", **kw):
        self.fieldnames = list(fieldnames)
        self.restval = restval
        self.extrasaction = extrasaction
        self.writer = writer(f, dialect, **kw)

    def writeheader(self):
        return self.writer.writerow(self.fieldnames)

    def writerow(self, rowdict):
        if self.extrasaction == "raise":
            wrong = [k for k in rowdict if k not in self.fieldnames]
            if wrong:
                raise ValueError("dict contains fields not in fieldnames: " + ", ".join(repr(x) for x in wrong))
        return self.writer.writerow([rowdict.get(k, self.restval) for k in self.fieldnames])

    def writerows(self, rows):
        for r in rows:
            self.writerow(r)


class Sniffer:
    def sniff(self, sample, delimiters=None):
        counts = {d: sample.count(d) for d in (delimiters or ",\t;|")}
        best = max(counts, key=counts.get)
        return type("sniffed", (excel,), {"delimiter": best})

    def has_header(self, sample):
        return True


field_size_limit = lambda *a: 131072
