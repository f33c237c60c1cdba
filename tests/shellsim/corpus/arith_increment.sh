i=5
((i++)); echo $i
((i--)); echo $i
((i += 10)); echo $i
((i *= 2)); echo $i
echo $((++i)) $((i++)) $i
