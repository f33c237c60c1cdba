import shlex
from pathlib import Path, PurePosixPath
print(shlex.split('cmd --opt "quoted arg" \'single q\' plain\\ esc'))
print(shlex.quote("safe"), shlex.quote("needs quoting"), shlex.join(["a b", "c"]))
p = PurePosixPath("/srv/app/data/file.tar.gz")
print(p.parts, p.parent.parent, p.name, p.stem, p.suffix, p.suffixes)
print(p.with_name("x.txt"), p.relative_to("/srv"), p.is_relative_to("/etc"), p.match("*.gz"))
print(Path("a") / "b" / "c.txt", sorted([Path("b"), Path("a")]))
