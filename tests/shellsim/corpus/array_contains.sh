list=(apple banana cherry)
contains() { local x; for x in "${@:2}"; do [[ "$x" == "$1" ]] && return 0; done; return 1; }
contains banana "${list[@]}" && echo yes
contains grape "${list[@]}" || echo no
