printf '%s\n' hello
printf '%d items\n' 42
printf '%5.2f\n' 3.14159
printf '%x %o %X\n' 255 8 255
printf '%e\n' 12345.678
