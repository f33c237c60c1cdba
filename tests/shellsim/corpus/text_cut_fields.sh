printf 'a:b:c\nd:e:f\n' | cut -d: -f2
printf 'a:b:c\nd:e:f\n' | cut -d: -f1,3
printf 'abcdef\n' | cut -c2-4
