die() { echo "fatal: $*" >&2; exit 2; }
[ -f config.cfg ] || die "config missing"
echo "unreachable"
