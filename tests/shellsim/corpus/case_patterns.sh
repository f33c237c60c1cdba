for f in a.txt b.jpg c.png d.tar.gz e; do
  case $f in
    *.txt) echo "$f: text" ;;
    *.jpg|*.png) echo "$f: image" ;;
    *.tar.*) echo "$f: archive" ;;
    *) echo "$f: other" ;;
  esac
done
