import sys
def main(argv):
    if len(argv) < 2:
        print("usage: prog ARG", file=sys.stderr)
        return 2
    print("args:", argv[1:])
    return 0
sys.exit(main(sys.argv))
