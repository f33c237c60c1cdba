for ans in y Yes NO n maybe; do
  case ${ans,,} in
    y|yes) echo "$ans -> yes" ;;
    n|no) echo "$ans -> no" ;;
    *) echo "$ans -> ?" ;;
  esac
done
