mkdir t
touch t/a.c t/b.h t/c.txt t/d.c
find t -type f \( -name '*.c' -o -name '*.h' \) | sort
find t -type f ! -name '*.c' | sort
