"""Shell-like lexing: split, quote, join."""
import re

_find_unsafe = re.compile(r"[^\w@%+=:,./-]").search


def quote(s):
    if not s:
        return "''"
    if _find_unsafe(s) is None:
        return s
    return "'" + s.replace("'", "'\"'\"'") + "'"


def join(split_command):
    return " ".join(quote(arg) for arg in split_command)


def split(s, comments=False, posix=True):
    out = []
    cur = []
    have = False
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c in " \t\n\r":
            if have:
                out.append("".join(cur))
                cur = []
                have = False
            i += 1
            continue
        if c == "#" and comments and not have:
            while i < n and s[i] != "\n":
                i += 1
            continue
        have = True
        if c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                raise ValueError("No closing quotation")
            cur.append(s[i + 1:j])
            i = j + 1
        elif c == '"':
            i += 1
            while True:
                if i >= n:
                    raise ValueError("No closing quotation")
                c = s[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\" and i + 1 < n and s[i + 1] in '"\\$`\n':
                    cur.append(s[i + 1])
                    i += 2
                    continue
                cur.append(c)
                i += 1
        elif c == "\\":
            if i + 1 >= n:
                raise ValueError("No escaped character")
            cur.append(s[i + 1])
            i += 2
        else:
            cur.append(c)
            i += 1
    if have:
        out.append("".join(cur))
    return out
