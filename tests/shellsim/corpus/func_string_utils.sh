upper() { echo "${1^^}"; }
lower() { echo "${1,,}"; }
trim() { local s="$1"; s="${s#"${s%%[![:space:]]*}"}"; s="${s%"${s##*[![:space:]]}"}"; echo "[$s]"; }
upper hello
lower WORLD
trim "   padded   "
