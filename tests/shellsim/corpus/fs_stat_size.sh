printf '12345' > five.bin
stat -c %s five.bin
wc -c < five.bin
