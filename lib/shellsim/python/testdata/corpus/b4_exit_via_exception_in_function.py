import sys
def main():
    print("working")
    raise SystemExit(4)
if __name__ == "__main__":
    main()
