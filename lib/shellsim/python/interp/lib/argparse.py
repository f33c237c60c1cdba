"""Command-line parsing (the common subset of argparse, with CPython's
error messages and exit status 2)."""
import sys as _sys
import os as _os

SUPPRESS = "==SUPPRESS=="
OPTIONAL = "?"
ZERO_OR_MORE = "*"
ONE_OR_MORE = "+"
REMAINDER = "..."


class Namespace:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def __repr__(self):
        return "Namespace(" + ", ".join(f"{k}={v!r}" for k, v in vars(self).items()) + ")"

    def __eq__(self, other):
        return isinstance(other, Namespace) and vars(self) == vars(other)

    def __contains__(self, key):
        return key in self.__dict__


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = _arg_name(argument) if argument is not None else None
        self.message = message

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return f"argument {self.argument_name}: {self.message}"


class ArgumentTypeError(Exception):
    pass


def _arg_name(a):
    if a is None:
        return None
    if a.option_strings:
        return "/".join(a.option_strings)
    if a.metavar not in (None, SUPPRESS):
        return a.metavar
    return a.dest


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        self.prog = prog


RawDescriptionHelpFormatter = HelpFormatter
RawTextHelpFormatter = HelpFormatter
ArgumentDefaultsHelpFormatter = HelpFormatter
MetavarTypeHelpFormatter = HelpFormatter


class FileType:
    def __init__(self, mode="r", bufsize=-1, encoding=None, errors=None):
        self.mode = mode

    def __call__(self, string):
        if string == "-":
            return _sys.stdin if "r" in self.mode else _sys.stdout
        try:
            return open(string, self.mode)
        except OSError as e:
            raise ArgumentTypeError(f"can't open '{string}': {e}")


class Action:
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None, choices=None,
                 required=False, help=None, metavar=None, action="store", version=None):
        self.option_strings = option_strings
        self.dest = dest
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar
        self.action = action
        self.version = version
        self.container = None

    def __repr__(self):
        return f"_StoreAction(option_strings={self.option_strings!r}, dest={self.dest!r})"


class _Group:
    def __init__(self, parser, title=None, description=None, exclusive=False, required=False):
        self._parser = parser
        self.title = title
        self.description = description
        self.exclusive = exclusive
        self.required = required
        self._actions = []

    def add_argument(self, *args, **kwargs):
        a = self._parser.add_argument(*args, **kwargs)
        self._actions.append(a)
        if self.exclusive:
            self._parser._exclusive[id(a)] = self
        else:
            self._parser._groups_of[id(a)] = self
        return a

    def add_mutually_exclusive_group(self, required=False):
        return self._parser.add_mutually_exclusive_group(required=required)

    def add_argument_group(self, *a, **k):
        return self._parser.add_argument_group(*a, **k)


