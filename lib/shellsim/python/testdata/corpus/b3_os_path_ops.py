import os.path as p
cases = ["/a/b/c.txt", "a/b/", "c", "/", "", ".hidden", "archive.tar.gz", "../x/./y"]
for c in cases:
    print(repr(c), p.basename(c), p.dirname(c), p.splitext(c), p.normpath(c) if c else "")
print(p.join("/a", "b", "/c", "d"), p.join("a", ""), p.relpath("/a/b/c", "/a/x"), p.commonpath(["/a/b/c", "/a/b/d"]))
print(p.isabs("a"), p.split("/a/b/"), p.expanduser("~/x").endswith("/x"))
