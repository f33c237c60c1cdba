mkdir sub
(cd sub && touch made_here)
ls sub
[ -f made_here ] || echo "not in top"
