touch f
for m in 644 u+x g+w o-r a-x u=rw,go=r 755 go-rx u+s 1777 0644; do
  chmod "$m" f
  printf '%-10s %s %s\n' "$m" "$(stat -c %a f)" "$(stat -c %A f)"
done
