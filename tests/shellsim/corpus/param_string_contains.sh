s="the quick brown fox"
[[ $s == *quick* ]] && echo "contains quick"
[[ $s == the* ]] && echo "starts with the"
[[ $s =~ b(r)own ]] && echo "regex match: ${BASH_REMATCH[0]} ${BASH_REMATCH[1]}"
