"""Shell-style filename matching."""
import re

__all__ = ["filter", "fnmatch", "fnmatchcase", "translate"]


def translate(pat):
    i, n = 0, len(pat)
    res = ""
    while i < n:
        c = pat[i]
        i += 1
        if c == "*":
            res += ".*"
        elif c == "?":
            res += "."
        elif c == "[":
            j = i
            if j < n and pat[j] == "!":
                j += 1
            if j < n and pat[j] == "]":
                j += 1
            while j < n and pat[j] != "]":
                j += 1
            if j >= n:
                res += "\\["
            else:
                stuff = pat[i:j].replace("\\", "\\\\")
                i = j + 1
                if stuff[0] == "!":
                    stuff = "^" + stuff[1:]
                elif stuff[0] == "^":
                    stuff = "\\" + stuff
                res += "[" + stuff + "]"
        else:
            res += re.escape(c)
    return "(?s:" + res + ")\\Z"


def fnmatchcase(name, pat):
    return re.match(translate(pat), name) is not None


def fnmatch(name, pat):
    return fnmatchcase(name, pat)


def filter(names, pat):
    return [n for n in names if fnmatchcase(n, pat)]
