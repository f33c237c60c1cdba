read -ra words <<< "one two three"
echo "${#words[@]} ${words[2]}"
