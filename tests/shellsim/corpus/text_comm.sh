printf 'a\nb\nc\n' > s1
printf 'b\nc\nd\n' > s2
comm s1 s2
comm -12 s1 s2
