import argparse
p = argparse.ArgumentParser(prog="tool", description="Process some files.")
p.add_argument("input", help="input file")
p.add_argument("-o", "--output", default="out.txt", help="output file")
p.add_argument("-v", "--verbose", action="store_true", help="be chatty")
p.print_help()
