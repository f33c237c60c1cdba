for word in $(echo "one two  three"); do echo "[$word]"; done
