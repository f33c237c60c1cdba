"""Dates and times on the virtual clock (UTC machine time zone)."""
import time as _time

MINYEAR = 1
MAXYEAR = 9999
_DAYS_IN_MONTH = [-1, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
_DAYS_BEFORE_MONTH = [-1]
_dbm = 0
for _dim in _DAYS_IN_MONTH[1:]:
    _DAYS_BEFORE_MONTH.append(_dbm)
    _dbm += _dim
_MONTHNAMES = [None, "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_DAYNAMES = [None, "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in_month(year, month):
    if month == 2 and _is_leap(year):
        return 29
    return _DAYS_IN_MONTH[month]


def _days_before_year(year):
    y = year - 1
    return y * 365 + y // 4 - y // 100 + y // 400


def _ymd2ord(year, month, day):
    return _days_before_year(year) + _DAYS_BEFORE_MONTH[month] + (month > 2 and _is_leap(year)) + day


_DI400Y = _days_before_year(401)
_DI100Y = _days_before_year(101)
_DI4Y = _days_before_year(5)


def _ord2ymd(n):
    n -= 1
    n400, n = divmod(n, _DI400Y)
    year = n400 * 400 + 1
    n100, n = divmod(n, _DI100Y)
    n4, n = divmod(n, _DI4Y)
    n1, n = divmod(n, 365)
    year += n100 * 100 + n4 * 4 + n1
    if n1 == 4 or n100 == 4:
        return year - 1, 12, 31
    leapyear = n1 == 3 and (n4 != 24 or n100 == 3)
    month = (n + 50) >> 5
    preceding = _DAYS_BEFORE_MONTH[month] + (month > 2 and leapyear)
    if preceding > n:
        month -= 1
        preceding -= _DAYS_IN_MONTH[month] + (month == 2 and leapyear)
    n -= preceding
    return year, month, n + 1


def _check_date(year, month, day):
    if not MINYEAR <= year <= MAXYEAR:
        raise ValueError(f"year {year} is out of range")
    if not 1 <= month <= 12:
        raise ValueError("month must be in 1..12")
    dim = _days_in_month(year, month)
    if not 1 <= day <= dim:
        raise ValueError(f"day {day} must be in range 1..{dim} for month {month} in year {year}")


class timedelta:
    def __init__(self, days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, hours=0, weeks=0):
        total = ((((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000000 + milliseconds * 1000 + microseconds
        total = round(total)
        d, rem = divmod(total, 86400 * 1000000)
        s, us = divmod(rem, 1000000)
        self._days, self._seconds, self._microseconds = int(d), int(s), int(us)
        if abs(self._days) > 999999999:
            raise OverflowError(f"days={self._days}; must have magnitude <= 999999999")

    days = property(lambda self: self._days)
    seconds = property(lambda self: self._seconds)
    microseconds = property(lambda self: self._microseconds)

    def total_seconds(self):
        return self._total_us() / 10 ** 6

    def _total_us(self):
        return (self._days * 86400 + self._seconds) * 10 ** 6 + self._microseconds

    def __repr__(self):
        args = []
        if self._days:
            args.append(f"days={self._days}")
        if self._seconds:
            args.append(f"seconds={self._seconds}")
        if self._microseconds:
            args.append(f"microseconds={self._microseconds}")
        return "datetime.timedelta(" + (", ".join(args) or "0") + ")"

    def __str__(self):
        mm, ss = divmod(self._seconds, 60)
        hh, mm = divmod(mm, 60)
        s = f"{hh}:{mm:02d}:{ss:02d}"
        if self._days:
            s = f"{self._days} day{'s' if abs(self._days) != 1 else ''}, " + s
        if self._microseconds:
            s += f".{self._microseconds:06d}"
        return s

    def __add__(self, other):
        if isinstance(other, timedelta):
            return timedelta(microseconds=self._total_us() + other._total_us())
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return timedelta(microseconds=self._total_us() - other._total_us())
        return NotImplemented

    def __neg__(self):
        return timedelta(microseconds=-self._total_us())

    def __pos__(self):
        return self

    def __abs__(self):
        return -self if self._days < 0 else self

    def __mul__(self, other):
        if isinstance(other, (int, float)):
            return timedelta(microseconds=round(self._total_us() * other))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, timedelta):
            return self._total_us() / other._total_us()
        return timedelta(microseconds=round(self._total_us() / other))

    def __floordiv__(self, other):
        if isinstance(other, timedelta):
            return self._total_us() // other._total_us()
        return timedelta(microseconds=self._total_us() // other)

    def __mod__(self, other):
        return timedelta(microseconds=self._total_us() % other._total_us())

    def __eq__(self, other):
        return isinstance(other, timedelta) and self._total_us() == other._total_us()

    def __lt__(self, other):
        return self._total_us() < other._total_us()

    def __le__(self, other):
        return self._total_us() <= other._total_us()

    def __gt__(self, other):
        return self._total_us() > other._total_us()

    def __ge__(self, other):
        return self._total_us() >= other._total_us()

    def __hash__(self):
        return hash(self._total_us())

    def __bool__(self):
        return self._total_us() != 0


timedelta.min = timedelta(-999999999)
timedelta.max = timedelta(days=999999999, hours=23, minutes=59, seconds=59, microseconds=999999)
timedelta.resolution = timedelta(microseconds=1)


class tzinfo:
    def utcoffset(self, dt):
        raise NotImplementedError

    def tzname(self, dt):
        raise NotImplementedError

    def dst(self, dt):
        return None


class timezone(tzinfo):
    def __init__(self, offset, name=None):
        self._offset = offset
        self._name = name

    def utcoffset(self, dt):
        return self._offset

    def tzname(self, dt):
        if self._name is not None:
            return self._name
        if not self._offset:
            return "UTC"
        return "UTC" + _fmt_offset(self._offset, ":")

    def dst(self, dt):
        return None

    def __repr__(self):
        if self is timezone.utc:
            return "datetime.timezone.utc"
        return f"datetime.timezone({self._offset!r})"

    def __str__(self):
        return self.tzname(None)

    def __eq__(self, other):
        return isinstance(other, timezone) and self._offset == other._offset

    def __hash__(self):
        return hash(self._offset)


timezone.utc = timezone(timedelta(0))
UTC = timezone.utc


def _fmt_offset(off, sep=""):
    if off is None:
        return ""
    us = off._total_us()
    sign = "+"
    if us < 0:
        sign = "-"
        us = -us
    hh, rem = divmod(us, 3600 * 10 ** 6)
    mm, rem = divmod(rem, 60 * 10 ** 6)
    ss, us = divmod(rem, 10 ** 6)
    s = f"{sign}{hh:02d}{sep}{mm:02d}"
    if ss or us:
        s += f"{sep}{ss:02d}"
        if us:
            s += f".{us:06d}"
    return s


def _strftime(fmt, dt):
    out = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            d = fmt[i + 1]
            i += 2
            if d == "f":
                out.append(f"{getattr(dt, 'microsecond', 0):06d}")
            elif d == "z":
                off = dt.utcoffset() if hasattr(dt, "utcoffset") else None
                out.append(_fmt_offset(off))
            elif d == "Z":
                tz = getattr(dt, "tzinfo", None)
                out.append(tz.tzname(dt) if tz is not None else "")
            elif d == ":" and i < len(fmt) and fmt[i] == "z":
                i += 1
                out.append(_fmt_offset(dt.utcoffset() if hasattr(dt, "utcoffset") else None, ":"))
            else:
                tt = (getattr(dt, "year", 1900), getattr(dt, "month", 1), getattr(dt, "day", 1),
                      getattr(dt, "hour", 0), getattr(dt, "minute", 0), getattr(dt, "second", 0), 0, 1, 0)
                out.append(_time.strftime("%" + d, tt))
            continue
        out.append(c)
        i += 1
    return "".join(out)


class date:
    def __init__(self, year, month=None, day=None):
        _check_date(year, month, day)
        self._year, self._month, self._day = year, month, day

    year = property(lambda self: self._year)
    month = property(lambda self: self._month)
    day = property(lambda self: self._day)

    @classmethod
    def today(cls):
        t = _time.time()
        return cls.fromtimestamp(t)

    @classmethod
    def fromtimestamp(cls, t):
        y, m, d = _ord2ymd(int(t // 86400) + _ymd2ord(1970, 1, 1))
        return cls(y, m, d)

    @classmethod
    def fromordinal(cls, n):
        return cls(*_ord2ymd(n))

    @classmethod
    def fromisoformat(cls, s):
        if not isinstance(s, str):
            raise TypeError("fromisoformat: argument must be str")
        try:
            if len(s) == 8 and s.isdigit():
                return cls(int(s[:4]), int(s[4:6]), int(s[6:8]))
            y, m, d = s[:10].split("-")
            if len(s) != 10 or len(y) != 4 or len(m) != 2 or len(d) != 2:
                raise ValueError
            return cls(int(y), int(m), int(d))
        except ValueError:
            raise ValueError(f"Invalid isoformat string: {s!r}") from None

    @classmethod
    def fromisocalendar(cls, year, week, day):
        jan4 = cls(year, 1, 4)
        start = jan4.toordinal() - (jan4.isoweekday() - 1)
        return cls.fromordinal(start + (week - 1) * 7 + day - 1)

    def toordinal(self):
        return _ymd2ord(self._year, self._month, self._day)

    def weekday(self):
        return (self.toordinal() + 6) % 7

    def isoweekday(self):
        return self.toordinal() % 7 or 7

    def isocalendar(self):
        year = self._year
        jan4 = date(year, 1, 4).toordinal()
        week1 = jan4 - (jan4 + 6) % 7
        today = self.toordinal()
        if today < week1:
            year -= 1
            jan4 = date(year, 1, 4).toordinal()
            week1 = jan4 - (jan4 + 6) % 7
        elif today >= date(year + 1, 1, 4).toordinal() - (date(year + 1, 1, 4).toordinal() + 6) % 7:
            year += 1
            jan4 = date(year, 1, 4).toordinal()
            week1 = jan4 - (jan4 + 6) % 7
        week, day = divmod(today - week1, 7)
        return (year, week + 1, day + 1)

    def isoformat(self):
        return f"{self._year:04d}-{self._month:02d}-{self._day:02d}"

    __str__ = isoformat

    def __repr__(self):
        return f"datetime.date({self._year}, {self._month}, {self._day})"

    def strftime(self, fmt):
        return _strftime(fmt, self)

    def __format__(self, fmt):
        return self.strftime(fmt) if fmt else str(self)

    def ctime(self):
        return f"{_DAYNAMES[self.isoweekday()]} {_MONTHNAMES[self._month]} {self._day:2d} 00:00:00 {self._year:04d}"

    def timetuple(self):
        return _time.struct_time((self._year, self._month, self._day, 0, 0, 0, self.weekday(), self.toordinal() - date(self._year, 1, 1).toordinal() + 1, -1)) if hasattr(_time, "struct_time") else (self._year, self._month, self._day, 0, 0, 0, self.weekday(), 0, -1)

    def replace(self, year=None, month=None, day=None):
        return type(self)(year or self._year, month or self._month, day or self._day)

    def _cmpkey(self):
        return (self._year, self._month, self._day)

    def __eq__(self, other):
        if isinstance(other, datetime) != isinstance(self, datetime):
            return False if isinstance(other, date) else NotImplemented
        if isinstance(other, date):
            return self._cmpkey() == other._cmpkey()
        return NotImplemented

    def __lt__(self, other):
        return self._cmpkey() < other._cmpkey()

    def __le__(self, other):
        return self._cmpkey() <= other._cmpkey()

    def __gt__(self, other):
        return self._cmpkey() > other._cmpkey()

    def __ge__(self, other):
        return self._cmpkey() >= other._cmpkey()

    def __hash__(self):
        return hash(self._cmpkey())

    def __add__(self, other):
        if isinstance(other, timedelta):
            return type(self).fromordinal(self.toordinal() + other.days)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return type(self).fromordinal(self.toordinal() - other.days)
        if isinstance(other, date):
            return timedelta(days=self.toordinal() - other.toordinal())
        return NotImplemented


date.min = date(1, 1, 1)
date.max = date(9999, 12, 31)
date.resolution = timedelta(days=1)


class time:
    def __init__(self, hour=0, minute=0, second=0, microsecond=0, tzinfo=None, *, fold=0):
        if not 0 <= hour <= 23:
            raise ValueError("hour must be in 0..23")
        if not 0 <= minute <= 59:
            raise ValueError("minute must be in 0..59")
        if not 0 <= second <= 59:
            raise ValueError("second must be in 0..59")
        self._hour, self._minute, self._second, self._microsecond, self._tzinfo = hour, minute, second, microsecond, tzinfo

    hour = property(lambda self: self._hour)
    minute = property(lambda self: self._minute)
    second = property(lambda self: self._second)
    microsecond = property(lambda self: self._microsecond)
    tzinfo = property(lambda self: self._tzinfo)

    def utcoffset(self):
        return self._tzinfo.utcoffset(None) if self._tzinfo else None

    def isoformat(self, timespec="auto"):
        s = f"{self._hour:02d}:{self._minute:02d}:{self._second:02d}"
        if self._microsecond and timespec == "auto" or timespec == "microseconds":
            s += f".{self._microsecond:06d}"
        elif timespec == "milliseconds":
            s += f".{self._microsecond // 1000:03d}"
        elif timespec == "minutes":
            s = s[:5]
        elif timespec == "hours":
            s = s[:2]
        if self._tzinfo is not None:
            s += _fmt_offset(self.utcoffset(), ":")
        return s

    __str__ = isoformat

    def __repr__(self):
        args = f"{self._hour}, {self._minute}"
        if self._second or self._microsecond:
            args += f", {self._second}"
        if self._microsecond:
            args += f", {self._microsecond}"
        return f"datetime.time({args})"

    def strftime(self, fmt):
        return _strftime(fmt, self)

    def __format__(self, fmt):
        return self.strftime(fmt) if fmt else str(self)

    @classmethod
    def fromisoformat(cls, s):
        parts = s.split(":")
        h = int(parts[0])
        m = int(parts[1]) if len(parts) > 1 else 0
        sec, us = 0, 0
        if len(parts) > 2:
            sp = parts[2].split(".")
            sec = int(sp[0])
            if len(sp) > 1:
                us = int((sp[1] + "000000")[:6])
        return cls(h, m, sec, us)

    def replace(self, hour=None, minute=None, second=None, microsecond=None, tzinfo=True):
        return time(self._hour if hour is None else hour, self._minute if minute is None else minute,
                    self._second if second is None else second, self._microsecond if microsecond is None else microsecond,
                    self._tzinfo if tzinfo is True else tzinfo)

    def _key(self):
        return (self._hour, self._minute, self._second, self._microsecond)

    def __eq__(self, o):
        return isinstance(o, time) and self._key() == o._key()

    def __lt__(self, o):
        return self._key() < o._key()

    def __le__(self, o):
        return self._key() <= o._key()

    def __gt__(self, o):
        return self._key() > o._key()

    def __ge__(self, o):
        return self._key() >= o._key()

    def __hash__(self):
        return hash(self._key())


time.min = time(0, 0, 0)
time.max = time(23, 59, 59, 999999)


class datetime(date):
    def __init__(self, year, month=None, day=None, hour=0, minute=0, second=0, microsecond=0, tzinfo=None, *, fold=0):
        date.__init__(self, year, month, day)
        if not 0 <= hour <= 23:
            raise ValueError("hour must be in 0..23")
        if not 0 <= minute <= 59:
            raise ValueError("minute must be in 0..59")
        if not 0 <= second <= 59:
            raise ValueError("second must be in 0..59")
        if not 0 <= microsecond <= 999999:
            raise ValueError("microsecond must be in 0..999999")
        self._hour, self._minute, self._second, self._microsecond, self._tzinfo = hour, minute, second, microsecond, tzinfo

    hour = property(lambda self: self._hour)
    minute = property(lambda self: self._minute)
    second = property(lambda self: self._second)
    microsecond = property(lambda self: self._microsecond)
    tzinfo = property(lambda self: self._tzinfo)

    @classmethod
    def fromtimestamp(cls, t, tz=None):
        us = round(t * 1000000)
        days, rem = divmod(us, 86400 * 1000000)
        y, m, d = _ord2ymd(days + _ymd2ord(1970, 1, 1))
        s, us = divmod(rem, 1000000)
        hh, s = divmod(s, 3600)
        mm, ss = divmod(s, 60)
        dt = cls(y, m, d, hh, mm, ss, us, timezone.utc if tz is not None else None)
        if tz is not None and tz is not timezone.utc:
            return dt.astimezone(tz)
        return dt

    @classmethod
    def utcfromtimestamp(cls, t):
        return cls.fromtimestamp(t)

    @classmethod
    def now(cls, tz=None):
        return cls.fromtimestamp(_time.time(), tz)

    @classmethod
    def today(cls):
        return cls.now()

    @classmethod
    def utcnow(cls):
        return cls.now()

    @classmethod
    def combine(cls, d, t, tzinfo=True):
        return cls(d.year, d.month, d.day, t.hour, t.minute, t.second, t.microsecond, t.tzinfo if tzinfo is True else tzinfo)

    @classmethod
    def fromisoformat(cls, s):
        if not isinstance(s, str):
            raise TypeError("fromisoformat: argument must be str")
        try:
            ds = s[:10]
            d = date.fromisoformat(ds)
            rest = s[10:]
            hh = mm = ss = us = 0
            tz = None
            if rest:
                if rest[0] not in "T ":
                    raise ValueError
                rest = rest[1:]
                tzpart = None
                for sep in ("+", "-", "Z"):
                    k = rest.find(sep)
                    if k > 0:
                        tzpart = rest[k:]
                        rest = rest[:k]
                        break
                t = time.fromisoformat(rest)
                hh, mm, ss, us = t.hour, t.minute, t.second, t.microsecond
                if tzpart:
                    if tzpart == "Z":
                        tz = timezone.utc
                    else:
                        sign = -1 if tzpart[0] == "-" else 1
                        body = tzpart[1:].replace(":", "")
                        off = timedelta(hours=int(body[:2]), minutes=int(body[2:4] or 0))
                        tz = timezone(sign * off)
            return cls(d.year, d.month, d.day, hh, mm, ss, us, tz)
        except (ValueError, IndexError):
            raise ValueError(f"Invalid isoformat string: {s!r}") from None

    @classmethod
    def strptime(cls, s, fmt):
        import _strptime
        return _strptime.parse(cls, s, fmt)

    def date(self):
        return date(self._year, self._month, self._day)

    def time(self):
        return time(self._hour, self._minute, self._second, self._microsecond)

    def timetz(self):
        return time(self._hour, self._minute, self._second, self._microsecond, self._tzinfo)

    def utcoffset(self):
        return self._tzinfo.utcoffset(self) if self._tzinfo is not None else None

    def tzname(self):
        return self._tzinfo.tzname(self) if self._tzinfo is not None else None

    def timestamp(self):
        off = self.utcoffset() or timedelta(0)
        days = self.toordinal() - _ymd2ord(1970, 1, 1)
        return days * 86400 + self._hour * 3600 + self._minute * 60 + self._second + self._microsecond / 1e6 - off.total_seconds()

    def astimezone(self, tz=None):
        if tz is None:
            tz = timezone.utc
        ts = self.timestamp()
        off = tz.utcoffset(self) or timedelta(0)
        base = datetime.fromtimestamp(ts + off.total_seconds())
        return base.replace(tzinfo=tz)

    def replace(self, year=None, month=None, day=None, hour=None, minute=None, second=None, microsecond=None, tzinfo=True):
        return type(self)(self._year if year is None else year, self._month if month is None else month,
                          self._day if day is None else day, self._hour if hour is None else hour,
                          self._minute if minute is None else minute, self._second if second is None else second,
                          self._microsecond if microsecond is None else microsecond,
                          self._tzinfo if tzinfo is True else tzinfo)

    def isoformat(self, sep="T", timespec="auto"):
        s = date.isoformat(self) + sep + time(self._hour, self._minute, self._second, self._microsecond).isoformat(timespec)
        if self._tzinfo is not None:
            s += _fmt_offset(self.utcoffset(), ":")
        return s

    def __str__(self):
        return self.isoformat(" ")

    def __repr__(self):
        args = f"{self._year}, {self._month}, {self._day}, {self._hour}, {self._minute}"
        if self._second or self._microsecond:
            args += f", {self._second}"
        if self._microsecond:
            args += f", {self._microsecond}"
        if self._tzinfo is not None:
            args += f", tzinfo={self._tzinfo!r}"
        return f"datetime.datetime({args})"

    def ctime(self):
        return f"{_DAYNAMES[self.isoweekday()]} {_MONTHNAMES[self._month]} {self._day:2d} {self._hour:02d}:{self._minute:02d}:{self._second:02d} {self._year:04d}"

    def _us(self):
        off = self.utcoffset()
        base = ((self.toordinal() * 86400 + self._hour * 3600 + self._minute * 60 + self._second) * 10 ** 6 + self._microsecond)
        if off is not None:
            base -= off._total_us()
        return base

    def _cmpkey(self):
        return self._us()

    def __eq__(self, other):
        if isinstance(other, datetime):
            if (self._tzinfo is None) != (other._tzinfo is None):
                return False
            return self._us() == other._us()
        return False if isinstance(other, date) else NotImplemented

    def _check_cmp(self, other):
        if not isinstance(other, datetime):
            raise TypeError(f"can't compare datetime.datetime to {type(other).__name__}")
        if (self._tzinfo is None) != (other._tzinfo is None):
            raise TypeError("can't compare offset-naive and offset-aware datetimes")

    def __lt__(self, other):
        self._check_cmp(other)
        return self._us() < other._us()

    def __le__(self, other):
        self._check_cmp(other)
        return self._us() <= other._us()

    def __gt__(self, other):
        self._check_cmp(other)
        return self._us() > other._us()

    def __ge__(self, other):
        self._check_cmp(other)
        return self._us() >= other._us()

    def __hash__(self):
        return hash(self._us())

    def __add__(self, other):
        if isinstance(other, timedelta):
            us = ((self.toordinal() * 86400 + self._hour * 3600 + self._minute * 60 + self._second) * 10 ** 6 + self._microsecond) + other._total_us()
            days, rem = divmod(us, 86400 * 10 ** 6)
            y, m, d = _ord2ymd(days)
            s, usec = divmod(rem, 10 ** 6)
            hh, s = divmod(s, 3600)
            mm, ss = divmod(s, 60)
            return type(self)(y, m, d, hh, mm, ss, usec, self._tzinfo)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return self + (-other)
        if isinstance(other, datetime):
            if (self._tzinfo is None) != (other._tzinfo is None):
                raise TypeError("can't subtract offset-naive and offset-aware datetimes")
            return timedelta(microseconds=self._us() - other._us())
        return NotImplemented


datetime.min = datetime(1, 1, 1)
datetime.max = datetime(9999, 12, 31, 23, 59, 59, 999999)
