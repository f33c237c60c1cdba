"""INI file parsing (the common subset of configparser)."""


class Error(Exception):
    pass


class NoSectionError(Error):
    def __init__(self, section):
        super().__init__(f"No section: {section!r}")
        self.section = section


class NoOptionError(Error):
    def __init__(self, option, section):
        super().__init__(f"No option {option!r} in section: {section!r}")
        self.option = option
        self.section = section


class DuplicateSectionError(Error):
    pass


_UNSET = object()


class SectionProxy:
    def __init__(self, parser, name):
        self._parser = parser
        self.name = name

    def __getitem__(self, key):
        return self._parser.get(self.name, key)

    def __setitem__(self, key, value):
        self._parser.set(self.name, key, value)

    def __contains__(self, key):
        return self._parser.has_option(self.name, key)

    def get(self, key, fallback=None):
        return self._parser.get(self.name, key, fallback=fallback)

    def getint(self, key, fallback=_UNSET):
        return self._parser.getint(self.name, key, fallback=fallback)

    def getboolean(self, key, fallback=_UNSET):
        return self._parser.getboolean(self.name, key, fallback=fallback)

    def getfloat(self, key, fallback=_UNSET):
        return self._parser.getfloat(self.name, key, fallback=fallback)

    def keys(self):
        return self._parser.options(self.name)

    def items(self):
        return [(k, self[k]) for k in self.keys()]

    def __iter__(self):
        return iter(self.keys())


class ConfigParser:
    BOOLEAN_STATES = {"1": True, "yes": True, "true": True, "on": True, "0": False, "no": False, "false": False, "off": False}

    def __init__(self, defaults=None, interpolation=None, **kw):
        self._sections = {}
        self._defaults = dict(defaults or {})

    def optionxform(self, s):
        return s.lower()

    def read_string(self, text, source="<string>"):
        section = None
        last = None
        for raw in text.splitlines():
            line = raw.rstrip()
            stripped = line.strip()
            if not stripped or stripped[0] in "#;":
                continue
            if line[0] in " \t" and last is not None and section is not None:
                self._sections[section][last] += "\n" + stripped
                continue
            if stripped.startswith("[") and stripped.endswith("]"):
                section = stripped[1:-1]
                if section == "DEFAULT":
                    section = None
                    last = None
                    self._sect_default = True
                    continue
                self._sections.setdefault(section, {})
                last = None
                continue
            sep = min([i for i in (stripped.find("="), stripped.find(":")) if i >= 0], default=-1)
            if sep < 0:
                raise Error(f"Source contains parsing errors: {source!r}")
            key = self.optionxform(stripped[:sep].strip())
            value = stripped[sep + 1:].strip()
            if section is None:
                self._defaults[key] = value
            else:
                self._sections[section][key] = value
            last = key

    def read(self, filenames, encoding=None):
        if isinstance(filenames, str):
            filenames = [filenames]
        ok = []
        for f in filenames:
            try:
                with open(f) as fh:
                    self.read_string(fh.read(), f)
                ok.append(f)
            except OSError:
                pass
        return ok

    def read_file(self, f, source=None):
        self.read_string(f.read())

    def read_dict(self, d):
        for s, kv in d.items():
            self._sections.setdefault(s, {})
            for k, v in kv.items():
                self._sections[s][self.optionxform(k)] = str(v)

    def sections(self):
        return list(self._sections)

    def has_section(self, s):
        return s in self._sections

    def add_section(self, s):
        if s in self._sections:
            raise DuplicateSectionError(f"Section {s!r} already exists")
        self._sections[s] = {}

    def has_option(self, s, o):
        return s in self._sections and (self.optionxform(o) in self._sections[s] or self.optionxform(o) in self._defaults)

    def options(self, s):
        if s not in self._sections:
            raise NoSectionError(s)
        return list(self._sections[s]) + [k for k in self._defaults if k not in self._sections[s]]

    def get(self, section, option, *, raw=False, vars=None, fallback=_UNSET):
        o = self.optionxform(option)
        if section not in self._sections:
            if fallback is not _UNSET:
                return fallback
            raise NoSectionError(section)
        if o in self._sections[section]:
            return self._sections[section][o]
        if o in self._defaults:
            return self._defaults[o]
        if fallback is not _UNSET:
            return fallback
        raise NoOptionError(option, section)

    def getint(self, s, o, *, fallback=_UNSET):
        v = self.get(s, o, fallback=fallback)
        return v if v is fallback else int(v)

    def getfloat(self, s, o, *, fallback=_UNSET):
        v = self.get(s, o, fallback=fallback)
        return v if v is fallback else float(v)

    def getboolean(self, s, o, *, fallback=_UNSET):
        v = self.get(s, o, fallback=fallback)
        if v is fallback:
            return v
        if v.lower() not in self.BOOLEAN_STATES:
            raise ValueError(f"Not a boolean: {v}")
        return self.BOOLEAN_STATES[v.lower()]

    def set(self, s, o, v):
        if s not in self._sections:
            raise NoSectionError(s)
        self._sections[s][self.optionxform(o)] = v

    def remove_option(self, s, o):
        return self._sections[s].pop(self.optionxform(o), None) is not None

    def remove_section(self, s):
        return self._sections.pop(s, None) is not None

    def items(self, section=None):
        if section is None:
            return [(s, SectionProxy(self, s)) for s in self._sections]
        return [(k, self.get(section, k)) for k in self.options(section)]

    def __getitem__(self, s):
        if s != "DEFAULT" and s not in self._sections:
            raise KeyError(s)
        return SectionProxy(self, s)

    def __contains__(self, s):
        return s in self._sections

    def __iter__(self):
        return iter(["DEFAULT"] + list(self._sections))

    def write(self, f, space_around_delimiters=True):
        d = " = " if space_around_delimiters else "="
        if self._defaults:
            f.write("[DEFAULT]\n")
            for k, v in self._defaults.items():
                f.write(f"{k}{d}{v}\n")
            f.write("\n")
        for s, kv in self._sections.items():
            f.write(f"[{s}]\n")
            for k, v in kv.items():
                f.write(f"{k}{d}{v}\n")
            f.write("\n")


RawConfigParser = ConfigParser
SafeConfigParser = ConfigParser
