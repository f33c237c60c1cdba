for fruit in apple kiwi banana; do
  case $fruit in
    apple) echo "red" ;;
    banana) echo "yellow" ;;
    *) echo "unknown: $fruit" ;;
  esac
done