class _SubParsers:
    def __init__(self, parser, dest, required, title, help, metavar):
        self._parser = parser
        self.dest = dest
        self.required = required
        self.title = title
        self.help = help
        self.metavar = metavar
        self.choices = {}
        self._helps = {}

    def add_parser(self, name, aliases=(), help=None, **kwargs):
        kwargs.setdefault("prog", f"{self._parser.prog} {name}")
        p = ArgumentParser(**kwargs)
        self.choices[name] = p
        for a in aliases:
            self.choices[a] = p
        self._helps[name] = help
        return p


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=(), formatter_class=HelpFormatter,
                 prefix_chars="-", fromfile_prefix_chars=None, argument_default=None, conflict_handler="error",
                 add_help=True, allow_abbrev=True, exit_on_error=True):
        if prog is None:
            prog = _os.path.basename(_sys.argv[0]) if _sys.argv and _sys.argv[0] else "python"
            if prog == "-c":
                prog = "python3 -c" if False else "-c"
        self.prog = prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.add_help = add_help
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self.argument_default = argument_default
        self._actions = []
        self._defaults = {}
        self._exclusive = {}
        self._groups_of = {}
        self._mutex_groups = []
        self._groups = []
        self._subparsers = None
        if add_help:
            self.add_argument("-h", "--help", action="help", default=SUPPRESS, help="show this help message and exit")
        for p in parents:
            for a in p._actions:
                if a.action != "help":
                    self._actions.append(a)
            self._defaults.update(p._defaults)

    def add_argument(self, *args, **kwargs):
        action = kwargs.pop("action", "store")
        if not args or (len(args) == 1 and args[0] and args[0][0] not in "-"):
            if "dest" in kwargs:
                raise ValueError("dest supplied twice for positional argument")
            dest = args[0] if args else kwargs.get("dest")
            opts = []
            nargs = kwargs.get("nargs")
            if kwargs.get("required") is not None:
                raise TypeError("'required' is an invalid argument for positionals")
            required = nargs not in ("?", "*", REMAINDER)
        else:
            opts = list(args)
            long = [o for o in opts if o.startswith("--")]
            dest = kwargs.get("dest") or (long[0] if long else opts[0]).lstrip("-").replace("-", "_")
            required = kwargs.get("required", False)
        kwargs.pop("dest", None)
        kwargs.pop("required", None)
        for o in opts:
            for other in self._actions:
                if o in other.option_strings:
                    raise ArgumentError(None, f"argument {'/'.join(opts)}: conflicting option string: {o}")
        default = kwargs.pop("default", self.argument_default)
        if action == "store_true":
            default = False if default is None else default
            kwargs["nargs"] = 0
            kwargs["const"] = True
        elif action == "store_false":
            default = True if default is None else default
            kwargs["nargs"] = 0
            kwargs["const"] = False
        elif action in ("store_const", "append_const"):
            kwargs["nargs"] = 0
        elif action in ("count", "help", "version"):
            kwargs["nargs"] = 0
        elif action == "extend" and "nargs" not in kwargs:
            kwargs["nargs"] = "+"
        elif action == "BooleanOptionalAction" or action is BooleanOptionalAction:
            action = "boolopt"
            kwargs["nargs"] = 0
            opts = opts + ["--no-" + o[2:] for o in opts if o.startswith("--")]
        elif isinstance(action, type):
            action = "store"
        a = Action(opts, dest, default=default, required=required, action=action, **kwargs)
        if a.type is not None and not callable(a.type):
            raise ValueError(f"{a.type!r} is not callable")
        self._actions.append(a)
        return a

    def add_argument_group(self, title=None, description=None, **kw):
        g = _Group(self, title, description)
        self._groups.append(g)
        return g

    def add_mutually_exclusive_group(self, required=False):
        g = _Group(self, exclusive=True, required=required)
        self._mutex_groups.append(g)
        return g

    def add_subparsers(self, title=None, description=None, dest=None, required=False, help=None, metavar=None, **kw):
        if self._subparsers is not None:
            self.error("cannot have multiple subparser arguments")
        self._subparsers = _SubParsers(self, dest, required, title, help, metavar)
        return self._subparsers

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)
        for a in self._actions:
            if a.dest in kwargs:
                a.default = kwargs[a.dest]

    def get_default(self, dest):
        for a in self._actions:
            if a.dest == dest and a.default is not None:
                return a.default
        return self._defaults.get(dest)

    # ---- help
    def _metavar(self, a):
        if a.metavar is not None:
            return a.metavar if isinstance(a.metavar, str) else " ".join(a.metavar)
        if a.choices is not None:
            return "{" + ",".join(map(str, a.choices)) + "}"
        if a.option_strings:
            return a.dest.upper()
        return a.dest

    def _format_args(self, a):
        mv = self._metavar(a)
        n = a.nargs
        if n is None:
            return mv
        if n == "?":
            return f"[{mv}]"
        if n == "*":
            return f"[{mv} ...]"
        if n == "+":
            return f"{mv} [{mv} ...]"
        if n == REMAINDER:
            return "..."
        if isinstance(n, int):
            return " ".join([mv] * n)
        return mv

    def format_usage(self):
        if self.usage is not None:
            return f"usage: {self.usage % {'prog': self.prog}}\n"
        parts = []
        done = set()
        for g in self._mutex_groups:
            items = []
            for a in g._actions:
                done.add(id(a))
                s = a.option_strings[0]
                if a.nargs != 0:
                    s += " " + self._format_args(a)
                items.append(s)
            if items:
                parts.append(("(" if g.required else "[") + " | ".join(items) + (")" if g.required else "]"))
        opt_parts = []
        for a in self._actions:
            if not a.option_strings or id(a) in done or a.help == SUPPRESS:
                continue
            s = a.option_strings[0]
            if a.nargs != 0:
                s += " " + self._format_args(a)
            opt_parts.append(s if a.required else f"[{s}]")
        pos = [self._format_args(a) for a in self._actions if not a.option_strings and a.help != SUPPRESS]
        if self._subparsers is not None:
            sp = self._subparsers
            pos.append(sp.metavar or "{" + ",".join(sp.choices) + "}")
            pos.append("...")
        text = " ".join([self.prog] + opt_parts + parts + pos)
        return f"usage: {text}\n"

    def format_help(self):
        out = [self.format_usage()]
        if self.description:
            out.append("\n" + self.description + "\n")
        pos = [a for a in self._actions if not a.option_strings and a.help != SUPPRESS]
        opts = [a for a in self._actions if a.option_strings and a.help != SUPPRESS and id(a) not in self._groups_of]
        sections = []
        rows = []
        for a in pos:
            rows.append((self._metavar(a), a))
        if self._subparsers is not None:
            sp = self._subparsers
            rows.append((sp.metavar or "{" + ",".join(sp.choices) + "}", Action([], "", help=sp.help)))
        if rows:
            sections.append(("positional arguments", rows))
        if opts:
            sections.append(("options", [(self._opt_invocation(a), a) for a in opts]))
        for g in self._groups:
            sections.append((g.title, [(self._opt_invocation(a) if a.option_strings else self._metavar(a), a) for a in g._actions]))
        width = max([len(inv) + 2 for _, rws in sections for inv, _ in rws] + [0])
        help_pos = min(width + 2, 24)
        for title, rws in sections:
            out.append(f"\n{title}:\n")
            for inv, a in rws:
                out.append(self._help_line(inv, a, help_pos))
        if self.epilog:
            out.append("\n" + self.epilog + "\n")
        return "".join(out)

    def _opt_invocation(self, a):
        if a.nargs == 0:
            return ", ".join(a.option_strings)
        return ", ".join(a.option_strings) + " " + self._format_args(a)

    def _help_line(self, inv, a, help_pos=24):
        h = a.help
        if h is not None and ("%(default)" in h or "%(prog)" in h):
            h = h % {"default": a.default, "prog": self.prog, "dest": a.dest, "choices": a.choices}
        if not h:
            return f"  {inv}\n"
        action_width = help_pos - 2 - 2
        if len(inv) <= action_width:
            return "  " + inv.ljust(action_width) + "  " + h + "\n"
        return f"  {inv}\n{' ' * help_pos}{h}\n"

    def print_usage(self, file=None):
        (file or _sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or _sys.stdout).write(self.format_help())

    def exit(self, status=0, message=None):
        if message:
            _sys.stderr.write(message)
        _sys.exit(status)

    def error(self, message):
        if not self.exit_on_error:
            raise ArgumentError(None, message)
        _sys.stderr.write(self.format_usage())
        self.exit(2, f"{self.prog}: error: {message}\n")

    # ---- parsing
    def parse_args(self, args=None, namespace=None):
        args, argv = self.parse_known_args(args, namespace)
        if argv:
            self.error("unrecognized arguments: " + " ".join(argv))
        return args

    def parse_intermixed_args(self, args=None, namespace=None):
        return self.parse_args(args, namespace)

    def _convert(self, a, s):
        if a.type is None:
            v = s
        else:
            try:
                v = a.type(s)
            except ArgumentTypeError as e:
                self.error(f"argument {_arg_name(a)}: {e}")
            except (TypeError, ValueError):
                tname = getattr(a.type, "__name__", repr(a.type))
                self.error(f"argument {_arg_name(a)}: invalid {tname} value: {s!r}")
        if a.choices is not None and v not in a.choices:
            choices = ", ".join(repr(c) for c in a.choices)
            self.error(f"argument {_arg_name(a)}: invalid choice: {v!r} (choose from {choices})")
        return v

    def _find_option(self, s):
        for a in self._actions:
            if s in a.option_strings:
                return a, s
        if self.allow_abbrev and s.startswith("--"):
            matches = [(a, o) for a in self._actions for o in a.option_strings if o.startswith(s)]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                self.error(f"ambiguous option: {s} could match {', '.join(o for _, o in matches)}")
        return None, None

    def parse_known_args(self, args=None, namespace=None):
        if args is None:
            args = _sys.argv[1:]
        args = list(args)
        ns = namespace if namespace is not None else Namespace()
        for a in self._actions:
            if a.dest != SUPPRESS and not hasattr(ns, a.dest) and a.default != SUPPRESS:
                d = a.default
                if isinstance(d, str) and a.type is not None and a.option_strings:
                    d = self._convert(a, d)
                setattr(ns, a.dest, d)
        for k, v in self._defaults.items():
            if not hasattr(ns, k):
                setattr(ns, k, v)
        positionals = [a for a in self._actions if not a.option_strings]
        pos_values = []
        extras = []
        seen = set()
        seen_mutex = {}
        i = 0
        only_pos = False
        while i < len(args):
            s = args[i]
            if s == "--" and not only_pos:
                only_pos = True
                i += 1
                continue
            if not only_pos and s.startswith("-") and s != "-" and not _looks_negative(s, self):
                opt = s
                attached = None
                if s.startswith("--") and "=" in s:
                    opt, attached = s.split("=", 1)
                elif not s.startswith("--") and len(s) > 2:
                    a0, _ = self._find_option(s[:2])
                    if a0 is not None and self._find_option(s)[0] is None:
                        opt, attached = s[:2], s[2:]
                        if a0.nargs == 0:
                            # combined short flags: -xvf
                            for ch in s[1:]:
                                ai, _ = self._find_option("-" + ch)
                                if ai is None:
                                    self.error(f"unrecognized arguments: {s}")
                                self._apply_flag(ai, "-" + ch, ns)
                                seen.add(id(ai))
                            i += 1
                            continue
                a, matched = self._find_option(opt)
                if a is None:
                    extras.append(s)
                    i += 1
                    continue
                g = self._exclusive.get(id(a))
                if g is not None:
                    other = seen_mutex.get(id(g))
                    if other is not None and other is not a:
                        self.error(f"argument {_arg_name(a)}: not allowed with argument {_arg_name(other)}")
                    seen_mutex[id(g)] = a
                seen.add(id(a))
                if a.nargs == 0:
                    if attached is not None and s.startswith("--"):
                        self.error(f"argument {_arg_name(a)}: ignored explicit argument {attached!r}")
                    self._apply_flag(a, matched, ns)
                    i += 1
                    continue
                vals = []
                if attached is not None:
                    vals = [attached]
                    i += 1
                else:
                    i += 1
                    want = a.nargs
                    if want is None or isinstance(want, int):
                        n = 1 if want is None else want
                        while len(vals) < n and i < len(args) and (not args[i].startswith("-") or _looks_negative(args[i], self) or args[i] == "-"):
                            vals.append(args[i])
                            i += 1
                        if len(vals) < n:
                            if want is None:
                                self.error(f"argument {_arg_name(a)}: expected one argument")
                            self.error(f"argument {_arg_name(a)}: expected {n} argument{'s' if n != 1 else ''}")
                    else:
                        while i < len(args) and (not args[i].startswith("-") or _looks_negative(args[i], self) or args[i] == "-") and args[i] != "--":
                            vals.append(args[i])
                            i += 1
                            if want == "?":
                                break
                        if want == "+" and not vals:
                            self.error(f"argument {_arg_name(a)}: expected at least one argument")
                self._apply_values(a, vals, ns)
                continue
            if self._subparsers is not None and len(pos_values) >= len([p for p in positionals if p.nargs not in ("?", "*")]) and s in self._subparsers.choices:
                self._assign_positionals(positionals, pos_values, ns)
                sp = self._subparsers
                if sp.dest:
                    setattr(ns, sp.dest, s)
                sub = sp.choices[s]
                sub_ns, rest = sub.parse_known_args(args[i + 1:], ns)
                extras.extend(rest)
                self._check_required(seen, ns, positionals_done=True)
                return ns, extras
            pos_values.append(s)
            i += 1
        self._assign_positionals(positionals, pos_values, ns, extras)
        if self._subparsers is not None and self._subparsers.required:
            sp = self._subparsers
            name = sp.dest or "{" + ",".join(sp.choices) + "}"
            self.error(f"the following arguments are required: {name}")
        self._check_required(seen, ns)
        for g in self._mutex_groups:
            if g.required and id(g) not in seen_mutex:
                names = " ".join(_arg_name(a) for a in g._actions)
                self.error(f"one of the arguments {names} is required")
        return ns, extras

    def _check_required(self, seen, ns, positionals_done=False):
        missing = [_arg_name(a) for a in self._actions if a.option_strings and a.required and id(a) not in seen]
        if missing:
            self.error("the following arguments are required: " + ", ".join(missing))

    def _assign_positionals(self, positionals, values, ns, extras=None):
        vals = list(values)
        missing = []
        for idx, a in enumerate(positionals):
            rest_needed = 0
            for b in positionals[idx + 1:]:
                if b.nargs is None:
                    rest_needed += 1
                elif isinstance(b.nargs, int):
                    rest_needed += b.nargs
                elif b.nargs == "+":
                    rest_needed += 1
            n = a.nargs
            if n is None:
                if not vals:
                    missing.append(_arg_name(a))
                    continue
                setattr(ns, a.dest, self._convert(a, vals.pop(0)))
            elif isinstance(n, int):
                if len(vals) < n:
                    missing.append(_arg_name(a))
                    continue
                setattr(ns, a.dest, [self._convert(a, v) for v in vals[:n]])
                vals = vals[n:]
            elif n == "?":
                if len(vals) > rest_needed:
                    setattr(ns, a.dest, self._convert(a, vals.pop(0)))
                else:
                    setattr(ns, a.dest, a.default if a.const is None else a.const if False else a.default)
            elif n in ("*", "+", REMAINDER):
                take = max(0, len(vals) - rest_needed)
                if n == "+" and take == 0:
                    missing.append(_arg_name(a))
                    continue
                got = [self._convert(a, v) for v in vals[:take]] if n != REMAINDER else vals[:take]
                vals = vals[take:]
                if n == "*" and not got and a.default is not None:
                    setattr(ns, a.dest, a.default)
                else:
                    setattr(ns, a.dest, got)
        if missing:
            self.error("the following arguments are required: " + ", ".join(missing))
        if vals:
            if extras is not None:
                extras.extend(vals)
            else:
                self.error("unrecognized arguments: " + " ".join(vals))

    def _apply_flag(self, a, opt, ns):
        act = a.action
        if act == "help":
            self.print_help()
            self.exit(0)
        elif act == "version":
            _sys.stdout.write(str(a.version).replace("%(prog)s", self.prog) + "\n")
            self.exit(0)
        elif act in ("store_true", "store_false", "store_const"):
            setattr(ns, a.dest, a.const)
        elif act == "append_const":
            cur = getattr(ns, a.dest, None)
            setattr(ns, a.dest, (list(cur) if cur else []) + [a.const])
        elif act == "count":
            cur = getattr(ns, a.dest, None)
            setattr(ns, a.dest, (cur or 0) + 1)
        elif act == "boolopt":
            setattr(ns, a.dest, not opt.startswith("--no-"))

    def _apply_values(self, a, vals, ns):
        if a.nargs == "?" and not vals:
            v = a.const
        elif a.nargs is None or a.nargs == "?":
            v = self._convert(a, vals[0])
        else:
            v = [self._convert(a, x) for x in vals]
        if a.action == "append":
            cur = getattr(ns, a.dest, None)
            setattr(ns, a.dest, (list(cur) if cur else []) + [v])
        elif a.action == "extend":
            cur = getattr(ns, a.dest, None)
            setattr(ns, a.dest, (list(cur) if cur else []) + list(v))
        else:
            setattr(ns, a.dest, v)


def _looks_negative(s, parser):
    if len(s) > 1 and s[0] == "-" and (s[1:].replace(".", "", 1).isdigit()):
        return not any(o[1:].replace(".", "", 1).isdigit() for a in parser._actions for o in a.option_strings if len(o) > 1)
    return False


class BooleanOptionalAction:
    pass
