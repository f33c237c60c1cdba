for i in 1 2 3; do touch "img_$i.jpeg"; done
for f in *.jpeg; do mv "$f" "${f%.jpeg}.jpg"; done
ls
