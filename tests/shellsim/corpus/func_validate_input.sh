validate() {
  case $1 in
    ''|*[!0-9]*) echo "invalid: '$1'"; return 1 ;;
    *) echo "valid: $1" ;;
  esac
}
validate 42
validate 4a2 || echo "failed"
validate ""
