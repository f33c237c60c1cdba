for s in 123 abc A1 ""; do
  case $s in
    '') echo "empty" ;;
    *[!0-9]*) echo "$s: not numeric" ;;
    *) echo "$s: numeric" ;;
  esac
done
