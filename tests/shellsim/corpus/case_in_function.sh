classify() {
  case $1 in
    [0-9]) echo digit ;;
    [a-z]) echo lower ;;
    [A-Z]) echo upper ;;
    *) echo other ;;
  esac
}
for c in 5 q Q '#'; do echo "$c: $(classify "$c")"; done
