s=""
for w in the quick brown fox; do s="${s:+$s-}$w"; done
echo "$s"
