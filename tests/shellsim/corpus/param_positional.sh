set -- alpha beta gamma
echo "$1 $3"
echo "$#"
shift
echo "$@"
set -- "a b" c
for a in "$@"; do echo "<$a>"; done
