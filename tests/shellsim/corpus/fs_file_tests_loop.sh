mkdir d; touch f; ln -s f l
for p in d f l none; do
  if [ -L "$p" ]; then t=link
  elif [ -d "$p" ]; then t=dir
  elif [ -f "$p" ]; then t=file
  else t=missing; fi
  echo "$p: $t"
done
