mkdir d
cp d e 2>/dev/null || echo "no -r: $?"
cp missing x 2>/dev/null || echo "missing: $?"
cp a b c 2>/dev/null || echo "bad target: $?"
cp -r d d/inside 2>/dev/null || echo "into itself: $?"
