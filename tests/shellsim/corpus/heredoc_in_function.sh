usage() {
  cat <<USAGE
Usage: tool [options]
  -h  help
USAGE
}
usage
