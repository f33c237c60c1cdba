import argparse
p = argparse.ArgumentParser(prog="tool", description="demo")
p.add_argument("files", nargs="+")
p.add_argument("-n", "--count", type=int, default=3)
p.add_argument("-v", "--verbose", action="store_true")
p.add_argument("--mode", choices=["a", "b"], default="a")
p.add_argument("--tag", action="append")
ns = p.parse_args(["x.txt", "y.txt", "-n", "5", "--verbose", "--tag", "t1", "--tag=t2"])
print(ns.files, ns.count, ns.verbose, ns.mode, ns.tag)
print(vars(p.parse_args(["z"])))
try:
    p.parse_args(["--mode", "c", "f"])
except SystemExit as e:
    print("exit", e.code)
try:
    p.parse_args([])
except SystemExit as e:
    print("exit", e.code)
