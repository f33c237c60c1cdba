s="mississippi"
t="${s//[^s]/}"
echo "s count: ${#t}"
