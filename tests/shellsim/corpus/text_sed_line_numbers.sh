printf 'a\nb\nc\n' | sed -n '='
printf 'a\nb\nc\n' | sed = | sed 'N;s/\n/ /'
